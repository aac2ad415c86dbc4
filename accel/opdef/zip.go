package opdef

import "math/rand/v2"

// ZeroInflatedPoisson: zero with probability ψ, else Poisson(λ):
// log p(0) = log(ψ + (1-ψ)e^-λ), log p(y > 0) = log(1-ψ) + y log λ - λ -
// log y!. At y = 0, with v = ψ + (1-ψ)e^-λ: ∂ψ = (1-e^-λ)/v,
// ∂λ = -(1-ψ)e^-λ/v; at y > 0: ∂ψ = -1/(1-ψ), ∂λ = y/λ - 1.
var ZeroInflatedPoisson = define(&Dist{
	Family: "ZeroInflatedPoisson", Op: "ZeroInflatedPoissonLPMF", Name: "zero_inflated_poisson_lpmf", CName: "zero_inflated_poisson",
	Doc: "counts that are zero with probability psi (structural zeros) and " +
		"Poisson with rate lambda otherwise, PyMC's ZeroInflatedPoisson.",
	Args: []Arg{
		{Name: "y"},
		{Name: "psi", Support: "UnitInterval", Grad: "where(y == 0, (1 - q) / v, -inv(1 - psi))"},
		{Name: "lambda", Support: "Positive", Grad: "where(y == 0, -(1 - psi) * q / v, y * inv(lambda) - 1)"},
	},
	Support:  "NonNegInt",
	Discrete: true,
	Valid:    "isCount(y) && psi >= 0 && psi <= 1 && lambda > 0",
	Let:      []Let{{"q", "exp(-lambda)"}, {"v", "psi + (1 - psi) * q"}},
	Value:    "where(y == 0, log(v), log1p(-psi) + y * log(lambda) - lambda - lgamma(y + 1))",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		if rng.Float64() < p[0] {
			return 0
		}
		return DrawPoisson(rng, p[1])
	},
	Mean: func(p []float64) float64 { return (1 - p[0]) * p[1] },
	Var:  func(p []float64) float64 { return (1 - p[0]) * p[1] * (1 + p[0]*p[1]) },
})

// ZeroInflatedNegBinomial: zero with probability ψ, else neg_binomial_2(μ,
// φ), whose mass at zero is q = (φ/(μ+φ))^φ = e^{-φL}, L = log1p(μ/φ).
// log p(0) = log(ψ + (1-ψ)q); log p(y > 0) = log(1-ψ) + the negative
// binomial's. With r = 1/(μ+φ) and v = ψ + (1-ψ)q, at y = 0:
// ∂ψ = (1-q)/v, ∂μ = -(1-ψ)qφr/v, ∂φ = (1-ψ)q(μr - L)/v; at y > 0 the
// negative binomial's partials and ∂ψ = -1/(1-ψ).
var ZeroInflatedNegBinomial = define(&Dist{
	Family: "ZeroInflatedNegBinomial", Op: "ZeroInflatedNegBinomialLPMF", Name: "zero_inflated_neg_binomial_lpmf", CName: "zero_inflated_neg_binomial",
	Doc: "counts that are zero with probability psi (structural zeros) and " +
		"negative binomial with mean mu > 0 and overdispersion phi > 0 otherwise (NegativeBinomial's parameters), PyMC's ZeroInflatedNegativeBinomial.",
	Args: []Arg{
		{Name: "y"},
		{Name: "psi", Support: "UnitInterval", Grad: "where(y == 0, (1 - q) / v, -inv(1 - psi))"},
		{Name: "mu", Support: "Positive", Grad: "where(y == 0, -(1 - psi) * q * phi * r / v, phi * r * (y - mu) / mu)"},
		{Name: "phi", Support: "Positive", Grad: "where(y == 0, (1 - psi) * q * (mu * r - l) / v, digamma(y + phi) - digamma(phi) - l + (mu - y) * r)"},
	},
	Support:  "NonNegInt",
	Discrete: true,
	Valid:    "isCount(y) && psi >= 0 && psi <= 1 && mu > 0 && phi > 0 && mu < inf && phi < inf",
	// L = log(μ+φ) - log φ once μ/φ overflows (1e300/1e-300); φL = μ,
	// its limit, once μ/φ underflows (1e-300/1e300).
	Let: []Let{{"r", "inv(mu + phi)"}, {"l", "where(mu / phi < inf, log1p(mu / phi), log(mu) - log(phi))"},
		{"k", "where(l > 0, phi * l, mu)"}, {"q", "exp(-k)"}, {"v", "psi + (1 - psi) * q"}},
	Value: "where(y == 0, log(v), log1p(-psi) + lgamma(y + phi) - lgamma(y + 1) - lgamma(phi) - k + y * (log(mu) - log(mu + phi)))",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		if rng.Float64() < p[0] {
			return 0
		}
		return DrawNegBinomial(rng, p[1], p[2])
	},
	Mean: func(p []float64) float64 { return (1 - p[0]) * p[1] },
	Var:  func(p []float64) float64 { return (1 - p[0]) * p[1] * (1 + p[1]/p[2] + p[0]*p[1]) },
})
