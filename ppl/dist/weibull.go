package dist

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// Weibull is the Weibull distribution with shape k > 0 and scale
// lambda > 0. Op: weibull_lpdf(y, k, lambda).
var Weibull = &Family{
	Name: "Weibull", Params: []string{"k", "lambda"},
	ParamSupport: []Support{on(Positive), on(Positive)},
	Support:      on(Positive), Op: ir.OpWeibullLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return distuv.Weibull{K: p[0], Lambda: p[1], Src: rng}.Rand()
	}),
	Mean: func(p []float64) float64 { return p[1] * math.Gamma(1+1/p[0]) },
	Var: func(p []float64) float64 {
		g1 := math.Gamma(1 + 1/p[0])
		return p[1] * p[1] * (math.Gamma(1+2/p[0]) - g1*g1)
	},
}
