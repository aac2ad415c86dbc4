package dist

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// Normal is the normal distribution with mean mu and standard deviation
// sigma > 0. Op: normal_lpdf(y, mu, sigma).
var Normal = &Family{
	Name: "Normal", Params: []string{"mu", "sigma"},
	ParamSupport: []Support{on(Real), on(Positive)},
	Support:      on(Real), Op: ir.OpNormalLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return distuv.Normal{Mu: p[0], Sigma: p[1], Src: rng}.Rand()
	}),
	Mean: func(p []float64) float64 { return p[0] },
	Var:  func(p []float64) float64 { return p[1] * p[1] },
}
