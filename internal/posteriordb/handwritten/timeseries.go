package handwritten

import (
	"fmt"
	"math"

	"github.com/gobayes/gobayes/internal/posteriordb"
)

// arK-arK: x = [alpha, beta[1..K], log sigma],
// alpha ~ Normal(0, 10), beta ~ Normal(0, 10), sigma ~ HalfCauchy(2.5),
// y[t] ~ Normal(alpha + sum_k beta[k]·y[t-k], sigma) for t = K+1..T.
func newArK(c *posteriordb.Case) (*Model, error) {
	K, err := c.Int("K")
	if err != nil {
		return nil, err
	}
	y, err := c.Floats("y")
	if err != nil {
		return nil, err
	}
	if K < 1 || K >= len(y) {
		return nil, fmt.Errorf("K = %d with %d values of y", K, len(y))
	}
	bs, dim := layout([]string{"alpha", "beta", "sigma"}, []int{1, K, 1})
	return &Model{Dim: dim, Blocks: bs, LogDensity: func(x []float64) float64 {
		alpha, beta := x[0], x[1:1+K]
		sigma, lp := positive(x[1+K])
		lp += normalLPDF(alpha, 0, 10) + halfCauchyLPDF(sigma, 2.5)
		for _, b := range beta {
			lp += normalLPDF(b, 0, 10)
		}
		for t := K; t < len(y); t++ { // 0-based: t = K .. T-1
			mean := alpha
			for k := 1; k <= K; k++ {
				mean += beta[k-1] * y[t-k]
			}
			lp += normalLPDF(y[t], mean, sigma)
		}
		return lp
	}}, nil
}

// arma-arma11: x = [mu, phi, theta, log sigma],
// mu ~ Normal(0, 10), phi ~ Normal(0, 2), theta ~ Normal(0, 2),
// sigma ~ HalfCauchy(2.5); nu[1] = mu + phi·mu, nu[t] = mu + phi·y[t-1] +
// theta·err[t-1], err[t] = y[t] - nu[t] ~ Normal(0, sigma).
func newArma11(c *posteriordb.Case) (*Model, error) {
	y, err := c.Floats("y")
	if err != nil {
		return nil, err
	}
	bs, dim := layout([]string{"mu", "phi", "theta", "sigma"}, []int{1, 1, 1, 1})
	return &Model{Dim: dim, Blocks: bs, LogDensity: func(x []float64) float64 {
		mu, phi, theta := x[0], x[1], x[2]
		sigma, lp := positive(x[3])
		lp += normalLPDF(mu, 0, 10) + normalLPDF(phi, 0, 2) + normalLPDF(theta, 0, 2) + halfCauchyLPDF(sigma, 2.5)
		e := 0.0
		for t := range y {
			var nu float64
			if t == 0 {
				nu = mu + phi*mu
			} else {
				nu = mu + phi*y[t-1] + theta*e
			}
			e = y[t] - nu
			lp += normalLPDF(e, 0, sigma)
		}
		return lp
	}}, nil
}

// garch-garch11: x = [mu, log alpha0, logit alpha1, logit of beta1/(1-alpha1)],
// flat priors over the support 0 < alpha0, 0 < alpha1 < 1,
// 0 < beta1 < 1 - alpha1; s[1] = sigma1, s[t]² = alpha0 +
// alpha1·(y[t-1]-mu)² + beta1·s[t-1]², y[t] ~ Normal(mu, s[t]).
func newGarch11(c *posteriordb.Case) (*Model, error) {
	y, err := c.Floats("y")
	if err != nil {
		return nil, err
	}
	sigma1, err := c.Float("sigma1")
	if err != nil {
		return nil, err
	}
	bs, dim := layout([]string{"mu", "alpha0", "alpha1", "beta1"}, []int{1, 1, 1, 1})
	return &Model{Dim: dim, Blocks: bs, LogDensity: func(x []float64) float64 {
		mu := x[0]
		alpha0, lj0 := positive(x[1])
		alpha1, lj1 := interval(x[2], 0, 1)
		beta1, lj2 := interval(x[3], 0, 1-alpha1) // the bound depends on alpha1
		lp := lj0 + lj1 + lj2
		s := sigma1
		for t := range y {
			if t > 0 {
				d := y[t-1] - mu
				s = math.Sqrt(alpha0 + alpha1*d*d + beta1*s*s)
			}
			lp += normalLPDF(y[t], mu, s)
		}
		return lp
	}}, nil
}
