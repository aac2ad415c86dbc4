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
	bs, dim := layout(spec("alpha", 1, Identity), spec("beta", K, Identity), spec("sigma", 1, Positive))
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

// Arma11 is the ARMA(1,1) model at x = [mu, phi, theta, log sigma]:
//
//	mu ~ Normal(0, 10), phi ~ Normal(0, 2), theta ~ Normal(0, 2), sigma ~ HalfCauchy(2.5),
//	nu[1] = mu + phi·mu, nu[t] = mu + phi·y[t-1] + theta·err[t-1],
//	err[t] = y[t] - nu[t] ~ Normal(0, sigma).
//
// Its gradient runs the error recurrence backwards. (It has one because
// at |theta| > 1 the errors grow like theta^T, where finite differences
// are useless as an oracle.)
type Arma11 struct {
	y, err []float64
}

// NewArma11 returns the model of the series y.
func NewArma11(y []float64) *Arma11 { return &Arma11{y: y, err: make([]float64, len(y))} }

func newArma11(c *posteriordb.Case) (*Model, error) {
	y, err := c.Floats("y")
	if err != nil {
		return nil, err
	}
	if len(y) < 2 {
		return nil, fmt.Errorf("%d values of y; want 2 or more", len(y))
	}
	return withGrad(NewArma11(y), spec("mu", 1, Identity), spec("phi", 1, Identity), spec("theta", 1, Identity), spec("sigma", 1, Positive)), nil
}

// LogDensityGrad returns the log density at x and writes its gradient.
func (m *Arma11) LogDensityGrad(x, grad []float64) float64 {
	y, e := m.y, m.err
	T := len(y)
	mu, phi, theta, u := x[0], x[1], x[2], x[3]
	sigma := math.Exp(u)
	lp := normalLPDF(mu, 0, 10) + normalLPDF(phi, 0, 2) + normalLPDF(theta, 0, 2) + halfCauchyLPDF(sigma, 2.5) + u

	e[0] = y[0] - (mu + phi*mu)
	ss := e[0] * e[0]
	for t := 1; t < T; t++ {
		e[t] = y[t] - (mu + phi*y[t-1] + theta*e[t-1])
		ss += e[t] * e[t]
	}
	inv2 := 1 / (sigma * sigma)
	lp += -0.5*ss*inv2 - float64(T)*(u+logSqrt2Pi)

	// Backwards: eb is the adjoint of err[t]; err[t+1] depends on err[t]
	// through -theta·err[t].
	var gmu, gphi, gtheta float64
	eb := 0.0
	for t := T - 1; t >= 0; t-- {
		eb = -e[t]*inv2 - theta*eb
		gmu -= eb
		if t > 0 {
			gphi -= eb * y[t-1]
			gtheta -= eb * e[t-1]
		} else {
			gmu -= eb * phi
			gphi -= eb * mu
		}
	}
	s := sigma / 2.5
	grad[0] = gmu - mu/100
	grad[1] = gphi - phi/4
	grad[2] = gtheta - theta/4
	grad[3] = ss*inv2 - float64(T) - 2*s*s/(1+s*s) + 1
	return lp
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
	bs, dim := layout(spec("mu", 1, Identity), spec("alpha0", 1, Positive), spec("alpha1", 1, UnitInterval), spec("beta1", 1, Dependent))
	derive := func(x []float64, v map[string][]float64) {
		alpha1, _ := interval(x[2], 0, 1)
		beta1, _ := interval(x[3], 0, 1-alpha1)
		v["beta1"] = []float64{beta1}
	}
	return &Model{Dim: dim, Blocks: bs, derive: derive, LogDensity: func(x []float64) float64 {
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
