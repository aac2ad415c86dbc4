package dist

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// Gamma is the gamma distribution with shape alpha > 0 and rate beta > 0
// (mean α/β). Op: gamma_lpdf(y, alpha, beta).
var Gamma = &Family{
	Name: "Gamma", Params: []string{"alpha", "beta"},
	ParamSupport: []Support{on(Positive), on(Positive)},
	Support:      on(Positive), Op: ir.OpGammaLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return distuv.Gamma{Alpha: p[0], Beta: p[1], Src: rng}.Rand()
	}),
	Mean: func(p []float64) float64 { return p[0] / p[1] },
	Var:  func(p []float64) float64 { return p[0] / (p[1] * p[1]) },
}
