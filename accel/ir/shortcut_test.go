package ir_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// TestShortcuts checks the hand-written shortcuts of the generated loops
// (accel/opdef's Dist.Shortcut: the normal's sum with one σ) against the
// generated loops themselves, on the shapes a shortcut takes and those it
// declines, at valid points and at invalid or infinite ones: the value and
// every partial agree to 1e-12.
func TestShortcuts(t *testing.T) {
	const n = 7
	data := func(lo, hi float64) irtest.Arg {
		rng := rand.New(rand.NewPCG(3, 3))
		v := make([]float64, n)
		for i := range v {
			v[i] = lo + (hi-lo)*rng.Float64()
		}
		return irtest.Const([]int{n}, v...)
	}
	withInf := irtest.Const([]int{n}, 0.5, -1, math.Inf(1), 2, 0, 1, 3)
	withNaN := irtest.Const([]int{n}, 0.5, math.NaN(), 1, 2, 0, 1, 3)
	for _, c := range []struct {
		name string
		op   ir.Op
		args []irtest.Arg
	}{
		{"normal/regression", ir.OpNormalLPDF, []irtest.Arg{data(-2, 2), irtest.Param(-1, 1, n), irtest.Param(0.5, 2)}},
		{"normal/one mu", ir.OpNormalLPDF, []irtest.Arg{data(-2, 2), irtest.Param(-1, 1), irtest.Param(0.5, 2)}},
		{"normal/latent", ir.OpNormalLPDF, []irtest.Arg{irtest.Param(-2, 2, n), irtest.Param(-1, 1), irtest.Param(0.5, 2)}},
		{"normal/latent, mu vector", ir.OpNormalLPDF, []irtest.Arg{irtest.Param(-2, 2, n), irtest.Param(-1, 1, n), irtest.Param(0.5, 2)}},
		{"normal/standard", ir.OpNormalLPDF, []irtest.Arg{irtest.Param(-2, 2, n), irtest.Const(nil, 0), irtest.Const(nil, 1)}},
		{"normal/sigma data", ir.OpNormalLPDF, []irtest.Arg{data(-2, 2), irtest.Param(-1, 1, n), data(0.5, 2)}},
		{"normal/negative sigma", ir.OpNormalLPDF, []irtest.Arg{data(-2, 2), irtest.Param(-1, 1, n), irtest.Param(-2, -0.5)}},
		{"normal/zero sigma", ir.OpNormalLPDF, []irtest.Arg{data(-2, 2), irtest.Param(-1, 1, n), irtest.Const(nil, 0)}},
		{"normal/infinite y", ir.OpNormalLPDF, []irtest.Arg{withInf, irtest.Param(-1, 1, n), irtest.Param(0.5, 2)}},
		{"normal/NaN y", ir.OpNormalLPDF, []irtest.Arg{withNaN, irtest.Param(-1, 1), irtest.Param(0.5, 2)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := irtest.OpProgram(c.op, nil, nil, c.args...)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			for k := 0; k < 5; k++ {
				x := irtest.Point(rng, c.args...)
				eval := func(on bool) (float64, []float64) {
					defer ir.SetShortcuts(on)()
					g := make([]float64, p.Dim)
					return ir.NewFrame(ir.WithoutFastPath(p)).Gradient(x, g), g
				}
				v0, g0 := eval(false)
				v1, g1 := eval(true)
				if !close12(v0, v1) {
					t.Fatalf("at %v: log density %v with the shortcut, %v without", x, v1, v0)
				}
				for i := range g0 {
					if !close12(g0[i], g1[i]) {
						t.Fatalf("at %v: partial %d is %v with the shortcut, %v without", x, i, g1[i], g0[i])
					}
				}
			}
		})
	}
}

// close12 reports whether a and b agree to 1e-12 relative (equal when
// infinite, both NaN).
func close12(a, b float64) bool {
	if a == b || a != a && b != b {
		return true
	}
	return math.Abs(a-b) <= 1e-12*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
