package opdef

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Normal: with z = (y-μ)/σ, log p = -z²/2 - log σ - log √(2π); ∂y = -z/σ,
// ∂μ = z/σ, ∂σ = (z²-1)/σ. σ is often data (eight schools' standard
// errors): then log σ and 1/σ are computed once per frame (Cached). The
// loops have copies for every input a vector, for a regression's shape
// (y and μ vectors, one σ; its terms pointwise, as for LOO) and for a
// vector of variates with one μ and one σ (a mixture's components). With
// one σ, the sum is
// -Σ(y-μ)²/2σ² - n(log σ + log √(2π)), accel/ir's shortcut
// (normalSumShared), more than twice as fast as the generated terms.
var Normal = define(&Dist{
	Family: "Normal", Op: "NormalLPDF", Name: "normal_lpdf", CName: "normal",
	Doc: "is the normal distribution with mean mu and standard deviation sigma > 0.",
	Args: []Arg{
		{Name: "y", Grad: "-z * inv(sigma)"},
		{Name: "mu", Support: "Real", Grad: "z * inv(sigma)"},
		{Name: "sigma", Support: "Positive", Grad: "(z*z - 1) * inv(sigma)"},
	},
	Support:  "Real",
	Valid:    "sigma > 0",
	Cached:   []string{"sigma"},
	Fast:     []string{"y mu sigma", "y mu", "y"},
	Shortcut: "normalSum",
	Scalar:   true,
	Let:      []Let{{"z", "(y - mu) * inv(sigma)"}},
	Value:    "-0.5*z*z - log(sigma) - lnSqrt2Pi",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return distuv.Normal{Mu: p[0], Sigma: p[1], Src: rng}.Rand()
	},
	Mean: func(p []float64) float64 { return p[0] },
	Var:  func(p []float64) float64 { return p[1] * p[1] },
	// With r = φ(z)/Φ(z) (dLogPhi): ∂y = r/σ, ∂μ = -r/σ, ∂σ = -rz/σ;
	// the CCDF is the CDF at -z.
	LCDF: &Tail{
		Valid: "sigma > 0",
		Let:   []Let{{"z", "(y - mu) * inv(sigma)"}, {"r", "dLogPhi(z)"}},
		Value: "logPhi(z)",
		Grads: []string{"r * inv(sigma)", "-r * inv(sigma)", "-r * z * inv(sigma)"},
	},
	LCCDF: &Tail{
		Valid: "sigma > 0",
		Let:   []Let{{"z", "(y - mu) * inv(sigma)"}, {"r", "dLogPhi(-z)"}},
		Value: "logPhi(-z)",
		Grads: []string{"-r * inv(sigma)", "r * inv(sigma)", "r * z * inv(sigma)"},
	},
})
