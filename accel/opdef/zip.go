package opdef

import "math/rand/v2"

// ZeroInflatedPoisson: Poisson(λ) with probability ψ, else zero — ψ is
// the probability of the Poisson component, as in PyMC (it was once the
// probability of a structural zero):
// log p(0) = log(1-ψ + ψe^-λ), log p(y > 0) = log ψ + y log λ - λ -
// log y!. At y = 0, with v = 1-ψ + ψe^-λ: ∂ψ = (e^-λ-1)/v,
// ∂λ = -ψe^-λ/v; at y > 0: ∂ψ = 1/ψ, ∂λ = y/λ - 1.
var ZeroInflatedPoisson = define(&Dist{
	Family: "ZeroInflatedPoisson", Op: "ZeroInflatedPoissonLPMF", Name: "zero_inflated_poisson_lpmf", CName: "zero_inflated_poisson",
	Doc: "counts that are Poisson with rate lambda with probability psi and " +
		"zero otherwise (structural zeros, probability 1 - psi), PyMC's ZeroInflatedPoisson.",
	Args: []Arg{
		{Name: "y"},
		{Name: "psi", Support: "UnitInterval", Grad: "where(y == 0, (q - 1) / v, inv(psi))"},
		{Name: "lambda", Support: "Positive", Grad: "where(y == 0, -psi * q / v, y * inv(lambda) - 1)"},
	},
	Support:  "NonNegInt",
	Discrete: true,
	Valid:    "isCount(y) && psi >= 0 && psi <= 1 && lambda > 0",
	Let:      []Let{{"q", "exp(-lambda)"}, {"v", "1 - psi + psi * q"}},
	Value:    "where(y == 0, log(v), log(psi) + y * log(lambda) - lambda - lgamma(y + 1))",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		if rng.Float64() >= p[0] {
			return 0
		}
		return DrawPoisson(rng, p[1])
	},
	Mean: func(p []float64) float64 { return p[0] * p[1] },
	Var:  func(p []float64) float64 { return p[0] * p[1] * (1 + (1-p[0])*p[1]) },
})

// ZeroInflatedNegBinomial: neg_binomial_2(μ, φ) with probability ψ (as in
// PyMC), else zero; the negative binomial's mass at zero is
// q = (φ/(μ+φ))^φ = e^{-φL}, L = log1p(μ/φ).
// log p(0) = log(1-ψ + ψq); log p(y > 0) = log ψ + the negative
// binomial's. With r = 1/(μ+φ) and v = 1-ψ + ψq, at y = 0:
// ∂ψ = (q-1)/v, ∂μ = -ψqφr/v, ∂φ = ψq(μr - L)/v; at y > 0 the
// negative binomial's partials and ∂ψ = 1/ψ.
var ZeroInflatedNegBinomial = define(&Dist{
	Family: "ZeroInflatedNegBinomial", Op: "ZeroInflatedNegBinomialLPMF", Name: "zero_inflated_neg_binomial_lpmf", CName: "zero_inflated_neg_binomial",
	Doc: "counts that are negative binomial with mean mu > 0 and overdispersion phi > 0 (NegativeBinomial's parameters) with probability psi and " +
		"zero otherwise (structural zeros, probability 1 - psi), PyMC's ZeroInflatedNegativeBinomial.",
	Args: []Arg{
		{Name: "y"},
		{Name: "psi", Support: "UnitInterval", Grad: "where(y == 0, (q - 1) / v, inv(psi))"},
		{Name: "mu", Support: "Positive", Grad: "where(y == 0, -psi * q * phi * r / v, phi * r * (y - mu) / mu)"},
		{Name: "phi", Support: "Positive", Grad: "where(y == 0, psi * q * (mu * r - l) / v, digamma(y + phi) - digamma(phi) - l + (mu - y) * r)"},
	},
	Support:  "NonNegInt",
	Discrete: true,
	Valid:    "isCount(y) && psi >= 0 && psi <= 1 && mu > 0 && phi > 0 && mu < inf && phi < inf",
	// L = log(μ+φ) - log φ once μ/φ overflows (1e300/1e-300); φL = μ,
	// its limit, once μ/φ underflows (1e-300/1e300).
	Let: []Let{{"r", "inv(mu + phi)"}, {"l", "where(mu / phi < inf, log1p(mu / phi), log(mu) - log(phi))"},
		{"k", "where(l > 0, phi * l, mu)"}, {"q", "exp(-k)"}, {"v", "1 - psi + psi * q"}},
	Value: "where(y == 0, log(v), log(psi) + lgamma(y + phi) - lgamma(y + 1) - lgamma(phi) - k + y * (log(mu) - log(mu + phi)))",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		if rng.Float64() >= p[0] {
			return 0
		}
		return DrawNegBinomial(rng, p[1], p[2])
	},
	Mean: func(p []float64) float64 { return p[0] * p[1] },
	Var:  func(p []float64) float64 { return p[0] * p[1] * (1 + p[1]/p[2] + (1-p[0])*p[1]) },
})
