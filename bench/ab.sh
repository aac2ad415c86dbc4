#!/bin/bash
# bench/ab.sh OLD_BIN NEW_BIN DIR ROUNDS BENCHTIME PATTERN...: one benchmark
# at a time, alternating the two test binaries ROUNDS times, so that both
# see the same load (on a shared machine whose speed drifts by ±30% within
# minutes, runs of a whole suite per side are not comparable). Prints
# "== old|new" headers and the benchmark lines; compare the best (min) per
# side, or the median of a paired ratio (ModelRatio).
#
# With CONTROL=1 each round also runs the old binary a second time
# ("== control"): identical code measured beside the pair. On this machine
# identical binaries differ by up to ±30% between rounds; a difference
# between old and new smaller than old's against control is noise.
#
#   cd /work/old && go test -c -o /tmp/ir_old ./accel/ir
#   cd /work/main && go test -c -o /tmp/ir_new ./accel/ir
#   bench/ab.sh /tmp/ir_old /tmp/ir_new accel/ir 8 300x 'BenchmarkFamilies/normal$'
set -eu
old=$1 new=$2 dir=$3 rounds=$4 bt=$5
control=$old
shift 5
cd "$dir"
for name in "$@"; do
	for r in $(seq "$rounds"); do
		sides="old new"
		if [ "${CONTROL:-}" = 1 ]; then
			sides="old new control"
		fi
		for side in $sides; do
			echo "== $side"
			"${!side}" -test.run '^$' -test.bench "$name" -test.benchtime "$bt" | grep ^Benchmark
		done
	done
done
