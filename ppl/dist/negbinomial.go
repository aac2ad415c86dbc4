package dist

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// NegativeBinomial is Stan's neg_binomial_2: mean mu > 0 and
// overdispersion phi > 0, variance μ + μ²/φ. Draws are Poisson with a
// gamma(φ, φ/μ) rate. Op: neg_binomial_2_lpmf(y, mu, phi).
var NegativeBinomial = &Family{
	Name: "NegativeBinomial", Params: []string{"mu", "phi"},
	ParamSupport: []Support{on(Positive), on(Positive)},
	Support:      on(NonNegInt), Op: ir.OpNegBinomialLPMF, Discrete: true,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		rate := distuv.Gamma{Alpha: p[1], Beta: p[1] / p[0], Src: rng}.Rand()
		return poissonDraw(rng, rate)
	}),
	Mean: func(p []float64) float64 { return p[0] },
	Var:  func(p []float64) float64 { return p[0] + p[0]*p[0]/p[1] },
}
