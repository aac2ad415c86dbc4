package dist

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// Beta is the beta distribution on (0, 1) with shapes alpha, beta > 0.
// Op: beta_lpdf(y, alpha, beta).
var Beta = &Family{
	Name: "Beta", Params: []string{"alpha", "beta"},
	ParamSupport: []Support{on(Positive), on(Positive)},
	Support:      on(UnitInterval), Op: ir.OpBetaLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return distuv.Beta{Alpha: p[0], Beta: p[1], Src: rng}.Rand()
	}),
	Mean: func(p []float64) float64 { return p[0] / (p[0] + p[1]) },
	Var: func(p []float64) float64 {
		s := p[0] + p[1]
		return p[0] * p[1] / (s * s * (s + 1))
	},
}
