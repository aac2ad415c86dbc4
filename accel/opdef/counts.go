package opdef

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// Bernoulli: log p for y = 1, log(1-p) for y = 0.
var Bernoulli = define(&Dist{
	Family: "Bernoulli", Op: "BernoulliLPMF", Name: "bernoulli_lpmf", CName: "bernoulli",
	Doc: "is 1 with probability p, 0 otherwise.",
	Args: []Arg{
		{Name: "y"},
		{Name: "p", Support: "UnitInterval", Grad: "where(y == 1, inv(p), -inv(1 - p))"},
	},
	Support: "Binary", Discrete: true,
	Valid: "p >= 0 && p <= 1 && (y == 1 && p > 0 || y == 0 && p < 1)",
	Value: "where(y == 1, log(p), log1p(-p))",
	Draw:  func(rng *rand.Rand, p []float64) float64 { return DrawBernoulli(rng, p[0]) },
	Mean:  func(p []float64) float64 { return p[0] },
	Var:   func(p []float64) float64 { return p[0] * (1 - p[0]) },
})

// BernoulliLogit: the Bernoulli with p = logistic(logit), the likelihood
// of logistic regression, without overflow: log σ(s·x) = min(s·x, 0) -
// log1p(e^-|x|) with s = 2y-1. Forward keeps e^-|x|, from which Backward
// has σ(x) = 1/(1+e^-|x|) for x ≥ 0 and e^x/(1+e^x) below, with no
// transcendental call.
var BernoulliLogit = define(&Dist{
	Family: "BernoulliLogit", Op: "BernoulliLogitLPMF", Name: "bernoulli_logit_lpmf", CName: "bernoulli_logit",
	Doc: "is Bernoulli with probability logistic(logit), the likelihood of logistic regression.",
	Args: []Arg{
		{Name: "y"},
		{Name: "logit", Support: "Real", Grad: "y - where(logit < 0, em, 1) * inv(1 + em)"},
	},
	Support: "Binary", Discrete: true,
	Valid: "(y == 0 || y == 1) && logit == logit",
	Let:   []Let{{"em", "exp(-abs(logit))"}},
	Keep:  []string{"em"},
	Value: "min((2*y - 1) * logit, 0) - log1p(em)",
	Draw:  func(rng *rand.Rand, p []float64) float64 { return DrawBernoulli(rng, logistic(p[0])) },
	Mean:  func(p []float64) float64 { return logistic(p[0]) },
	Var: func(p []float64) float64 {
		q := logistic(p[0])
		return q * (1 - q)
	},
})

// Binomial: log C(n, y) + y log p + (n-y) log(1-p) for counts
// 0 ≤ y ≤ n; a certain outcome (p = 0 or 1) has log mass 0.
var Binomial = define(&Dist{
	Family: "Binomial", Op: "BinomialLPMF", Name: "binomial_lpmf", CName: "binomial",
	Doc: "counts successes in n trials of probability p.",
	Args: []Arg{
		{Name: "y"},
		{Name: "n", Support: "NonNegInt"},
		{Name: "p", Support: "UnitInterval", Grad: "where(y > 0, y * inv(p), 0) - where(n > y, (n - y) * inv(1 - p), 0)"},
	},
	Support: "BoundedInt:0", Discrete: true,
	Valid: "isCount(y) && isCount(n) && y <= n && p >= 0 && p <= 1 && (p > 0 || y == 0) && (p < 1 || y == n)",
	Value: "lchoose(n, y) + where(y > 0, y * log(p), 0) + where(n > y, (n - y) * log1p(-p), 0)",
	Draw:  func(rng *rand.Rand, p []float64) float64 { return DrawBinomial(rng, p[0], p[1]) },
	Mean:  func(p []float64) float64 { return p[0] * p[1] },
	Var:   func(p []float64) float64 { return p[0] * p[1] * (1 - p[1]) },
})

// BinomialLogit: the binomial with p = logistic(logit), written without
// overflow: y log σ(x) + (n-y) log σ(-x) = -n log1p(e^-|x|) - y max(-x, 0)
// - (n-y) max(x, 0); ∂x = y - n σ(x).
var BinomialLogit = define(&Dist{
	Family: "BinomialLogit", Op: "BinomialLogitLPMF", Name: "binomial_logit_lpmf", CName: "binomial_logit",
	Doc: "is Binomial with probability logistic(logit).",
	Args: []Arg{
		{Name: "y"},
		{Name: "n", Support: "NonNegInt"},
		{Name: "logit", Support: "Real", Grad: "y - n * logistic(logit)"},
	},
	Support: "BoundedInt:0", Discrete: true,
	Valid: "isCount(y) && isCount(n) && y <= n && logit == logit",
	Value: "lchoose(n, y) - (n * log1p(exp(-abs(logit))) + y * max(-logit, 0) + (n - y) * max(logit, 0))",
	Draw: func(rng *rand.Rand, p []float64) float64 {
		return DrawBinomial(rng, p[0], distuv.Logistic{Mu: 0, S: 1}.CDF(p[1]))
	},
	Mean: func(p []float64) float64 { return p[0] * distuv.Logistic{Mu: 0, S: 1}.CDF(p[1]) },
	Var: func(p []float64) float64 {
		q := distuv.Logistic{Mu: 0, S: 1}.CDF(p[1])
		return p[0] * q * (1 - q)
	},
})

// Poisson: y log λ - λ - log y! for counts y and λ ≥ 0 (λ = 0 puts all
// its mass on 0).
var Poisson = define(&Dist{
	Family: "Poisson", Op: "PoissonLPMF", Name: "poisson_lpmf", CName: "poisson",
	Doc: "counts events of the given rate > 0.",
	Args: []Arg{
		{Name: "y"},
		{Name: "rate", Support: "Positive", Grad: "where(y > 0, y * inv(rate), 0) - 1"},
	},
	Support: "NonNegInt", Discrete: true,
	Valid: "isCount(y) && rate >= 0 && rate < inf && (rate > 0 || y == 0)",
	Value: "where(y > 0, y * log(rate), 0) - rate - lgamma(y + 1)",
	Draw:  func(rng *rand.Rand, p []float64) float64 { return DrawPoisson(rng, p[0]) },
	Mean:  func(p []float64) float64 { return p[0] },
	Var:   func(p []float64) float64 { return p[0] },
})

// PoissonLog: the Poisson with rate λ = exp(log_rate), the likelihood of
// Poisson regression: y·η - λ - log y!, ∂η = y - λ. Forward keeps λ for
// Backward; a rate that overflows makes the term -Inf and takes no
// gradient.
var PoissonLog = define(&Dist{
	Family: "PoissonLog", Op: "PoissonLogLPMF", Name: "poisson_log_lpmf", CName: "poisson_log",
	Doc: "is Poisson with rate exp(log_rate), stable for a linear predictor (Poisson regression).",
	Args: []Arg{
		{Name: "y"},
		{Name: "log_rate", Support: "Real", Grad: "y - l"},
	},
	Support: "NonNegInt", Discrete: true,
	Valid:  "isCount(y) && log_rate < inf",
	GradIf: "l < inf",
	Let:    []Let{{"l", "exp(log_rate)"}},
	Keep:   []string{"l"},
	Value:  "where(y > 0, y * log_rate, 0) - l - lgamma(y + 1)",
	Draw:   func(rng *rand.Rand, p []float64) float64 { return DrawPoisson(rng, math.Exp(p[0])) },
	Mean:   func(p []float64) float64 { return math.Exp(p[0]) },
	Var:    func(p []float64) float64 { return math.Exp(p[0]) },
})

// NegativeBinomial is Stan's neg_binomial_2, mean μ and variance
// μ + μ²/φ: lgamma(y+φ) - lgamma(y+1) - lgamma(φ) + y log(μ/(μ+φ))
// + φ log(φ/(μ+φ)). With r = 1/(μ+φ): ∂μ = φ r (y-μ)/μ,
// ∂φ = ψ(y+φ) - ψ(φ) - log1p(μ/φ) + (μ-y) r.
var NegativeBinomial = define(&Dist{
	Family: "NegativeBinomial", Op: "NegBinomialLPMF", Name: "neg_binomial_2_lpmf", CName: "neg_binomial",
	Doc: "counts with mean mu > 0 and overdispersion phi > 0 (variance mu + mu²/phi), Stan's neg_binomial_2. " +
		"Draws are Poisson with a gamma(phi, phi/mu) rate.",
	Args: []Arg{
		{Name: "y"},
		{Name: "mu", Support: "Positive", Grad: "phi * r * (y - mu) / mu"},
		{Name: "phi", Support: "Positive", Grad: "digamma(y + phi) - digamma(phi) - log1p(mu / phi) + (mu - y) * r"},
	},
	Support: "NonNegInt", Discrete: true,
	Valid: "isCount(y) && mu > 0 && phi > 0 && mu < inf && phi < inf",
	Let:   []Let{{"r", "inv(mu + phi)"}},
	Value: "lgamma(y + phi) - lgamma(y + 1) - lgamma(phi) - phi * log1p(mu / phi) + where(y > 0, y * (log(mu) - log(mu + phi)), 0)",
	Draw:  func(rng *rand.Rand, p []float64) float64 { return DrawNegBinomial(rng, p[0], p[1]) },
	Mean:  func(p []float64) float64 { return p[0] },
	Var:   func(p []float64) float64 { return p[0] + p[0]*p[0]/p[1] },
})

// logistic is 1/(1+e^-x), for the samplers and moments.
func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// DrawNegBinomial draws neg_binomial_2(mu, phi): Poisson with a
// gamma(phi, phi/mu) rate.
func DrawNegBinomial(rng *rand.Rand, mu, phi float64) float64 {
	return DrawPoisson(rng, distuv.Gamma{Alpha: phi, Beta: phi / mu, Src: rng}.Rand())
}
