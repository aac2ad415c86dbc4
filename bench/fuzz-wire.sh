#!/bin/bash
# bench/fuzz-wire.sh [FUZZTIME]: the byte-level fuzzers of the kernel's
# wire (issue 26), one after the other, FUZZTIME each (default 10m), on one
# worker each so that the machine stays usable:
#
#   FuzzZMTPStream  any byte stream through the guard (kernel/zmtp.go), then
#                   zmq4's handshake and framing, in memory: no panic, no
#                   message over the limit, nothing but subscriptions on iopub;
#   FuzzZMTP        any bytes to any port of a kernel served on 127.0.0.1 over
#                   TCP: no crash, the connection closed once the peer is done,
#                   and every 32nd input a real client runs a cell (state kept).
#
# Their seed corpora (the reproducers of issue 26) run in plain `go test`.
# A failing input is written under kernel/testdata/fuzz/ and then runs in
# `go test` too. Prints the last status line of each run.
set -eu
t=${1:-10m}
cd "$(dirname "$0")/.."
for f in FuzzZMTPStream FuzzZMTP; do
	echo "== $f, $t"
	go test -run='^$' -fuzz="^$f\$" -fuzztime="$t" -parallel=1 ./kernel/ 2>&1 |
		grep -v '^zmq4: ' | grep -E '^(fuzz: elapsed|---|ok|FAIL|PASS)|Failing input|panic' | tail -n 4
done
