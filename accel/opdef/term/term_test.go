package term_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/accel/opdef"
	"github.com/gobayes/gobayes/accel/opdef/term"
)

// TestTermsAgainstIR checks each generated function against accel/ir's
// op of the same family on one element (its reference Forward and
// Backward): the value and every partial, at random points inside the
// support.
func TestTermsAgainstIR(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	cases := []struct {
		name string
		op   ir.Op
		args []irtest.Arg // the variate, then the parameters
		term func(x []float64) (float64, []float64)
	}{
		{"normal", ir.OpNormalLPDF, []irtest.Arg{irtest.Param(-3, 3), irtest.Param(-1, 1), irtest.Param(0.2, 3)},
			func(x []float64) (float64, []float64) {
				ls, inv := math.Log(x[2]), 1/x[2]
				dy, dmu, ds := term.NormalGrad(x[0], x[1], inv)
				return term.NormalValue(x[0], x[1], ls, inv), []float64{dy, dmu, ds}
			}},
		{"half_normal", ir.OpHalfNormalLPDF, []irtest.Arg{irtest.Param(0, 4), irtest.Param(0.2, 3)},
			func(x []float64) (float64, []float64) {
				ls, inv := math.Log(x[1]), 1/x[1]
				dy, ds := term.HalfNormalGrad(x[0], inv)
				return term.HalfNormalValue(x[0], ls, inv), []float64{dy, ds}
			}},
		{"half_cauchy", ir.OpHalfCauchyLPDF, []irtest.Arg{irtest.Param(0, 4), irtest.Param(0.2, 3)},
			func(x []float64) (float64, []float64) {
				ls, inv := math.Log(x[1]), 1/x[1]
				dy, ds := term.HalfCauchyGrad(x[0], inv)
				return term.HalfCauchyValue(x[0], ls, inv), []float64{dy, ds}
			}},
		{"gamma", ir.OpGammaLPDF, []irtest.Arg{irtest.Param(0.05, 6), irtest.Param(0.3, 8), irtest.Param(0.2, 4)},
			func(x []float64) (float64, []float64) {
				lb, lga := math.Log(x[2]), opdef.LGamma(x[1])
				dy, da, db := term.GammaGrad(x[0], x[1], x[2], lb, opdef.Digamma(x[1]))
				return term.GammaValue(x[0], x[1], x[2], lb, lga), []float64{dy, da, db}
			}},
	}
	for _, c := range cases {
		p, err := irtest.BuildProgram(func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
			return b.Emit(c.op, in, nil, -1)
		}, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		f := ir.NewFrame(p)
		for range 50 {
			x := irtest.Point(rng, c.args...)
			g := make([]float64, len(x))
			want := f.Gradient(x, g)
			got, gs := c.term(x)
			if !close(got, want) {
				t.Errorf("%s at %v: value %v, ir %v", c.name, x, got, want)
			}
			for i := range g {
				if !close(gs[i], g[i]) {
					t.Errorf("%s at %v: partial %d %v, ir %v", c.name, x, i, gs[i], g[i])
				}
			}
		}
	}
}

func close(a, b float64) bool {
	return math.Abs(a-b) <= 1e-13*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
