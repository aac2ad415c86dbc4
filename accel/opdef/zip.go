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
