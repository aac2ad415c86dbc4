package dist

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
)

// Uniform is the uniform distribution on (lower, upper). Its support is
// bounded by its own parameters 0 and 1, so a Uniform variable is mapped
// through the interval bijector with those bounds (which may be
// expressions). Op: uniform_lpdf(y, lower, upper).
var Uniform = &Family{
	Name: "Uniform", Params: []string{"lower", "upper"},
	ParamSupport: []Support{on(Real), on(Real)},
	Support:      Support{Kind: Bounded, Lower: 0, Upper: 1}, Op: ir.OpUniformLPDF,
	Sample: scalarSampler(func(rng *rand.Rand, p []float64) float64 {
		return distuv.Uniform{Min: p[0], Max: p[1], Src: rng}.Rand()
	}),
	Mean: func(p []float64) float64 { return (p[0] + p[1]) / 2 },
	Var: func(p []float64) float64 {
		d := p[1] - p[0]
		return d * d / 12
	},
}
