package handwritten

import (
	"fmt"
	"math"

	"github.com/gobayes/gobayes/internal/posteriordb"
)

func eightSchoolsData(c *posteriordb.Case) (y, sigma []float64, err error) {
	if y, err = c.Floats("y"); err != nil {
		return nil, nil, err
	}
	if sigma, err = c.Floats("sigma"); err != nil {
		return nil, nil, err
	}
	if len(y) != len(sigma) {
		return nil, nil, fmt.Errorf("%d values of y, %d of sigma", len(y), len(sigma))
	}
	return y, sigma, nil
}

// EightSchoolsNoncentered is the non-centred eight schools model at
// x = [mu, log tau, theta_tilde[1..J]]:
//
//	mu ~ Normal(0, 5), tau ~ HalfCauchy(5), theta_tilde ~ Normal(0, 1),
//	y[j] ~ Normal(mu + tau·theta_tilde[j], sigma[j]).
type EightSchoolsNoncentered struct {
	y, invSigma []float64
	logNorm     float64 // the constant terms, so the density is normalised
}

// NewEightSchoolsNoncentered returns the model of data y and sigma.
func NewEightSchoolsNoncentered(y, sigma []float64) *EightSchoolsNoncentered {
	m := &EightSchoolsNoncentered{y: y, invSigma: make([]float64, len(sigma))}
	m.logNorm = -math.Log(5) - logSqrt2Pi + math.Log(2/(math.Pi*5))
	for j, s := range sigma {
		m.invSigma[j] = 1 / s
		m.logNorm -= 2*logSqrt2Pi + math.Log(s)
	}
	return m
}

func newEightSchoolsNoncentered(c *posteriordb.Case) (*Model, error) {
	y, sigma, err := eightSchoolsData(c)
	if err != nil {
		return nil, err
	}
	m := withGrad(NewEightSchoolsNoncentered(y, sigma), spec("mu", 1, Identity), spec("tau", 1, Positive), spec("theta_tilde", len(y), Identity))
	m.derive = func(x []float64, v map[string][]float64) {
		theta := make([]float64, len(y))
		for j := range theta {
			theta[j] = x[0] + math.Exp(x[1])*x[2+j]
		}
		v["theta"] = theta
	}
	return m, nil
}

// LogDensityGrad returns the log density at x and writes its gradient.
func (m *EightSchoolsNoncentered) LogDensityGrad(x, grad []float64) float64 {
	mu, u := x[0], x[1]
	tau := math.Exp(u)
	z := x[2 : 2+len(m.y)]
	gz := grad[2 : 2+len(m.y)]

	// Priors, and the log-Jacobian u of tau = exp(u).
	lp := m.logNorm - mu*mu/50 - math.Log1p(tau*tau/25) + u
	gmu := -mu / 25
	gtau := -2 * tau / (25 + tau*tau)
	gu := 1.0
	for j, zj := range z {
		r := (m.y[j] - mu - tau*zj) * m.invSigma[j] // standardised residual
		lp -= 0.5 * (zj*zj + r*r)
		rs := r * m.invSigma[j]
		gmu += rs
		gtau += rs * zj
		gz[j] = rs*tau - zj
	}
	grad[0] = gmu
	grad[1] = gtau*tau + gu
	return lp
}

// eightSchoolsCentered: x = [mu, log tau, theta[1..J]],
// theta[j] ~ Normal(mu, tau), y[j] ~ Normal(theta[j], sigma[j]).
func newEightSchoolsCentered(c *posteriordb.Case) (*Model, error) {
	y, sigma, err := eightSchoolsData(c)
	if err != nil {
		return nil, err
	}
	J := len(y)
	bs, dim := layout(spec("mu", 1, Identity), spec("tau", 1, Positive), spec("theta", J, Identity))
	return &Model{Dim: dim, Blocks: bs, LogDensity: func(x []float64) float64 {
		mu := x[0]
		tau, lp := positive(x[1])
		lp += normalLPDF(mu, 0, 5) + halfCauchyLPDF(tau, 5)
		for j, th := range x[2 : 2+J] {
			lp += normalLPDF(th, mu, tau) + normalLPDF(y[j], th, sigma[j])
		}
		return lp
	}}, nil
}
