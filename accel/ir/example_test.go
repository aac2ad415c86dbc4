package ir_test

import (
	"fmt"

	"github.com/gobayes/gobayes/accel/ir"
)

// A log density of two position slots, log p(x) = -Σ exp(x), and its
// gradient -exp(x).
func ExampleBuilder() {
	b := ir.NewBuilder(2)
	x := b.ParamSlice(0, []int{2})
	y, _ := b.Emit(ir.OpExp, []ir.ID{x}, nil, -1)
	s, _ := b.Emit(ir.OpSum, []ir.ID{y}, nil, -1)
	lp, _ := b.Emit(ir.OpNeg, []ir.ID{s}, nil, -1)
	p, err := b.Finalize(lp)
	if err != nil {
		fmt.Println(err)
		return
	}
	f := ir.NewFrame(p)
	grad := make([]float64, 2)
	v := f.Gradient([]float64{0, 1}, grad)
	fmt.Printf("log p = %.4f, gradient = [%.4f %.4f]\n", v, grad[0], grad[1])
	// Output: log p = -3.7183, gradient = [-1.0000 -2.7183]
}

// The stick-breaking simplex transform and its inverse. By hand: z₀ =
// logistic(0.5 - log 2) = 0.4519, then z₁ = logistic(-1) = 0.2689 of the
// remaining 0.5481 is 0.1474, and 0.4007 is left.
func ExampleSimplexInverse() {
	y := make([]float64, 3)
	ir.SimplexForward([]float64{0.5, -1}, y)
	x := make([]float64, 2)
	ir.SimplexInverse(y, x)
	fmt.Printf("simplex [%.4f %.4f %.4f], back [%.4f %.4f]\n", y[0], y[1], y[2], x[0], x[1])
	// Output: simplex [0.4519 0.1474 0.4007], back [0.5000 -1.0000]
}
