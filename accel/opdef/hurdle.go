package opdef

import (
	"math"
	"math/rand/v2"
)

// The hurdle families, as PyMC has them: psi is the probability of a
// count above zero (of crossing the hurdle); above it the counts follow
// the base distribution truncated to y ≥ 1.

// HurdlePoisson: log p(0) = log(1-ψ); log p(y > 0) = log ψ + y log λ - λ
// - log y! - log(1-e^-λ). At y > 0: ∂ψ = 1/ψ, ∂λ = y/λ - 1 - 1/(e^λ-1);
// at y = 0: ∂ψ = -1/(1-ψ) and λ takes no gradient.
var HurdlePoisson = define(&Dist{
	Family: "HurdlePoisson", Op: "HurdlePoissonLPMF", Name: "hurdle_poisson_lpmf", CName: "hurdle_poisson",
	Doc: "counts that are above zero with probability psi and then Poisson with rate lambda truncated to 1, 2, …; PyMC's HurdlePoisson.",
	Args: []Arg{
		{Name: "y"},
		{Name: "psi", Support: "UnitInterval", Grad: "where(y == 0, -inv(1 - psi), inv(psi))"},
		{Name: "lambda", Support: "Positive", Grad: "where(y == 0, 0, y * inv(lambda) - 1 - inv(expm1(lambda)))"},
	},
	Support:  "NonNegInt",
	Discrete: true,
	Valid:    "isCount(y) && psi >= 0 && psi <= 1 && lambda > 0 && lambda < inf && (y > 0 || psi < 1) && (y == 0 || psi > 0)",
	Value:    "where(y == 0, log1p(-psi), log(psi) + y * log(lambda) - lambda - lgamma(y + 1) - log(-expm1(-lambda)))",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		if rng.Float64() >= p[0] {
			return 0
		}
		return drawAboveZero(func() float64 { return DrawPoisson(rng, p[1]) })
	},
	Mean: func(p []float64) float64 { return p[0] * p[1] / -math.Expm1(-p[1]) },
	Var: func(p []float64) float64 {
		psi, l := p[0], p[1]
		m := psi * l / -math.Expm1(-l)
		return psi*(l+l*l)/-math.Expm1(-l) - m*m
	},
})

// HurdleNegBinomial: the hurdle over neg_binomial_2(μ, φ), whose mass at
// zero is q = e^{-φL}, L = log1p(μ/φ): log p(y > 0) = log ψ + the negative
// binomial's - log(1-q). With r = 1/(μ+φ), at y > 0: ∂μ = φr(y-μ)/μ -
// qφr/(1-q), ∂φ = ψ(y+φ) - ψ(φ) - L + (μ-y)r + q(μr - L)/(1-q) (ψ here
// the digamma), 1-q taken as -expm1(-φL).
var HurdleNegBinomial = define(&Dist{
	Family: "HurdleNegBinomial", Op: "HurdleNegBinomialLPMF", Name: "hurdle_neg_binomial_lpmf", CName: "hurdle_neg_binomial",
	Doc: "counts that are above zero with probability psi and then negative binomial with mean mu > 0 and overdispersion phi > 0 (NegativeBinomial's parameters) truncated to 1, 2, …; PyMC's HurdleNegativeBinomial.",
	Args: []Arg{
		{Name: "y"},
		{Name: "psi", Support: "UnitInterval", Grad: "where(y == 0, -inv(1 - psi), inv(psi))"},
		{Name: "mu", Support: "Positive", Grad: "where(y == 0, 0, phi * r * (y - mu) / mu - q * phi * r / w)"},
		{Name: "phi", Support: "Positive", Grad: "where(y == 0, 0, digamma(y + phi) - digamma(phi) - l + (mu - y) * r + q * (mu * r - l) / w)"},
	},
	Support:  "NonNegInt",
	Discrete: true,
	Valid:    "isCount(y) && psi >= 0 && psi <= 1 && mu > 0 && phi > 0 && mu < inf && phi < inf && (y > 0 || psi < 1) && (y == 0 || psi > 0)",
	// L and φL as the zero-inflated negative binomial's; w = 1-q
	// without cancellation (φL = 1e-300).
	Let: []Let{{"r", "inv(mu + phi)"}, {"l", "where(mu / phi < inf, log1p(mu / phi), log(mu) - log(phi))"},
		{"k", "where(l > 0, phi * l, mu)"}, {"q", "exp(-k)"}, {"w", "-expm1(-k)"}},
	Value: "where(y == 0, log1p(-psi), log(psi) + lgamma(y + phi) - lgamma(y + 1) - lgamma(phi) - k + y * (log(mu) - log(mu + phi)) - log(w))",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		if rng.Float64() >= p[0] {
			return 0
		}
		return drawAboveZero(func() float64 { return DrawNegBinomial(rng, p[1], p[2]) })
	},
	Mean: func(p []float64) float64 {
		q := math.Exp(-p[2] * math.Log1p(p[1]/p[2]))
		return p[0] * p[1] / (1 - q)
	},
	Var: func(p []float64) float64 {
		psi, mu, phi := p[0], p[1], p[2]
		q := math.Exp(-phi * math.Log1p(mu/phi))
		m := psi * mu / (1 - q)
		return psi*(mu+mu*mu/phi+mu*mu)/(1-q) - m*m
	},
})

// drawAboveZero draws from draw until a count above zero comes (the base
// distribution truncated to 1, 2, …); after 10⁶ zeros (a rate so small
// that the truncated distribution is all but a point mass at 1) it
// returns 1.
func drawAboveZero(draw func() float64) float64 {
	for range 1000000 {
		if y := draw(); y > 0 {
			return y
		}
	}
	return 1
}
