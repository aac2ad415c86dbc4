package dist

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// Logistic is the logistic distribution with location mu and scale s > 0.
// Op: logistic_lpdf(y, mu, s). gonum's Logistic has no sampler; draws
// invert its CDF.
var Logistic = &Family{
	Name: "Logistic", Params: []string{"mu", "s"},
	ParamSupport: []Support{on(Real), on(Positive)},
	Support:      on(Real), Op: ir.OpLogisticLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return distuv.Logistic{Mu: p[0], S: p[1]}.Quantile(openUnit(rng))
	}),
	Mean: func(p []float64) float64 { return p[0] },
	Var:  func(p []float64) float64 { return p[1] * p[1] * math.Pi * math.Pi / 3 },
}

// openUnit is uniform on (0, 1), never 0.
func openUnit(rng *rand.Rand) float64 {
	for {
		if u := rng.Float64(); u > 0 {
			return u
		}
	}
}
