package dist

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// Laplace is the double exponential with location mu and scale b > 0.
// Op: laplace_lpdf(y, mu, b).
var Laplace = &Family{
	Name: "Laplace", Params: []string{"mu", "b"},
	ParamSupport: []Support{on(Real), on(Positive)},
	Support:      on(Real), Op: ir.OpLaplaceLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return distuv.Laplace{Mu: p[0], Scale: p[1], Src: rng}.Rand()
	}),
	Mean: func(p []float64) float64 { return p[0] },
	Var:  func(p []float64) float64 { return 2 * p[1] * p[1] },
}
