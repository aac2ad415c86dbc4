package dist

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// Cauchy is the Cauchy distribution with location mu and scale sigma > 0
// (Student's t with one degree of freedom). It has no mean or variance.
// Op: cauchy_lpdf(y, mu, sigma).
var Cauchy = &Family{
	Name: "Cauchy", Params: []string{"mu", "sigma"},
	ParamSupport: []Support{on(Real), on(Positive)},
	Support:      on(Real), Op: ir.OpCauchyLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return distuv.StudentsT{Nu: 1, Mu: p[0], Sigma: p[1], Src: rng}.Rand()
	}),
}
