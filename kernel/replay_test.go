package kernel

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
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
// restart in process) do not pile up address space. The guards' table
// addresses must leave /proc/self/maps; a few may be covered again by other
// mappings the system placed in the freed ranges (the race detector's do).
func TestReplayGuardUnmapped(t *testing.T) {
	const guards = 64
	addrs := make([]uintptr, guards)
	func() {
		gs := make([]*replayGuard, guards)
		for i := range gs {
			gs[i] = new(replayGuard)
			gs[i].first([]byte("a signature of thirty-two bytes!"))
			addrs[i] = uintptr(unsafe.Pointer(&gs[i].slots[0]))
		}
		if n := mapped(t, addrs); n != guards {
			t.Fatalf("%d of %d guards' tables are in /proc/self/maps; the test cannot see them", n, guards)
		}
		runtime.KeepAlive(gs)
	}()
	// Cleanups run in their own goroutine after a collection finds the
	// guards unreachable: collect until they have, or give up.
	var n int
	for i := 0; i < 200; i++ {
		runtime.GC()
		runtime.Gosched()
		if n = mapped(t, addrs); n <= guards/8 {
			return
		}
	}
	t.Errorf("%d of %d dropped guards are still mapped", n, guards)
}

// mapped counts the addresses that lie in a mapping of this process.
func mapped(t *testing.T, addrs []uintptr) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skip("no /proc/self/maps:", err)
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		lo, hi, ok := strings.Cut(strings.Fields(line + " -")[0], "-")
		if !ok {
			continue
		}
		a, err1 := strconv.ParseUint(lo, 16, 64)
		e, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		for _, p := range addrs {
			if uint64(p) >= a && uint64(p) < e {
				n++
			}
		}
	}
	return n
}
