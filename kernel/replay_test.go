package kernel

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// replayArraysBytes is what the guard's two arrays take.
const replayArraysBytes = (replaySlots + replayWindow) * 8

// TestReplayGuardOffHeap: a guard that has seen messages adds almost
// nothing to the Go heap. Its arrays on the heap were most of the kernel's
// live heap, and the collector lets the heap grow to a multiple of that
// before collecting: a long session saw the kernel's memory grow to that
// multiple.
func TestReplayGuardOffHeap(t *testing.T) {
	live := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := live()
	g := new(replayGuard)
	sig := make([]byte, 32)
	for i := 0; i < 1000; i++ {
		sig[0], sig[1] = byte(i), byte(i>>8)
		if !g.first(sig) {
			t.Fatalf("signature %d refused on its first arrival", i)
		}
	}
	after := live()
	runtime.KeepAlive(g)
	grew := int64(after) - int64(before)
	t.Logf("heap: %d bytes before the guard, %d with it (%+d); its arrays take %d", before, after, grew, replayArraysBytes)
	if grew > replayArraysBytes/8 {
		t.Errorf("the guard added %d bytes to the Go heap; its %d bytes of arrays belong off the heap", grew, replayArraysBytes)
	}
}

// TestReplayGuardUnmapped: the mapping of a guard no longer reachable is
// given back to the system, so that kernels made and dropped (tests, a
// restart in process) do not pile up address space.
func TestReplayGuardUnmapped(t *testing.T) {
	const guards = 64
	base := vmSize(t)
	func() {
		gs := make([]*replayGuard, guards)
		for i := range gs {
			gs[i] = new(replayGuard)
			gs[i].first([]byte("a signature of thirty-two bytes!"))
		}
		if grown := vmSize(t) - base; grown < guards*replayArraysBytes/2 {
			t.Fatalf("%d guards mapped only %d bytes; the test cannot see their mappings", guards, grown)
		}
		runtime.KeepAlive(gs)
	}()
	// Cleanups run in their own goroutine after a collection finds the
	// guards unreachable: collect until they have, or give up.
	var grown int64
	for i := 0; i < 200; i++ {
		runtime.GC()
		runtime.Gosched()
		if grown = vmSize(t) - base; grown < guards*replayArraysBytes/4 {
			return
		}
	}
	t.Errorf("%d dropped guards still hold %d bytes of address space", guards, grown)
}

// vmSize is this process's VmSize in bytes.
func vmSize(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status:", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kib << 10
		}
	}
	t.Fatal("no VmSize in /proc/self/status")
	return 0
}
