package opdef

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Exponential: log λ - λy for y ≥ 0; ∂y = -λ, ∂λ = 1/λ - y.
var Exponential = define(&Dist{
	Family: "Exponential", Op: "ExponentialLPDF", Name: "exponential_lpdf", CName: "exponential",
	Doc: "is the exponential distribution with rate > 0 (mean 1/rate).",
	Args: []Arg{
		{Name: "y", Grad: "-rate"},
		{Name: "rate", Support: "Positive", Grad: "inv(rate) - y"},
	},
	Support: "Positive",
	Valid:   "rate > 0 && y >= 0",
	Value:   "log(rate) - rate * y",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return distuv.Exponential{Rate: p[0], Src: rng}.Rand()
	},
	Mean: func(p []float64) float64 { return 1 / p[0] },
	Var:  func(p []float64) float64 { return 1 / (p[0] * p[0]) },
	// F = 1 - e^{-λy}: log F = log1mexp(-λy), ∂y = λ/expm1(λy),
	// ∂λ = y/expm1(λy); log(1-F) = -λy.
	LCDF: &Tail{
		Valid: "rate > 0 && y > 0",
		Let:   []Let{{"e", "inv(expm1(rate * y))"}},
		Value: "log1mexp(-rate * y)",
		Grads: []string{"rate * e", "y * e"},
	},
	LCCDF: &Tail{
		Valid: "rate > 0",
		Value: "where(y > 0, -rate * y, 0)",
		Grads: []string{"where(y > 0, -rate, 0)", "where(y > 0, -y, 0)"},
	},
})

// Cauchy: with z = (y-μ)/σ and r = 1/(σ(1+z²)), log p = -log π - log σ -
// log(1+z²); ∂y = -2zr, ∂μ = 2zr, ∂σ = (z²-1)r.
var Cauchy = define(&Dist{
	Family: "Cauchy", Op: "CauchyLPDF", Name: "cauchy_lpdf", CName: "cauchy",
	Doc: "is the Cauchy distribution with location mu and scale sigma > 0 " +
		"(Student's t with one degree of freedom). It has no mean or variance.",
	Args: []Arg{
		{Name: "y", Grad: "-2 * z * r"},
		{Name: "mu", Support: "Real", Grad: "2 * z * r"},
		{Name: "sigma", Support: "Positive", Grad: "(z*z - 1) * r"},
	},
	Support: "Real",
	Valid:   "sigma > 0",
	Let:     []Let{{"z", "(y - mu) * inv(sigma)"}, {"r", "inv(sigma) / (1 + z*z)"}},
	Value:   "-lnPi - log(sigma) - log1p(z * z)",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return distuv.StudentsT{Nu: 1, Mu: p[0], Sigma: p[1], Src: rng}.Rand()
	},
	// F = atan2(1, -z)/π, accurate in the lower tail too (where
	// ½ + atan(z)/π cancels); ∂log F/∂z = 1/((1+z²) atan2(1, -z)). The
	// CCDF is the CDF at -z.
	LCDF: &Tail{
		Valid: "sigma > 0",
		Let:   []Let{{"z", "(y - mu) * inv(sigma)"}, {"a", "atan2(1, -z)"}, {"d", "inv((1 + z*z) * a)"}},
		Value: "log(a) - lnPi",
		Grads: []string{"d * inv(sigma)", "-d * inv(sigma)", "-d * z * inv(sigma)"},
	},
	LCCDF: &Tail{
		Valid: "sigma > 0",
		Let:   []Let{{"z", "(y - mu) * inv(sigma)"}, {"a", "atan2(1, z)"}, {"d", "-inv((1 + z*z) * a)"}},
		Value: "log(a) - lnPi",
		Grads: []string{"d * inv(sigma)", "-d * inv(sigma)", "-d * z * inv(sigma)"},
	},
})

// HalfCauchy: |X| for X Cauchy(0, σ): the Cauchy's formulas with μ = 0,
// plus log 2, on y ≥ 0.
var HalfCauchy = define(&Dist{
	Family: "HalfCauchy", Op: "HalfCauchyLPDF", Name: "half_cauchy_lpdf", CName: "half_cauchy",
	Doc: "is |X| for X Cauchy with location 0 and scale sigma > 0: positive. It has no mean or variance.",
	Args: []Arg{
		{Name: "y", Grad: "-2 * z * r"},
		{Name: "sigma", Support: "Positive", Grad: "(z*z - 1) * r"},
	},
	Support: "Positive",
	Valid:   "sigma > 0 && y >= 0",
	Scalar:  true,
	Let:     []Let{{"z", "y * inv(sigma)"}, {"r", "inv(sigma) / (1 + z*z)"}},
	Value:   "ln2 - lnPi - log(sigma) - log1p(z * z)",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return math.Abs(distuv.StudentsT{Nu: 1, Sigma: p[0], Src: rng}.Rand())
	},
	// F = 2 atan(z)/π; 1 - F = 2 atan2(1, z)/π. log F is log1p(-(1-F))
	// above z = 1, where F is near 1. ∂log F/∂z = 1/((1+z²) atan(z)),
	// ∂log(1-F)/∂z = -1/((1+z²) atan2(1, z)).
	LCDF: &Tail{
		Valid: "sigma > 0 && y > 0",
		Let:   []Let{{"z", "y * inv(sigma)"}, {"d", "inv((1 + z*z) * atan2(z, 1))"}},
		Value: "where(z < 1, ln2 - lnPi + log(atan2(z, 1)), log1p(-2 * atan2(1, z) / pi))",
		Grads: []string{"d * inv(sigma)", "-d * z * inv(sigma)"},
	},
	LCCDF: &Tail{
		Valid: "sigma > 0",
		Let:   []Let{{"z", "y * inv(sigma)"}, {"d", "where(y > 0, -inv((1 + z*z) * atan2(1, z)), 0)"}},
		Value: "where(y > 0, ln2 - lnPi + log(atan2(1, z)), 0)",
		Grads: []string{"d * inv(sigma)", "-d * z * inv(sigma)"},
	},
})

// HalfNormal: log 2 - ½(y/σ)² - log σ - log √(2π) for y ≥ 0; with z = y/σ,
// ∂y = -z/σ, ∂σ = (z²-1)/σ.
var HalfNormal = define(&Dist{
	Family: "HalfNormal", Op: "HalfNormalLPDF", Name: "half_normal_lpdf", CName: "half_normal",
	Doc: "is |X| for X normal with mean 0 and standard deviation sigma > 0: positive.",
	Args: []Arg{
		{Name: "y", Grad: "-z * inv(sigma)"},
		{Name: "sigma", Support: "Positive", Grad: "(z*z - 1) * inv(sigma)"},
	},
	Support: "Positive",
	Valid:   "sigma > 0 && y >= 0",
	Scalar:  true,
	Let:     []Let{{"z", "y * inv(sigma)"}},
	Value:   "ln2 - log(sigma) - lnSqrt2Pi - 0.5 * z * z",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return math.Abs(p[0] * rng.NormFloat64())
	},
	Mean: func(p []float64) float64 { return p[0] * math.Sqrt(2/math.Pi) },
	Var:  func(p []float64) float64 { return p[0] * p[0] * (1 - 2/math.Pi) },
	// F = erf(z/√2) = 1 - 2Φ(-z): log erf near 0, log1mexp(log 2Φ(-z))
	// above z = 1; ∂log F/∂z = √(2/π) e^{-z²/2}/erf(z/√2). log(1-F) =
	// log 2 + log Φ(-z), ∂/∂z = -φ(z)/Φ(-z).
	LCDF: &Tail{
		Valid: "sigma > 0 && y > 0",
		Let: []Let{{"z", "y * inv(sigma)"},
			{"d", "0.7978845608028654 * exp(-0.5 * z * z) / erf(z * 0.7071067811865476)"}},
		Value: "where(z < 1, log(erf(z * 0.7071067811865476)), log1mexp(ln2 + logPhi(-z)))",
		Grads: []string{"d * inv(sigma)", "-d * z * inv(sigma)"},
	},
	LCCDF: &Tail{
		Valid: "sigma > 0",
		Let:   []Let{{"z", "y * inv(sigma)"}, {"d", "where(y > 0, -dLogPhi(-z), 0)"}},
		Value: "where(y > 0, ln2 + logPhi(-z), 0)",
		Grads: []string{"d * inv(sigma)", "-d * z * inv(sigma)"},
	},
})

// LogNormal: with z = (log y - μ)/σ, log p = -½z² - log σ - log y -
// log √(2π) for y > 0; ∂y = -(1 + z/σ)/y, ∂μ = z/σ, ∂σ = (z²-1)/σ.
var LogNormal = define(&Dist{
	Family: "LogNormal", Op: "LogNormalLPDF", Name: "lognormal_lpdf", CName: "lognormal",
	Doc: "is exp(X) for X normal with mean mu and standard deviation sigma > 0.",
	Args: []Arg{
		{Name: "y", Grad: "-(1 + z*inv(sigma)) / y"},
		{Name: "mu", Support: "Real", Grad: "z * inv(sigma)"},
		{Name: "sigma", Support: "Positive", Grad: "(z*z - 1) * inv(sigma)"},
	},
	Support: "Positive",
	Valid:   "sigma > 0 && y > 0",
	Let:     []Let{{"ly", "log(y)"}, {"z", "(ly - mu) * inv(sigma)"}},
	Value:   "-log(sigma) - lnSqrt2Pi - 0.5*z*z - ly",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return distuv.LogNormal{Mu: p[0], Sigma: p[1], Src: rng}.Rand()
	},
	Mean: func(p []float64) float64 { return math.Exp(p[0] + p[1]*p[1]/2) },
	Var: func(p []float64) float64 {
		s2 := p[1] * p[1]
		return math.Expm1(s2) * math.Exp(2*p[0]+s2)
	},
	// The normal's tails at z = (log y - μ)/σ, ∂y taking a factor 1/y;
	// log F is -Inf at y ≤ 0, log(1-F) 0 there.
	LCDF: &Tail{
		Valid: "sigma > 0 && y > 0",
		Let:   []Let{{"z", "(log(y) - mu) * inv(sigma)"}, {"r", "dLogPhi(z)"}},
		Value: "logPhi(z)",
		Grads: []string{"r * inv(sigma) / y", "-r * inv(sigma)", "-r * z * inv(sigma)"},
	},
	LCCDF: &Tail{
		Valid: "sigma > 0",
		Let:   []Let{{"z", "(log(y) - mu) * inv(sigma)"}, {"r", "dLogPhi(-z)"}},
		Value: "where(y > 0, logPhi(-z), 0)",
		Grads: []string{"where(y > 0, -r * inv(sigma) / y, 0)", "where(y > 0, r * inv(sigma), 0)",
			"where(y > 0, r * z * inv(sigma), 0)"},
	},
})

// Gamma (β the rate): α log β - lgamma(α) + (α-1) log y - βy for y > 0;
// ∂y = (α-1)/y - β, ∂α = log β - ψ(α) + log y, ∂β = α/β - y.
var Gamma = define(&Dist{
	Family: "Gamma", Op: "GammaLPDF", Name: "gamma_lpdf", CName: "gamma",
	Doc: "is the gamma distribution with shape alpha > 0 and rate beta > 0 (mean alpha/beta).",
	Args: []Arg{
		{Name: "y", Grad: "(alpha - 1) / y - beta"},
		{Name: "alpha", Support: "Positive", Grad: "log(beta) - digamma(alpha) + log(y)"},
		{Name: "beta", Support: "Positive", Grad: "alpha / beta - y"},
	},
	Support: "Positive",
	Valid:   "alpha > 0 && beta > 0 && y > 0",
	Scalar:  true,
	Value:   "alpha * log(beta) - lgamma(alpha) + (alpha - 1) * log(y) - beta * y",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return distuv.Gamma{Alpha: p[0], Beta: p[1], Src: rng}.Rand()
	},
	Mean: func(p []float64) float64 { return p[0] / p[1] },
	Var:  func(p []float64) float64 { return p[0] / (p[1] * p[1]) },
	// F = P(α, x) and 1 - F = Q(α, x) at x = βy, the regularized
	// incomplete gamma functions (incgamma.go); with g = (α-1) log x - x -
	// lgamma(α), the log density of x, ∂log P/∂x = e^(g - log P) = r:
	// ∂y = βr, ∂β = yr, ∂α = dLogGammaP (and the same with Q, -r). Where
	// x underflows to 0 or overflows the partials are 0.
	LCDF: &Tail{
		Valid:  "alpha > 0 && beta > 0 && y > 0",
		GradIf: "x > 0 && x < inf",
		Let: []Let{{"x", "beta * y"}, {"lp", "logGammaP(alpha, x)"},
			{"r", "exp((alpha - 1)*log(x) - x - lgamma(alpha) - lp)"}},
		Keep:  []string{"lp"},
		Value: "lp",
		Grads: []string{"beta * r", "dLogGammaP(alpha, x)", "y * r"},
	},
	LCCDF: &Tail{
		Valid:  "alpha > 0 && beta > 0",
		GradIf: "x > 0 && x < inf",
		Let: []Let{{"x", "beta * y"}, {"lq", "logGammaQ(alpha, x)"},
			{"r", "-exp((alpha - 1)*log(x) - x - lgamma(alpha) - lq)"}},
		Keep:  []string{"lq"},
		Value: "lq",
		Grads: []string{"beta * r", "dLogGammaQ(alpha, x)", "y * r"},
	},
})

// InverseGamma (β the scale): α log β - lgamma(α) - (α+1) log y - β/y for
// y > 0; ∂y = (β/y - (α+1))/y, ∂α = log β - ψ(α) - log y, ∂β = α/β - 1/y.
var InverseGamma = define(&Dist{
	Family: "InverseGamma", Op: "InvGammaLPDF", Name: "inv_gamma_lpdf", CName: "inv_gamma",
	Doc: "is 1/X for X gamma with shape alpha > 0 and rate beta > 0: beta is the inverse gamma's scale. " +
		"The mean beta/(alpha-1) exists for alpha > 1, the variance for alpha > 2.",
	Args: []Arg{
		{Name: "y", Grad: "(beta * inv(y) - (alpha + 1)) * inv(y)"},
		{Name: "alpha", Support: "Positive", Grad: "log(beta) - digamma(alpha) - log(y)"},
		{Name: "beta", Support: "Positive", Grad: "alpha / beta - inv(y)"},
	},
	Support: "Positive",
	Valid:   "alpha > 0 && beta > 0 && y > 0",
	Value:   "alpha * log(beta) - lgamma(alpha) - (alpha + 1) * log(y) - beta / y",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return distuv.InverseGamma{Alpha: p[0], Beta: p[1], Src: rng}.Rand()
	},
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
	// F(y) = P(X ≥ 1/y) = Q(α, x) and 1 - F = P(α, x) at x = β/y. With
	// g the log density of x as for the gamma, r = e^(g - log Q) =
	// -∂log Q/∂x, and ∂x/∂y = -x/y, ∂x/∂β = 1/y: ∂y log F = rx/y,
	// ∂β log F = -r/y, ∂α = dLogGammaQ; the CCDF's with P, signs turned.
	LCDF: &Tail{
		Valid:  "alpha > 0 && beta > 0 && y > 0",
		GradIf: "x > 0 && x < inf",
		Let: []Let{{"x", "beta / y"}, {"lq", "logGammaQ(alpha, x)"},
			{"r", "exp((alpha - 1)*log(x) - x - lgamma(alpha) - lq)"}},
		Keep:  []string{"lq"},
		Value: "lq",
		Grads: []string{"r * x / y", "dLogGammaQ(alpha, x)", "-r / y"},
	},
	LCCDF: &Tail{
		Valid:  "alpha > 0 && beta > 0",
		GradIf: "x > 0 && x < inf",
		Let: []Let{{"x", "where(y > 0, beta / y, inf)"}, {"lp", "logGammaP(alpha, x)"},
			{"r", "exp((alpha - 1)*log(x) - x - lgamma(alpha) - lp)"}},
		Keep:  []string{"lp"},
		Value: "lp",
		Grads: []string{"-r * x / y", "dLogGammaP(alpha, x)", "r / y"},
	},
})
