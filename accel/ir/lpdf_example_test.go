package ir_test

import (
	"fmt"

	"github.com/gobayes/gobayes/accel/ir"
)

// A normal likelihood y ~ normal(mu, sigma) over three observations, with
// mu and sigma the two slots of the position: the fused op gives the log
// density and its exact gradient in one instruction.
func ExampleOp_normalLPDF() {
	b := ir.NewBuilder(2)
	mu, sigma := b.ParamSlice(0, nil), b.ParamSlice(1, nil)
	y := b.Const([]float64{1.2, -0.3, 0.8}, []int{3})
	lp, err := b.Emit(ir.OpNormalLPDF, []ir.ID{y, mu, sigma}, nil, -1)
	if err != nil {
		panic(err)
	}
	p, err := b.Finalize(lp)
	if err != nil {
		panic(err)
	}
	grad := make([]float64, 2)
	v := ir.NewFrame(p).Gradient([]float64{0.5, 1}, grad)
	// By hand: Σ(y-μ)² = 1.22, so the log density is -1.22/2 - 3 log √(2π),
	// ∂/∂μ = Σ(y-μ)/σ² = 0.2 and ∂/∂σ = Σ(y-μ)²/σ³ - 3/σ = -1.78.
	fmt.Printf("log density %.4f, gradient [%.4f %.4f]\n", v, grad[0], grad[1])
	// Output:
	// log density -3.3668, gradient [0.2000 -1.7800]
}

// Pointwise mode (Ints = [1]) gives one term per observation, as mixtures
// and pointwise log-likelihoods need.
func ExampleOp_pointwise() {
	b := ir.NewBuilder(1)
	rate := b.ParamSlice(0, nil)
	y := b.Const([]float64{0, 2, 5}, []int{3})
	terms, err := b.Emit(ir.OpPoissonLPMF, []ir.ID{y, rate}, []int{1}, -1)
	if err != nil {
		panic(err)
	}
	b.AddOutput("terms", terms)
	p, err := b.Finalize(ir.None)
	if err != nil {
		panic(err)
	}
	f := ir.NewFrame(p)
	f.Forward([]float64{2})
	// By hand: y log λ - λ - log y! = -2, 2 log 2 - 2 - log 2, 5 log 2 - 2 - log 120.
	fmt.Printf("%.4f\n", f.Val(p.Output("terms")))
	// Output:
	// [-2.0000 -1.3069 -3.3218]
}
