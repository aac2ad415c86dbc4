package dist

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// HalfCauchy is |X| for X Cauchy with location 0 and scale sigma > 0. It
// has no mean or variance. Op: half_cauchy_lpdf(y, sigma).
var HalfCauchy = &Family{
	Name: "HalfCauchy", Params: []string{"sigma"},
	ParamSupport: []Support{on(Positive)},
	Support:      on(Positive), Op: ir.OpHalfCauchyLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return math.Abs(distuv.StudentsT{Nu: 1, Sigma: p[0], Src: rng}.Rand())
	}),
}
