package ir_test

import (
	"math"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// TestConstantDataChecks: a generated family tests the data conditions
// of constant data once per frame. With every count valid the log density
// is the sum of the terms, frame after frame; one invalid count makes it
// -Inf on every evaluation (not only the first), and the same data as a
// parameter-free vector that is not a constant give the same values.
func TestConstantDataChecks(t *testing.T) {
	poisson := func(y, lam float64) float64 {
		lg, _ := math.Lgamma(y + 1)
		return y*math.Log(lam) - lam - lg
	}
	for _, c := range []struct {
		name   string
		counts []float64
		valid  bool
	}{
		{"valid", []float64{0, 3, 1, 7}, true},
		{"a fraction", []float64{0, 3, 1.5, 7}, false},
		{"a negative count", []float64{0, -1, 1, 7}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := []irtest.Arg{irtest.Const([]int{4}, c.counts...), irtest.Param(0.5, 3, 4)}
			p, err := irtest.OpProgram(ir.OpPoissonLPMF, nil, nil, args...)
			if err != nil {
				t.Fatal(err)
			}
			f := ir.NewFrame(p)
			for _, x := range [][]float64{{1, 2, 0.5, 3}, {2, 1, 1, 4}, {0.7, 0.7, 0.7, 0.7}} {
				g := make([]float64, p.Dim)
				got := f.Gradient(x, g)
				if !c.valid {
					if !math.IsInf(got, -1) {
						t.Fatalf("log density %v at %v, want -Inf", got, x)
					}
					continue
				}
				want := 0.0
				for i, y := range c.counts {
					want += poisson(y, x[i])
				}
				if math.Abs(got-want) > 1e-12*math.Abs(want) {
					t.Fatalf("log density %v at %v, want %v", got, x, want)
				}
				for i, y := range c.counts {
					if d := y/x[i] - 1; math.Abs(g[i]-d) > 1e-12*(1+math.Abs(d)) {
						t.Fatalf("gradient[%d] = %v, want %v", i, g[i], d)
					}
				}
			}
		})
	}
}
