package kernel

import (
	"fmt"
	"testing"
)

// TestHistoryArena stores many cells under a small limit: the kept cells
// are the latest, decoded as stored (outputs nil or not, empty sources),
// their bytes within the limit, and the arena does not keep the forgotten
// front (its size stays a small multiple of the limit).
func TestHistoryArena(t *testing.T) {
	h := History{Limit: 3000}
	src := func(i int) string {
		if i%7 == 0 {
			return ""
		}
		return fmt.Sprintf("x%d := %d", i, i*i)
	}
	out := func(i int) *string {
		if i%3 == 0 {
			return nil
		}
		s := fmt.Sprintf("%d · ünïcode", i)
		return &s
	}
	const n = 20000
	for i := 1; i <= n; i++ {
		h.Add(i, src(i), out(i))
		if len(h.buf) > 4*h.Limit+8192 {
			t.Fatalf("after %d cells the arena holds %d bytes for a limit of %d", i, len(h.buf), h.Limit)
		}
	}
	all := h.Tail(n)
	if len(all) < 10 || all[len(all)-1].Line != n {
		t.Fatalf("kept %d cells, the last %v", len(all), all[len(all)-1])
	}
	size := 0
	for k, e := range all {
		i := n - len(all) + 1 + k
		if e.Line != i || e.Input != src(i) || (e.Output == nil) != (out(i) == nil) || (e.Output != nil && *e.Output != *out(i)) {
			t.Fatalf("cell %d back as %+v, want line %d, %q, %v", k, e, i, src(i), out(i))
		}
		size += e.size()
	}
	if size > h.Limit || size != h.size {
		t.Errorf("kept %d bytes (counted %d), limit %d", size, h.size, h.Limit)
	}
	if r := h.Range(0, n-4, n-1); len(r) != 3 || r[0].Line != n-4 {
		t.Errorf("Range(%d, %d) gave %d cells from %v", n-4, n-1, len(r), r)
	}
}
