package opdef

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// BetaBinomial: the number of successes in n trials whose probability is
// Beta(α, β): log p(y | n, α, β) = log C(n, y) + log B(y+α, n-y+β) -
// log B(α, β). With s = α+β: ∂α = ψ(y+α) - ψ(n+s) - ψ(α) + ψ(s),
// ∂β = ψ(n-y+β) - ψ(n+s) - ψ(β) + ψ(s).
var BetaBinomial = define(&Dist{
	Family: "BetaBinomial", Op: "BetaBinomialLPMF", Name: "beta_binomial_lpmf", CName: "beta_binomial",
	Doc: "counts successes in n trials whose success probability is Beta(alpha, beta): " +
		"a binomial with overdispersion (mean n·alpha/(alpha+beta)).",
	Args: []Arg{
		{Name: "y"},
		{Name: "n", Support: "NonNegInt"},
		{Name: "alpha", Support: "Positive", Grad: "digamma(y + alpha) - dn + digamma(alpha + beta) - digamma(alpha)"},
		{Name: "beta", Support: "Positive", Grad: "digamma(n - y + beta) - dn + digamma(alpha + beta) - digamma(beta)"},
	},
	Support:  "BoundedInt:0",
	Discrete: true,
	Valid:    "isCount(y) && isCount(n) && y <= n && alpha > 0 && beta > 0",
	Let:      []Let{{"dn", "digamma(n + alpha + beta)"}},
	Value:    "lchoose(n, y) + lbeta(y + alpha, n - y + beta) - lbeta(alpha, beta)",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return DrawBinomial(rng, p[0], distuv.Beta{Alpha: p[1], Beta: p[2], Src: rng}.Rand())
	},
	Mean: func(p []float64) float64 { return p[0] * p[1] / (p[1] + p[2]) },
	Var: func(p []float64) float64 {
		n, a, b := p[0], p[1], p[2]
		s := a + b
		return n * a * b * (s + n) / (s * s * (s + 1))
	},
})
