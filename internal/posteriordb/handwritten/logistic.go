package handwritten

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/gobayes/gobayes/internal/posteriordb"
)

// LogisticRegression is beta[d] ~ Normal(0, 1), y[n] ~ Bernoulli(logistic(X[n,:]·beta))
// at x = beta.
type LogisticRegression struct {
	X    []float64 // N×D, row-major
	Y    []float64 // 0 or 1
	N, D int
}

// NewLogisticRegression returns the regression of y on the rows of X.
func NewLogisticRegression(X [][]float64, y []float64) (*LogisticRegression, error) {
	if len(X) != len(y) || len(X) == 0 {
		return nil, fmt.Errorf("%d rows of X, %d values of y", len(X), len(y))
	}
	m := &LogisticRegression{Y: y, N: len(y), D: len(X[0])}
	m.X = make([]float64, 0, m.N*m.D)
	for _, r := range X {
		m.X = append(m.X, r...)
	}
	return m, nil
}

// LogDensityGrad returns the log density at x and writes its gradient.
func (m *LogisticRegression) LogDensityGrad(beta, grad []float64) float64 {
	D := m.D
	beta, grad = beta[:D], grad[:D]
	lp := 0.0
	for d, b := range beta {
		lp -= 0.5 * b * b
		grad[d] = -b
	}
	lp -= float64(D) * logSqrt2Pi
	for n, yn := range m.Y {
		row := m.X[n*D : n*D+D]
		eta := floats.Dot(row, beta)
		// log p(y | eta) = y·eta - log(1+exp(eta)); its derivative is
		// y - logistic(eta). One exp serves both.
		e := math.Exp(-math.Abs(eta))
		var p float64 // logistic(eta)
		if eta >= 0 {
			lp += yn*eta - eta - math.Log1p(e)
			p = 1 / (1 + e)
		} else {
			lp += yn*eta - math.Log1p(e)
			p = e / (1 + e)
		}
		floats.AddScaled(grad, yn-p, row)
	}
	return lp
}

func newLogistic(c *posteriordb.Case) (*Model, error) {
	X, err := c.Matrix("X")
	if err != nil {
		return nil, err
	}
	y, err := c.Floats("y")
	if err != nil {
		return nil, err
	}
	m, err := NewLogisticRegression(X, y)
	if err != nil {
		return nil, err
	}
	return withGrad(m, spec("beta", m.D, Identity)), nil
}
