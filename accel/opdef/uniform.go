package opdef

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Uniform: -log(upper - lower) on [lower, upper]. Its support is bounded
// by its own parameters 0 and 1, so a Uniform variable is mapped through
// the interval bijector with those bounds (which may be expressions).
var Uniform = define(&Dist{
	Family: "Uniform", Op: "UniformLPDF", Name: "uniform_lpdf", CName: "uniform",
	Doc: "is the uniform distribution on (lower, upper); the bounds may be expressions.",
	Args: []Arg{
		{Name: "y", Grad: "0"},
		{Name: "lower", Support: "Real", Grad: "inv(upper - lower)"},
		{Name: "upper", Support: "Real", Grad: "-inv(upper - lower)"},
	},
	Support: "Bounded:0,1",
	Valid:   "lower < upper && y >= lower && y <= upper",
	Value:   "-log(upper - lower)",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return distuv.Uniform{Min: p[0], Max: p[1], Src: rng}.Rand()
	},
	Mean: func(p []float64) float64 { return (p[0] + p[1]) / 2 },
	Var: func(p []float64) float64 {
		d := p[1] - p[0]
		return d * d / 12
	},
	// F = (y-lower)/(upper-lower) inside, 1 above; the CCDF mirrors it.
	LCDF: &Tail{
		Valid: "lower < upper && y > lower",
		Value: "where(y < upper, log(y - lower) - log(upper - lower), 0)",
		Grads: []string{
			"where(y < upper, inv(y - lower), 0)",
			"where(y < upper, inv(upper - lower) - inv(y - lower), 0)",
			"where(y < upper, -inv(upper - lower), 0)",
		},
	},
	LCCDF: &Tail{
		Valid: "lower < upper && y < upper",
		Value: "where(y > lower, log(upper - y) - log(upper - lower), 0)",
		Grads: []string{
			"where(y > lower, -inv(upper - y), 0)",
			"where(y > lower, inv(upper - lower), 0)",
			"where(y > lower, inv(upper - y) - inv(upper - lower), 0)",
		},
	},
})
