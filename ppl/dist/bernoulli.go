package dist

import (
	"math"
	"math/rand/v2"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/opdef"
)

// BernoulliLogit is Bernoulli with probability logistic(logit), the
// likelihood of logistic regression. Op: bernoulli_logit_lpmf(y, logit).
var BernoulliLogit = &Family{
	Name: "BernoulliLogit", Params: []string{"logit"},
	ParamSupport: []Support{on(Real)},
	Support:      on(Binary), Op: ir.OpBernoulliLogitLPMF, Discrete: true,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return opdef.DrawBernoulli(rng, invLogit(p[0]))
	}),
	Mean: func(p []float64) float64 { return invLogit(p[0]) },
	Var: func(p []float64) float64 {
		q := invLogit(p[0])
		return q * (1 - q)
	},
}

func invLogit(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
