package dist

import (
	"math"
	"math/rand/v2"

	"github.com/gobayes/gobayes/accel/ir"
)

// HalfNormal is |X| for X normal with mean 0 and standard deviation
// sigma > 0. Op: half_normal_lpdf(y, sigma).
var HalfNormal = &Family{
	Name: "HalfNormal", Params: []string{"sigma"},
	ParamSupport: []Support{on(Positive)},
	Support:      on(Positive), Op: ir.OpHalfNormalLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return math.Abs(p[0] * rng.NormFloat64())
	}),
	Mean: func(p []float64) float64 { return p[0] * math.Sqrt(2/math.Pi) },
	Var:  func(p []float64) float64 { return p[0] * p[0] * (1 - 2/math.Pi) },
}
