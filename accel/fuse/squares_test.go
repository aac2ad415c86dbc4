package fuse

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/opdef/term"
)

// TestNormalSquares checks the one normal formula the fused kernels do
// not take from accel/opdef term by term: the sum over n terms with one σ
// from the sum of squares, against the sum of term.NormalValue, and the
// closed form at one point (σ = 2, residuals 1 and -3: -½·10/4 - 2 log 2
// - 2 log √(2π)).
func TestNormalSquares(t *testing.T) {
	const want = -1.25 - 2*math.Ln2 - 2*0.91893853320467274178 // closed form above
	if got := normalSquares(10, 0.5, math.Log(2), 2); math.Abs(got-want) > 1e-14 {
		t.Errorf("normalSquares(10, 1/2, log 2, 2) = %v, want %v", got, want)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 8, 100} {
		for range 20 {
			s := math.Exp(4*rng.Float64() - 2)
			ls, inv := math.Log(s), 1/s
			q, terms := 0.0, 0.0
			for range n {
				y, mu := 6*rng.Float64()-3, 2*rng.Float64()-1
				q += (y - mu) * (y - mu)
				terms += term.NormalValue(y, mu, ls, inv)
			}
			got := normalSquares(q, inv, ls, n)
			if math.Abs(got-terms) > 1e-12*math.Max(1, math.Abs(terms)) {
				t.Errorf("n=%d σ=%v: from squares %v, sum of terms %v", n, s, got, terms)
			}
		}
	}
}
