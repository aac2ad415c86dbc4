#!/bin/sh
# Runs the NUTS variants of issue 22's investigation over seeds 1..N on a
# case and summarises them beside rstan's table for the same seeds:
#
#   bench/seeds/variants.sh [N] [CASE]        (defaults: 40, the centred eight schools)
#
# The variants are switched by the environment variable GB_NUTS in a build
# of this tree with bench/seeds/variants.patch applied, in a temporary git
# worktree (the patch is experiment code, not the sampler):
#   main   the sampler as it is
#   oldjoin  the join checks' bookkeeping before df6d21b (the inner end of
#          the trajectory taken from the last subtree's far end)
#   diag   no dense-metric trial (bench/seeds -diag)
#   plain  the U-turn checked across the whole tree only, without the
#          checks across the joins of subtrees
#   slice  slice sampling within the tree (weights 0/1 against one uniform
#          slice variable) instead of multinomial weights
#   mu1    the first step-size phase's dual averaging centred on
#          log(10 × the initial step size 1), as Stan's services do,
#          instead of 10 × the heuristic's step size
# rstan's table comes from bench/seeds/stan_seeds.R (run it first; see
# bench/README.md). Results go to bench/seeds/results/variant-*.csv.
set -eu
N=${1:-40}
CASE=${2:-eight_schools-eight_schools_centered}
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tmp/wt" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git -C "$root" worktree add --detach "$tmp/wt" HEAD >/dev/null 2>&1
git -C "$tmp/wt" apply "$root/bench/seeds/variants.patch"
(cd "$tmp/wt" && go build -o "$tmp/seeds" ./bench/seeds)
out="$root/bench/seeds/results"
mkdir -p "$out"
for v in main oldjoin diag oldjoin-diag plain slice mu1; do
	flag=
	env=$v
	case $v in main) env= ;; diag) env= flag=-diag ;; oldjoin-diag) env=oldjoin flag=-diag ;; esac
	(cd "$root" && GB_NUTS=$env nice "$tmp/seeds" -case "$CASE" -seeds "$N" $flag -csv "$out/variant-$v.csv" -label "$v" >/dev/null)
done
short=${CASE#*-}
stan="$out/stan-$short.csv"
[ -f "$stan" ] || stan=
python3 "$root/bench/seeds/summarise.py" $stan "$out"/variant-main.csv "$out"/variant-oldjoin.csv \
	"$out"/variant-diag.csv "$out"/variant-oldjoin-diag.csv "$out"/variant-plain.csv \
	"$out"/variant-slice.csv "$out"/variant-mu1.csv
