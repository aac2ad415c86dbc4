package dist

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// Binomial is the number of successes in n trials of probability p. Its
// support 0…n is bounded by its parameter 0 (n). Op: binomial_lpmf(y, n, p).
var Binomial = &Family{
	Name: "Binomial", Params: []string{"n", "p"},
	ParamSupport: []Support{on(NonNegInt), on(UnitInterval)},
	Support:      Support{Kind: BoundedInt, Lower: -1, Upper: 0},
	Op:           ir.OpBinomialLPMF, Discrete: true,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 { return binomialDraw(rng, p[0], p[1]) }),
	Mean:   func(p []float64) float64 { return p[0] * p[1] },
	Var:    func(p []float64) float64 { return p[0] * p[1] * (1 - p[1]) },
}

// BinomialLogit is Binomial with probability logistic(logit).
// Op: binomial_logit_lpmf(y, n, logit).
var BinomialLogit = &Family{
	Name: "BinomialLogit", Params: []string{"n", "logit"},
	ParamSupport: []Support{on(NonNegInt), on(Real)},
	Support:      Support{Kind: BoundedInt, Lower: -1, Upper: 0},
	Op:           ir.OpBinomialLogitLPMF, Discrete: true,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return binomialDraw(rng, p[0], invLogit(p[1]))
	}),
	Mean: func(p []float64) float64 { return p[0] * invLogit(p[1]) },
	Var: func(p []float64) float64 {
		q := invLogit(p[1])
		return p[0] * q * (1 - q)
	},
}

func binomialDraw(rng *rand.Rand, n, p float64) float64 {
	// gonum's sampler divides by p and 1-p; the edges are certain.
	switch {
	case n == 0 || p <= 0:
		return 0
	case p >= 1:
		return n
	}
	return distuv.Binomial{N: n, P: p, Src: rng}.Rand()
}
