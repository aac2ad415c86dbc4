package posterior_test

import (
	"fmt"

	"github.com/gobayes/gobayes/ppl/posterior"
)

// A posterior summarises itself; here two chains of a made-up scalar.
func ExamplePosterior_Summary() {
	p := &posterior.Posterior{
		Model:   "demo",
		Sampler: "NUTS",
		Vars:    []posterior.Var{{Name: "x"}},
		Columns: []string{"x"},
		Chains: []posterior.Chain{
			{Values: [][]float64{{0.1, -0.3, 1.2, 0.8, -1.1, 0.4, 0.9, -0.2}}},
			{Values: [][]float64{{0.6, 1.1, -0.4, 0.2, 0.7, -0.9, 1.3, 0.5}}},
		},
	}
	r := p.Summary().Rows[0]
	fmt.Printf("mean %.3f sd %.3f 94%% HDI [%.1f, %.1f]\n", r.Mean, r.SD, r.HDI3, r.HDI97)
	// Output:
	// mean 0.306 sd 0.726 94% HDI [-1.1, 1.3]
}
