package opdef

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Laplace: log p(y | μ, b) = -log(2b) - |y-μ|/b.
var Laplace = define(&Dist{
	Family: "Laplace", Op: "LaplaceLPDF", Name: "laplace_lpdf", CName: "laplace",
	Doc: "(the double exponential) has location mu and scale b > 0.",
	Args: []Arg{
		{Name: "y", Grad: "-sign(y - mu) * inv(b)"},
		{Name: "mu", Support: "Real", Grad: "sign(y - mu) * inv(b)"},
		{Name: "b", Support: "Positive", Grad: "(abs(y - mu) * inv(b) - 1) * inv(b)"},
	},
	Support: "Real",
	Valid:   "b > 0",
	Value:   "-ln2 - log(b) - abs(y - mu) * inv(b)",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return distuv.Laplace{Mu: p[0], Scale: p[1], Src: rng}.Rand()
	},
	Mean: func(p []float64) float64 { return p[0] },
	Var:  func(p []float64) float64 { return 2 * p[1] * p[1] },
})
