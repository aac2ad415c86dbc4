package dist

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// InverseGamma is 1/X for X gamma with shape alpha > 0 and rate beta > 0:
// beta is the inverse gamma's scale. Op: inv_gamma_lpdf(y, alpha, beta).
// The mean β/(α-1) exists for α > 1, the variance for α > 2.
var InverseGamma = &Family{
	Name: "InverseGamma", Params: []string{"alpha", "beta"},
	ParamSupport: []Support{on(Positive), on(Positive)},
	Support:      on(Positive), Op: ir.OpInvGammaLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return distuv.InverseGamma{Alpha: p[0], Beta: p[1], Src: rng}.Rand()
	}),
	Mean: func(p []float64) float64 {
		if p[0] <= 1 {
			return math.Inf(1)
		}
		return p[1] / (p[0] - 1)
	},
	Var: func(p []float64) float64 {
		a, b := p[0], p[1]
		if a <= 2 {
			return math.Inf(1)
		}
		return b * b / ((a - 1) * (a - 1) * (a - 2))
	},
}
