package posterior

import (
	"math"
	"math/bits"
	"sync"

	"github.com/gobayes/gobayes/ppl/diag"
)

// statsCache keeps the diag.Scalar of columns a posterior has summarised,
// by the content of their draws: the summary table, the warnings and
// Diagnostics of the same posterior share one computation, and a draw
// changed in place (or a column of a Select-ed copy, which shares the
// cache) is a different key, never a stale value.
type statsCache struct {
	mu sync.Mutex
	by map[drawsKey]diag.Scalar
}

// drawsKey identifies a column's draws: two 64-bit hashes of every
// draw's bits, the chain lengths included.
type drawsKey [2]uint64

// cacheInit guards the lazy creation of every posterior's cache (a
// Posterior is made as a struct literal, so there is no constructor to
// make it in).
var cacheInit sync.Mutex

func (p *Posterior) statsCache() *statsCache {
	cacheInit.Lock()
	defer cacheInit.Unlock()
	if p.stats == nil {
		p.stats = &statsCache{}
	}
	return p.stats
}

func keyOf(chains [][]float64) drawsKey {
	const (
		p1 = 0x9E3779B185EBCA87
		p2 = 0xC2B2AE3D27D4EB4F
		p3 = 0x165667B19E3779F9
		p4 = 0xFF51AFD7ED558CCD
	)
	h1, h2 := uint64(len(chains))*p1, uint64(len(chains))*p3+1
	for _, c := range chains {
		h1 = bits.RotateLeft64(h1^uint64(len(c))*p2, 31) * p1
		h2 = bits.RotateLeft64(h2+uint64(len(c))*p4, 27) * p3
		for _, v := range c {
			x := math.Float64bits(v)
			h1 = bits.RotateLeft64(h1^x*p2, 31) * p1
			h2 = bits.RotateLeft64(h2+x*p4, 27) * p3
		}
	}
	return drawsKey{h1, h2}
}

// columnStats returns the diag.Scalar of every column in cols, by column
// index: from the cache, or computed together (diag.SummariseAll, on
// every core).
func (p *Posterior) columnStats(cols []int) map[int]diag.Scalar {
	c := p.statsCache()
	out := make(map[int]diag.Scalar, len(cols))
	keys := make([]drawsKey, len(cols))
	var todo []int // indices into cols
	for i, j := range cols {
		keys[i] = keyOf(p.byIndex(j))
	}
	c.mu.Lock()
	for i, j := range cols {
		if s, ok := c.by[keys[i]]; ok {
			out[j] = s
			continue
		}
		todo = append(todo, i)
	}
	c.mu.Unlock()
	if len(todo) == 0 {
		return out
	}
	scalars := make([][][]float64, len(todo))
	for k, i := range todo {
		scalars[k] = p.byIndex(cols[i])
	}
	got := diag.SummariseAll(scalars, 0)
	c.mu.Lock()
	if c.by == nil || len(c.by)+len(todo) > 2*len(p.Columns)+64 {
		c.by = map[drawsKey]diag.Scalar{} // stale keys of changed draws go
	}
	for k, i := range todo {
		c.by[keys[i]] = got[k]
		out[cols[i]] = got[k]
	}
	c.mu.Unlock()
	return out
}

// byIndex is column j's draws per chain (shared, not copied).
func (p *Posterior) byIndex(j int) [][]float64 {
	out := make([][]float64, len(p.Chains))
	for c := range p.Chains {
		out[c] = p.Chains[c].Values[j]
	}
	return out
}

// allColumns is 0, 1, …, len(Columns)-1.
func (p *Posterior) allColumns() []int {
	cols := make([]int, len(p.Columns))
	for i := range cols {
		cols[i] = i
	}
	return cols
}
