package lockstep_test

import (
	"context"
	"fmt"

	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
)

// ChEES-HMC with 256 chains on a normal of mean 3 and standard deviation
// 2: the moments of all chains' draws, and the posterior's kept chains.
func ExampleRun() {
	m := ppl.NewModel("normal")
	m.Normal("x", 3, 2)
	c, err := m.Compile()
	if err != nil {
		panic(err)
	}
	res, err := lockstep.Run(context.Background(), c, lockstep.Config{Sampler: infer.ChEES, Chains: 256, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("mean %.1f, variance %.1f over %d chains; posterior keeps %d chains of %d draws\n",
		res.Moments.Mean[0], res.Moments.Var[0], res.Moments.Chains, len(res.Posterior.Chains), res.Posterior.Draws())
	// Output: mean 3.0, variance 4.0 over 256 chains; posterior keeps 16 chains of 1000 draws
}
