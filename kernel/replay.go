package kernel

import (
	"encoding/hex"
	"sync"
)

// replayWindow is how many signatures the kernel remembers to refuse a
// signed message sent twice: ipykernel's Session remembers as many
// (digest_history_size, 2^16). A replay is refused while fewer than that
// many messages have arrived since the original; the memory is 2 MiB for
// the ring and about as much for the index, once full.
const replayWindow = 1 << 16

// replayGuard remembers the signatures of the last replayWindow messages.
// The zero value is ready to use.
type replayGuard struct {
	mu   sync.Mutex
	seen map[[32]byte]struct{}
	ring [][32]byte // in arrival order from next, once full
	next int        // the oldest entry of a full ring
}

// first records sig, a signature (lowercase hex, as verified, or the
// digest's bytes), and reports whether it was not among those remembered.
func (g *replayGuard) first(sig []byte) bool {
	var d [32]byte
	if len(sig) == 2*len(d) {
		hex.Decode(d[:], sig)
	} else {
		copy(d[:], sig)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.seen[d]; ok {
		return false
	}
	if g.seen == nil {
		g.seen = make(map[[32]byte]struct{})
	}
	if len(g.ring) < replayWindow {
		g.ring = append(g.ring, d)
	} else {
		delete(g.seen, g.ring[g.next])
		g.ring[g.next] = d
		g.next = (g.next + 1) % replayWindow
	}
	g.seen[d] = struct{}{}
	return true
}
