package dist

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// LogNormal is exp(X) for X normal with mean mu and standard deviation
// sigma > 0. Op: lognormal_lpdf(y, mu, sigma).
var LogNormal = &Family{
	Name: "LogNormal", Params: []string{"mu", "sigma"},
	ParamSupport: []Support{on(Real), on(Positive)},
	Support:      on(Positive), Op: ir.OpLogNormalLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return distuv.LogNormal{Mu: p[0], Sigma: p[1], Src: rng}.Rand()
	}),
	Mean: func(p []float64) float64 { return math.Exp(p[0] + p[1]*p[1]/2) },
	Var: func(p []float64) float64 {
		s2 := p[1] * p[1]
		return math.Expm1(s2) * math.Exp(2*p[0]+s2)
	},
}
