package opdef

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Weibull: with L = log(y/λ) and u = (y/λ)^k, log p = log k - log λ +
// (k-1) L - u; ∂y = (k-1-ku)/y, ∂k = 1/k + L(1-u), ∂λ = k(u-1)/λ. Where
// u overflows the term is -Inf and takes no gradient.
var Weibull = define(&Dist{
	Family: "Weibull", Op: "WeibullLPDF", Name: "weibull_lpdf", CName: "weibull",
	Doc: "is the Weibull distribution with shape k > 0 and scale lambda > 0.",
	Args: []Arg{
		{Name: "y", Grad: "(k - 1 - k*u) / y"},
		{Name: "k", Support: "Positive", Grad: "inv(k) + L*(1 - u)"},
		{Name: "lambda", Support: "Positive", Grad: "k * (u - 1) * inv(lambda)"},
	},
	Support: "Positive",
	Valid:   "k > 0 && lambda > 0 && y > 0",
	GradIf:  "u < inf",
	Let:     []Let{{"L", "log(y) - log(lambda)"}, {"u", "exp(k * L)"}},
	Value:   "log(k) - log(lambda) + (k - 1)*L - u",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return distuv.Weibull{K: p[0], Lambda: p[1], Src: rng}.Rand()
	},
	Mean: func(p []float64) float64 { return p[1] * math.Gamma(1+1/p[0]) },
	Var: func(p []float64) float64 {
		g1 := math.Gamma(1 + 1/p[0])
		return p[1] * p[1] * (math.Gamma(1+2/p[0]) - g1*g1)
	},
	// F = 1 - e^-u: log F = log1mexp(-u) (log u - u/2 where u is too
	// small for it); with q = u/expm1(u) = u ∂log F/∂u: ∂y = kq/y,
	// ∂k = qL, ∂λ = -kq/λ. log(1-F) = -u.
	LCDF: &Tail{
		Valid:  "k > 0 && lambda > 0 && y > 0",
		GradIf: "u < inf",
		Let: []Let{{"L", "log(y) - log(lambda)"}, {"u", "exp(k * L)"},
			{"q", "where(u > 1e-10, u / expm1(u), 1 - 0.5*u)"}},
		Value: "where(u > 1e-10, log1mexp(-u), k*L - 0.5*u)",
		Grads: []string{"k * q / y", "q * L", "-k * q * inv(lambda)"},
	},
	LCCDF: &Tail{
		Valid:  "k > 0 && lambda > 0",
		GradIf: "u < inf",
		Let:    []Let{{"L", "log(y) - log(lambda)"}, {"u", "exp(k * L)"}},
		Value:  "where(y > 0, -u, 0)",
		Grads: []string{"where(y > 0, -k * u / y, 0)", "where(y > 0, -u * L, 0)",
			"where(y > 0, k * u * inv(lambda), 0)"},
	},
})

// Beta: (α-1) log y + (β-1) log(1-y) - log B(α, β) on (0, 1);
// ∂y = (α-1)/y - (β-1)/(1-y), ∂α = log y - ψ(α) + ψ(α+β),
// ∂β = log(1-y) - ψ(β) + ψ(α+β).
var Beta = define(&Dist{
	Family: "Beta", Op: "BetaLPDF", Name: "beta_lpdf", CName: "beta",
	Doc: "is the beta distribution on (0, 1) with shapes alpha, beta > 0.",
	Args: []Arg{
		{Name: "y", Grad: "(alpha - 1) / y - (beta - 1) / (1 - y)"},
		{Name: "alpha", Support: "Positive", Grad: "log(y) - digamma(alpha) + digamma(alpha + beta)"},
		{Name: "beta", Support: "Positive", Grad: "log1p(-y) - digamma(beta) + digamma(alpha + beta)"},
	},
	Support: "UnitInterval",
	Valid:   "alpha > 0 && beta > 0 && y > 0 && y < 1",
	Value:   "(alpha - 1) * log(y) + (beta - 1) * log1p(-y) - lbeta(alpha, beta)",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return distuv.Beta{Alpha: p[0], Beta: p[1], Src: rng}.Rand()
	},
	Mean: func(p []float64) float64 { return p[0] / (p[0] + p[1]) },
	Var: func(p []float64) float64 {
		s := p[0] + p[1]
		return p[0] * p[1] / (s * s * (s + 1))
	},
	// F = I_y(α, β), the regularized incomplete beta function
	// (incbeta.go), and 1 - F = I_{1-y}(β, α); with ∂log F/∂y = p(y)/F =
	// r, the partials in α and β are dLogIncBetaA and dLogIncBetaB (the
	// CCDF's swap them). 1 - y is exact where it is small (y ≥ ½).
	LCDF: &Tail{
		Valid: "alpha > 0 && beta > 0 && y > 0",
		Let: []Let{{"li", "logIncBeta(alpha, beta, y, 1 - y)"},
			{"r", "where(y < 1, exp((alpha - 1)*log(y) + (beta - 1)*log1p(-y) - lbeta(alpha, beta) - li), 0)"}},
		Keep:  []string{"li"},
		Value: "li",
		Grads: []string{"r", "dLogIncBetaA(alpha, beta, y, 1 - y)", "dLogIncBetaB(alpha, beta, y, 1 - y)"},
	},
	LCCDF: &Tail{
		Valid: "alpha > 0 && beta > 0 && y < 1",
		Let: []Let{{"lc", "logIncBeta(beta, alpha, 1 - y, y)"},
			{"r", "where(y > 0, -exp((alpha - 1)*log(y) + (beta - 1)*log1p(-y) - lbeta(alpha, beta) - lc), 0)"}},
		Keep:  []string{"lc"},
		Value: "lc",
		Grads: []string{"r", "dLogIncBetaB(beta, alpha, 1 - y, y)", "dLogIncBetaA(beta, alpha, 1 - y, y)"},
	},
})
