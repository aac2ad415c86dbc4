package ir_test

import (
	"math"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// TestLPDFExtremes evaluates every scalar family at every combination of
// extreme inputs (a sampler in early warm-up visits them): the log density
// is never NaN or +Inf, and where it is finite its gradient is not NaN
// (it may overflow to ±Inf: Laplace's ∂b = |y-μ|/b² at b = 1e-300).
func TestLPDFExtremes(t *testing.T) {
	vals := []float64{-1e300, -700, -1, -1e-300, 0, 1e-300, 0.5, 1, 3, 700, 1e300, math.Inf(1), math.Inf(-1)}
	for _, c := range append(scalarCases(), discreteCases()...) {
		arity := len(c.configs[0])
		for _, ints := range [][]int{nil, {1}} {
			args := make([]irtest.Arg, arity)
			for i := range args {
				args[i] = irtest.Param(0, 0)
			}
			p, err := irtest.OpProgram(c.op, ints, nil, args...)
			if err != nil {
				t.Fatal(err)
			}
			f := ir.NewFrame(p)
			x := make([]float64, arity)
			g := make([]float64, arity)
			idx := make([]int, arity)
			bad := 0
			for {
				for i, k := range idx {
					x[i] = vals[k]
				}
				f.Gradient(x, g)
				lp := f.Val(p.Output(irtest.OutputName))[0]
				if math.IsNaN(lp) || math.IsInf(lp, 1) {
					if bad++; bad <= 5 {
						t.Errorf("%s at %v = %v", c.name, x, lp)
					}
				} else if !math.IsInf(lp, -1) {
					for i, v := range g {
						if math.IsNaN(v) {
							if bad++; bad <= 5 {
								t.Errorf("%s at %v = %v: gradient[%d] = %v", c.name, x, lp, i, v)
							}
						}
					}
				}
				// Next combination.
				j := 0
				for ; j < arity; j++ {
					if idx[j]++; idx[j] < len(vals) {
						break
					}
					idx[j] = 0
				}
				if j == arity {
					break
				}
			}
		}
	}
}
