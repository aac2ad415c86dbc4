package dist

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// Poisson is the Poisson distribution with rate > 0.
// Op: poisson_lpmf(y, rate).
var Poisson = &Family{
	Name: "Poisson", Params: []string{"rate"},
	ParamSupport: []Support{on(Positive)},
	Support:      on(NonNegInt), Op: ir.OpPoissonLPMF, Discrete: true,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 { return poissonDraw(rng, p[0]) }),
	Mean:   func(p []float64) float64 { return p[0] },
	Var:    func(p []float64) float64 { return p[0] },
}

// PoissonLog is Poisson with rate exp(log_rate), the likelihood of Poisson
// regression. Op: poisson_log_lpmf(y, log_rate).
var PoissonLog = &Family{
	Name: "PoissonLog", Params: []string{"log_rate"},
	ParamSupport: []Support{on(Real)},
	Support:      on(NonNegInt), Op: ir.OpPoissonLogLPMF, Discrete: true,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 { return poissonDraw(rng, math.Exp(p[0])) }),
	Mean:   func(p []float64) float64 { return math.Exp(p[0]) },
	Var:    func(p []float64) float64 { return math.Exp(p[0]) },
}

func poissonDraw(rng *rand.Rand, rate float64) float64 {
	if rate <= 0 {
		return 0
	}
	return distuv.Poisson{Lambda: rate, Src: rng}.Rand()
}
