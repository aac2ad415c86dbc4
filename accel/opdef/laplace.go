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
	// F = e^z/2 below μ, 1 - e^-z/2 above; with d = ∂log F/∂z (1 below,
	// 1/(2e^z - 1) above): ∂y = d/b, ∂μ = -d/b, ∂b = -dz/b. The CCDF
	// mirrors it.
	LCDF: &Tail{
		Valid: "b > 0",
		Let:   []Let{{"z", "(y - mu) * inv(b)"}, {"d", "where(z < 0, 1, inv(2*exp(z) - 1))"}},
		Value: "where(z < 0, z - ln2, log1p(-0.5 * exp(-z)))",
		Grads: []string{"d * inv(b)", "-d * inv(b)", "-d * z * inv(b)"},
	},
	LCCDF: &Tail{
		Valid: "b > 0",
		Let:   []Let{{"z", "(y - mu) * inv(b)"}, {"d", "where(z > 0, -1, -inv(2*exp(-z) - 1))"}},
		Value: "where(z > 0, -z - ln2, log1p(-0.5 * exp(z)))",
		Grads: []string{"d * inv(b)", "-d * inv(b)", "-d * z * inv(b)"},
	},
})
