package plotting

import (
	"math"
	"math/rand/v2"

	"github.com/gobayes/gobayes/ppl/posterior"
)

// fixture is a small fixed posterior for structural tests: 4 chains of
// 200 draws of mu (normal), tau (positive) and theta[1..3], with
// divergences at draws 5 and 17 of chain 2 and draw 40 of chain 4, and an
// energy statistic.
func fixture() *posterior.Posterior {
	const chains, draws = 4, 200
	src := rand.New(rand.NewPCG(7, 11))
	p := &posterior.Posterior{
		Model: "fixture",
		Vars: []posterior.Var{
			{Name: "mu", Start: 0},
			{Name: "tau", Start: 1},
			{Name: "theta", Shape: []int{3}, Start: 2},
		},
		Columns: []string{"mu", "tau", "theta[0]", "theta[1]", "theta[2]"},
		Sampler: "NUTS",
	}
	for c := 0; c < chains; c++ {
		ch := posterior.Chain{Values: make([][]float64, 5)}
		for j := range ch.Values {
			ch.Values[j] = make([]float64, draws)
		}
		ch.Stats.Divergent = make([]bool, draws)
		ch.Stats.Energy = make([]float64, draws)
		mu, ltau := 0.0, 0.0
		for i := 0; i < draws; i++ {
			mu = 0.5*mu + src.NormFloat64()
			ltau = 0.5*ltau + 0.8*src.NormFloat64()
			tau := math.Exp(ltau)
			ch.Values[0][i] = mu
			ch.Values[1][i] = tau
			for k := 0; k < 3; k++ {
				ch.Values[2+k][i] = mu + tau*src.NormFloat64()
			}
			ch.Stats.Energy[i] = 5 + 2*src.NormFloat64()
		}
		p.Chains = append(p.Chains, ch)
	}
	p.Chains[1].Stats.Divergent[5] = true
	p.Chains[1].Stats.Divergent[17] = true
	p.Chains[3].Stats.Divergent[40] = true
	return p
}

// fixtureDivergences is the number of divergent draws in fixture().
const fixtureDivergences = 3
