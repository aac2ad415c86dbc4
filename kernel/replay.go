package kernel

import (
	"encoding/binary"
	"encoding/hex"
	"runtime"
	"sync"
	"syscall"
	"unsafe"
)

// replayWindow is how many signatures the kernel remembers to refuse a
// signed message sent twice: ipykernel's Session remembers as many
// (digest_history_size, 2^16). A replay is refused while fewer than that
// many messages have arrived since the original.
const replayWindow = 1 << 16

// replaySlots is the size of the guard's hash table: twice the window, so
// that it is at most half full and a probe is short.
const replaySlots = 2 * replayWindow

// replayGuard remembers the signatures of the last replayWindow messages,
// each by its first 8 bytes: only signatures that verified are recorded,
// and without the key nobody can choose an HMAC's bytes, so two of them
// share 8 bytes by chance only (about once in 10^10 full windows).
//
// Its memory is two arrays made on the first message and never grown: an
// open-addressed table (linear probing, deletion by shifting back the
// entries after the removed one, so no tombstones) and the ring of the
// window's signatures in arrival order. A Go map in their place grew with
// every message until the window filled, which a long session saw as the
// kernel's memory growing cell after cell.
//
// The arrays are mapped from the operating system, not made on the Go
// heap (replayArrays): they hold no pointers and live as long as the
// kernel, and on the heap they would be most of the kernel's live heap,
// which the collector lets the heap grow to a multiple of (GOGC) before it
// collects. Off the heap they cost their own pages and nothing more.
// The zero value is ready to use.
type replayGuard struct {
	mu    sync.Mutex
	mem   *replayArrays // nil until the first message
	slots []uint64      // 0 is an empty slot
	zero  bool          // whether the digest 0, which has no slot, is remembered
	ring  []uint64      // the window's digests in arrival order from next
	n     int           // digests in ring
	next  int           // where the next digest goes (the oldest, once full)
}

// replayArrays is the guard's table and ring in one anonymous private
// mapping, whose pages the system gives (zeroed) as they are first
// written; the mapping is returned when the guard is no longer reachable.
// Where the system refuses the mapping, the arrays are made on the heap.
type replayArrays struct {
	slots, ring []uint64
}

func newReplayArrays() *replayArrays {
	const words = replaySlots + replayWindow
	b, err := syscall.Mmap(-1, 0, words*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return &replayArrays{slots: make([]uint64, replaySlots), ring: make([]uint64, replayWindow)}
	}
	all := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), words)
	a := &replayArrays{slots: all[:replaySlots:replaySlots], ring: all[replaySlots:]}
	// The mapping is referred to only through a (the guard keeps a, and
	// takes its slices from it), so once a is unreachable nothing can
	// touch the pages.
	runtime.AddCleanup(a, func(b []byte) { syscall.Munmap(b) }, b)
	return a
}

// slot is d's home slot: the digest is mixed (Fibonacci hashing) so that
// digests that differ only in their high bits still spread.
func replaySlot(d uint64) int {
	return int((d * 0x9e3779b97f4a7c15) >> (64 - 17))
}

// find returns the slot holding d, or the empty slot where it would go.
func (g *replayGuard) find(d uint64) (int, bool) {
	for i := replaySlot(d); ; i = (i + 1) & (replaySlots - 1) {
		switch g.slots[i] {
		case d:
			return i, true
		case 0:
			return i, false
		}
	}
}

// remove empties d's slot and moves back the entries of its probe run that
// could sit earlier, so every entry stays reachable from its home slot.
func (g *replayGuard) remove(d uint64) {
	i, ok := g.find(d)
	if !ok {
		return
	}
	for j := (i + 1) & (replaySlots - 1); g.slots[j] != 0; j = (j + 1) & (replaySlots - 1) {
		h := replaySlot(g.slots[j])
		// The entry at j may move to i when its home is not in (i, j]
		// (cyclically): moving it would otherwise put it before its home.
		if (j > i && (h <= i || h > j)) || (j < i && h <= i && h > j) {
			g.slots[i] = g.slots[j]
			i = j
		}
	}
	g.slots[i] = 0
}

// first records sig, a signature (lowercase hex, as verified, or the
// digest's bytes), and reports whether it was not among those remembered.
func (g *replayGuard) first(sig []byte) bool {
	var b [32]byte
	if len(sig) == 2*len(b) {
		hex.Decode(b[:], sig)
	} else {
		copy(b[:], sig)
	}
	d := binary.LittleEndian.Uint64(b[:8])
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.mem == nil {
		g.mem = newReplayArrays()
		g.slots, g.ring = g.mem.slots, g.mem.ring
	}
	if d == 0 && g.zero {
		return false
	}
	if d != 0 {
		if _, seen := g.find(d); seen {
			return false
		}
	}
	if g.n == replayWindow {
		if old := g.ring[g.next]; old == 0 {
			g.zero = false
		} else {
			g.remove(old)
		}
	} else {
		g.n++
	}
	if d == 0 {
		g.zero = true
	} else {
		i, _ := g.find(d)
		g.slots[i] = d
	}
	g.ring[g.next] = d
	g.next = (g.next + 1) % replayWindow
	return true
}

// len is how many signatures the guard remembers.
func (g *replayGuard) len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n
}
