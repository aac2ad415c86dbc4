package dist

import (
	"math"
	"math/rand/v2"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/opdef"
)

// PoissonLog is Poisson with rate exp(log_rate), the likelihood of Poisson
// regression. Op: poisson_log_lpmf(y, log_rate).
var PoissonLog = &Family{
	Name: "PoissonLog", Params: []string{"log_rate"},
	ParamSupport: []Support{on(Real)},
	Support:      on(NonNegInt), Op: ir.OpPoissonLogLPMF, Discrete: true,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 { return opdef.DrawPoisson(rng, math.Exp(p[0])) }),
	Mean:   func(p []float64) float64 { return math.Exp(p[0]) },
	Var:    func(p []float64) float64 { return math.Exp(p[0]) },
}
