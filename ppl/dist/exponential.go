package dist

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// Exponential is the exponential distribution with rate > 0 (mean
// 1/rate). Op: exponential_lpdf(y, rate).
var Exponential = &Family{
	Name: "Exponential", Params: []string{"rate"},
	ParamSupport: []Support{on(Positive)},
	Support:      on(Positive), Op: ir.OpExponentialLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return distuv.Exponential{Rate: p[0], Src: rng}.Rand()
	}),
	Mean: func(p []float64) float64 { return 1 / p[0] },
	Var:  func(p []float64) float64 { return 1 / (p[0] * p[0]) },
}
