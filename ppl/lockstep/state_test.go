package lockstep

import (
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/infer"
)

// oneDim is a model of one coordinate that is never evaluated.
type oneDim struct{}

func (oneDim) Name() string              { return "one" }
func (oneDim) Dim() int                  { return 1 }
func (oneDim) Vars() []infer.Var         { return []infer.Var{{Name: "x"}} }
func (oneDim) NewDensity() infer.Density { return nil }
func (oneDim) Program() *ir.Program      { return nil }

// The streaming state of RWMH is O(chains): ten times the chains is ten
// times the bytes, and the number of draws does not enter it. Per chain
// and coordinate it holds the position, the log density, two Welford
// moments, the uniform and two random words: 4·8 + 8 + 2·4 = 48 bytes for
// one coordinate.
func TestStateIsLinearInChains(t *testing.T) {
	size := func(chains, draws int) int {
		cfg, err := Config{Sampler: infer.RWMH, Chains: chains, Draws: draws, NoWarmup: true, Block: 256}.Defaults(0, true)
		if err != nil {
			t.Fatal(err)
		}
		e := newEnsemble(oneDim{}, cfg, false)
		for _, b := range e.blocks { // as runRWMH allocates for one coordinate
			b.w2, b.w3 = make([]uint32, b.n), make([]uint32, b.n)
		}
		return e.stateBytes()
	}
	const perChain = 48
	for _, n := range []int{1000, 10000, 100000} {
		if got := size(n, 10); got != perChain*n {
			t.Errorf("%d chains: %d bytes of state, want %d", n, got, perChain*n)
		}
		if a, b := size(n, 10), size(n, 100000); a != b {
			t.Errorf("%d chains: state %d bytes for 10 draws, %d for 100000", n, a, b)
		}
	}
}
