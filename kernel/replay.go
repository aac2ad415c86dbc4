package kernel

import (
	"encoding/binary"
	"encoding/hex"
	"sync"
)

// replayWindow is how many signatures the kernel remembers to refuse a
// signed message sent twice: ipykernel's Session remembers as many
// (digest_history_size, 2^16). A replay is refused while fewer than that
// many messages have arrived since the original.
const replayWindow = 1 << 16

// replayGuard remembers the signatures of the last replayWindow messages,
// each by its first 8 bytes: only signatures that verified are recorded,
// and without the key nobody can choose an HMAC's bytes, so two of them
// share 8 bytes by chance only (about once in 10^10 full windows). That
// keeps the guard under 2 MiB once full, where whole digests took 4.
// The zero value is ready to use.
type replayGuard struct {
	mu   sync.Mutex
	seen map[uint64]struct{}
	ring []uint64 // in arrival order from next, once full
	next int      // the oldest entry of a full ring
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
	if _, ok := g.seen[d]; ok {
		return false
	}
	if g.seen == nil {
		g.seen = make(map[uint64]struct{})
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
