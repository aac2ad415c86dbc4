package dist_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/gobayes/gobayes/ppl/dist"
)

// A family tells the model compiler its parameters, support and op.
func ExampleLookup() {
	f := dist.Lookup("Gamma")
	fmt.Println(f.Name, f.Params, f.Op)
	fmt.Println(dist.Uniform.Support.Kind == dist.Bounded, dist.Uniform.Params[dist.Uniform.Support.Lower])
	// Output:
	// Gamma [alpha beta] gamma_lpdf
	// true lower
}

// Drawing from a family: parameters broadcast over the draws.
func ExampleFamily_sample() {
	rng := rand.New(rand.NewPCG(1, 2))
	draws := make([]float64, 100000)
	dist.Poisson.Sample(rng, [][]float64{{4}}, draws)
	s := 0.0
	for _, v := range draws {
		s += v
	}
	fmt.Printf("mean %.1f, want %.1f\n", s/float64(len(draws)), dist.Poisson.Mean([]float64{4}))
	// Output:
	// mean 4.0, want 4.0
}
