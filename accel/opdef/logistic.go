package opdef

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Logistic: with z = (y-μ)/s, log p = -|z| - log s - 2 log(1 + e^-|z|)
// (symmetric in z, so the exponential cannot overflow); with
// t = 1 - 2·logistic(z) = -tanh(z/2): ∂y = t/s, ∂μ = -t/s,
// ∂s = -(1 + z·t)/s.
var Logistic = define(&Dist{
	Family: "Logistic", Op: "LogisticLPDF", Name: "logistic_lpdf", CName: "logistic",
	Doc: "is the logistic distribution with location mu and scale s > 0.",
	Args: []Arg{
		{Name: "y", Grad: "t * inv(s)"},
		{Name: "mu", Support: "Real", Grad: "-t * inv(s)"},
		{Name: "s", Support: "Positive", Grad: "-(1 + z*t) * inv(s)"},
	},
	Support: "Real",
	Valid:   "s > 0",
	Let:     []Let{{"z", "(y - mu) * inv(s)"}, {"t", "-tanh(0.5 * z)"}},
	Value:   "-abs(z) - log(s) - 2*log1p(exp(-abs(z)))",
	// gonum's Logistic has no sampler: draws invert its CDF.
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return distuv.Logistic{Mu: p[0], S: p[1]}.Quantile(openUnit(rng))
	},
	Mean: func(p []float64) float64 { return p[0] },
	Var:  func(p []float64) float64 { return p[1] * p[1] * math.Pi * math.Pi / 3 },
	// log F = -softplus(-z), ∂/∂z = logistic(-z); log(1-F) = -softplus(z),
	// ∂/∂z = -logistic(z).
	LCDF: &Tail{
		Valid: "s > 0",
		Let:   []Let{{"z", "(y - mu) * inv(s)"}, {"d", "logistic(-z)"}},
		Value: "-softplus(-z)",
		Grads: []string{"d * inv(s)", "-d * inv(s)", "-d * z * inv(s)"},
	},
	LCCDF: &Tail{
		Valid: "s > 0",
		Let:   []Let{{"z", "(y - mu) * inv(s)"}, {"d", "-logistic(z)"}},
		Value: "-softplus(z)",
		Grads: []string{"d * inv(s)", "-d * inv(s)", "-d * z * inv(s)"},
	},
})

// openUnit is uniform on (0, 1), never 0.
func openUnit(rng *rand.Rand) float64 {
	for {
		if u := rng.Float64(); u > 0 {
			return u
		}
	}
}
