#!/usr/bin/env bash
# device-run.sh: CUDA tests and GPU benchmarks on a machine with CUDA but no Go.
#
#   accel/cuda/device-run.sh pack [DIR]   # here: DIR (default .devpack) gets a trimmed Go
#                                         # toolchain, the vendored modules and posteriordb
#   accel/cuda/device-run.sh run [STEP…]  # there, from the repo root, with DIR carried
#
# Steps: worker conformance samplers crossover gpubench numpyro, or shell:CMD. With none, all.
# Each step's output goes to $OUT/STEP.log when OUT is set. cu v0.9.6 compiles against
# CUDA 13 headers through accel/cuda/cucompat (see its cuda.h).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
PACK=${DEVPACK:-$ROOT/.devpack}

pack() {
	local dir=${1:-$PACK} goroot tmp
	goroot=$(go env GOROOT)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	mkdir -p "$dir" "$tmp/go/pkg/tool/linux_amd64" "$tmp/go/bin"
	cp "$goroot/VERSION" "$goroot/go.env" "$tmp/go/"
	cp "$goroot/bin/go" "$tmp/go/bin/"
	for t in compile link asm cgo buildid vet; do
		[ -e "$goroot/pkg/tool/linux_amd64/$t" ] && cp "$goroot/pkg/tool/linux_amd64/$t" "$tmp/go/pkg/tool/linux_amd64/"
	done
	cp -r "$goroot/pkg/include" "$tmp/go/pkg/"
	# The standard library's source without tests, test data or the commands.
	(cd "$goroot" && find src -path src/cmd -prune -o -type d -name testdata -prune -o -type f ! -name '*_test.go' -print) |
		tar -C "$goroot" -cf - -T - | tar -C "$tmp/go" -xf -
	# src/cmd is needed only for its go.mod/vendor when building std's cmd deps: keep the module files.
	mkdir -p "$tmp/go/src/cmd" && cp "$goroot/src/cmd/go.mod" "$goroot/src/cmd/go.sum" "$tmp/go/src/cmd/" 2>/dev/null
	tar -C "$tmp" -cf - go | xz -T0 -6 > "$dir/go.tar.xz"
	# Vendored modules (go.mod untouched).
	go mod vendor -o "$tmp/vendor" || return 1
	tar -C "$tmp" -cf - vendor | xz -T0 -6 > "$dir/vendor.tar.xz"
	rm -rf "$dir/posteriordb" && cp -r "$ROOT/../shared/posteriordb" "$dir/posteriordb"
	{ echo "go: $(cat "$goroot/VERSION" | head -1)"; date -u; du -sh "$dir"/*; } > "$dir/manifest.txt"
	cat "$dir/manifest.txt"
	local kb; kb=$(du -sk "$dir" | cut -f1)
	if [ "$kb" -gt $((48 * 1024)) ]; then echo "pack: $dir is ${kb} KiB, over 48 MiB" >&2; return 1; fi
}

setup() {
	local gohome=/tmp/gobayes-go
	if [ ! -x $gohome/go/bin/go ]; then mkdir -p $gohome && xz -dc "$PACK/go.tar.xz" | tar -C $gohome -xf - || return 1; fi
	[ -d "$ROOT/vendor" ] || xz -dc "$PACK/vendor.tar.xz" | tar -C "$ROOT" -xf - || return 1
	export GOROOT=$gohome/go PATH=$gohome/go/bin:$PATH GOTOOLCHAIN=local GOPROXY=off
	export GOFLAGS="-mod=vendor -buildvcs=false" GOCACHE=/tmp/gobayes-gocache GOPATH=/tmp/gobayes-gopath
	export GOBAYES_POSTERIORDB=$PACK/posteriordb CGO_ENABLED=1
	local cuda=${CUDA_HOME:-/usr/local/cuda}
	[ -d "$cuda" ] || cuda=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")" 2>/dev/null)
	# The driver's own libcuda (it exports the pre-13 symbols cu calls), not the stub.
	local drv; drv=$(dirname "$(ldconfig -p 2>/dev/null | awk '/libcuda.so.1 /{print $NF; exit}')" 2>/dev/null)
	[ -e /usr/local/nvidia/lib64/libcuda.so ] && drv=/usr/local/nvidia/lib64
	export CGO_CFLAGS="-I$ROOT/accel/cuda/cucompat -I$cuda/include"
	export CGO_LDFLAGS="-L$drv -L$cuda/lib64 -L$cuda/targets/x86_64-linux/lib"
	export LD_LIBRARY_PATH=$cuda/lib64:$drv:${LD_LIBRARY_PATH:-}
	export GOBAYES_CUDA_WORKER=$ROOT/bin/gobayes-cuda
	nvidia-smi -L; nvcc --version | tail -1; gcc --version | head -1; go version; nproc
}

step() {
	case $1 in
	worker) go build -tags cuda -o bin/gobayes-cuda ./cmd/gobayes-cuda ;;
	conformance) go test -vet=off -tags cuda -count=1 -v -timeout 15m ./accel/cuda/ ;;
	samplers) go test -vet=off -tags cuda -count=1 -v -run OnDevice -bench 'Walk|LogisticGradient|NUTS' -benchtime 1s ./ppl/lockstep &&
		go test -vet=off -tags cuda -count=1 -run '^$' -bench Iterate -benchtime 20x ./accel/cuda ;;
	crossover) go test -vet=off -tags cuda -count=1 -run '^$' -bench Crossover -benchtime 200ms ./accel/cuda ;;
	gpubench) go run ./bench/gpu -data /tmp/gpubench ${GPUBENCH_FLAGS:-} ;;
	numpyro) python3 bench/gpu/numpyro_bench.py --data /tmp/gpubench --out "${OUT:-/tmp}/numpyro.jsonl" ${NUMPYRO_FLAGS:-} ;;
	shell:*) bash -c "${1#shell:}" ;;
	*) echo "unknown step $1" >&2; return 2 ;;
	esac
}

run() {
	setup || { echo "setup failed" >&2; exit 1; }
	local logs=${OUT:-/tmp/gobayes-device} summary="" fail=0
	mkdir -p "$logs"
	[ $# -gt 0 ] || set -- worker conformance samplers crossover gpubench numpyro
	for s in "$@"; do
		echo "=== $s"
		local t0=$SECONDS name=${s%%:*}
		step "$s" 2>&1 | tee "$logs/$name.log"
		local rc=${PIPESTATUS[0]}
		summary+="$(printf '%-12s rc=%-3s %5ss' "$name" "$rc" $((SECONDS - t0)))"$'\n'
		[ "$rc" = 0 ] || fail=1
	done
	echo "=== summary"; printf '%s' "$summary"
	exit $fail
}

case ${1:-} in
pack) shift; pack "$@" ;;
run) shift; run "$@" ;;
*) sed -n '2,10p' "$0"; exit 2 ;;
esac
