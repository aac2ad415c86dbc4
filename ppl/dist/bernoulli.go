package dist

import (
	"math"
	"math/rand/v2"

	"github.com/gobayes/gobayes/accel/ir"
)

// Bernoulli is 1 with probability p, 0 otherwise. Op: bernoulli_lpmf(y, p).
var Bernoulli = &Family{
	Name: "Bernoulli", Params: []string{"p"},
	ParamSupport: []Support{on(UnitInterval)},
	Support:      on(Binary), Op: ir.OpBernoulliLPMF, Discrete: true,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 { return bernoulliDraw(rng, p[0]) }),
	Mean:   func(p []float64) float64 { return p[0] },
	Var:    func(p []float64) float64 { return p[0] * (1 - p[0]) },
}

// BernoulliLogit is Bernoulli with probability logistic(logit), the
// likelihood of logistic regression. Op: bernoulli_logit_lpmf(y, logit).
var BernoulliLogit = &Family{
	Name: "BernoulliLogit", Params: []string{"logit"},
	ParamSupport: []Support{on(Real)},
	Support:      on(Binary), Op: ir.OpBernoulliLogitLPMF, Discrete: true,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return bernoulliDraw(rng, invLogit(p[0]))
	}),
	Mean: func(p []float64) float64 { return invLogit(p[0]) },
	Var: func(p []float64) float64 {
		q := invLogit(p[0])
		return q * (1 - q)
	},
}

func bernoulliDraw(rng *rand.Rand, p float64) float64 {
	if rng.Float64() < p {
		return 1
	}
	return 0
}

func invLogit(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
