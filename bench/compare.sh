#!/bin/bash
# bench/compare.sh OLD NEW [ROUNDS]: the paired benchmarks of a refactor.
#
# OLD and NEW are two checkouts of gobayes (git worktree add /tmp/old REV),
# each with ../shared beside it or GOBAYES_POSTERIORDB set. Each round runs
# every benchmark on OLD then on NEW, so that both see the same load; the
# figures to compare are the ratios each benchmark reports against its own
# anchor (ModelRatio: hand-written Go; PosteriordbGradient: ir/vec; Batch:
# frame/cpu) and, for the absolute ones, the best of the rounds.
# Output: one line per benchmark per round, "== old|new round N" headers.
set -eu
old=$(cd "$1" && pwd) new=$(cd "$2" && pwd) rounds=${3:-3}
bin=$(mktemp -d)
for side in old new; do
	dir=${!side}
	(cd "$dir" &&
		go test -c -o "$bin/ppl_$side" ./ppl &&
		go test -c -o "$bin/vec_$side" ./accel/vec &&
		go test -c -o "$bin/cpu_$side" ./accel/cpu &&
		go test -c -o "$bin/ir_$side" ./accel/ir &&
		go build -o "$bin/rwmh_$side" ./bench/rwmh)
done
for r in $(seq "$rounds"); do
	for side in old new; do
		dir=${!side}
		echo "== $side round $r"
		(cd "$dir/ppl" && "$bin/ppl_$side" -test.run '^$' -test.bench 'ModelRatio|ShardedLogistic' -test.benchtime 2s | grep ^Benchmark)
		(cd "$dir/accel/vec" && "$bin/vec_$side" -test.run '^$' -test.bench PosteriordbGradient -test.benchtime 1s | grep ^Benchmark)
		(cd "$dir/accel/cpu" && "$bin/cpu_$side" -test.run '^$' -test.bench . -test.benchtime 1s | grep ^Benchmark)
		(cd "$dir/accel/ir" && "$bin/ir_$side" -test.run '^$' -test.bench 'Ops|Dispatch|ScanGARCH' -test.benchtime 1s | grep ^Benchmark)
		(cd "$dir" && "$bin/rwmh_$side" -scalar=false | grep -E 'lockstep:|peak')
	done
done
rm -r "$bin"
