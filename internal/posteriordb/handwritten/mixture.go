package handwritten

import (
	"math"

	"github.com/gobayes/gobayes/internal/posteriordb"
)

// low_dim_gauss_mix: x = [mu (ordered, 2 slots), log sigma[1..2],
// logit theta]; sigma ~ HalfNormal(2), mu ~ Normal(0, 2), theta ~ Beta(5, 5),
// p(y[n]) = theta·Normal(y[n] | mu[1], sigma[1]) + (1-theta)·Normal(y[n] | mu[2], sigma[2]).
func newGaussMix(c *posteriordb.Case) (*Model, error) {
	y, err := c.Floats("y")
	if err != nil {
		return nil, err
	}
	bs, dim := layout(spec("mu", 2, Ordered), spec("sigma", 2, Positive), spec("theta", 1, UnitInterval))
	return &Model{Dim: dim, Blocks: bs, LogDensity: func(x []float64) float64 {
		var mu [2]float64
		lp := ordered(x[0:2], mu[:])
		s1, lj1 := positive(x[2])
		s2, lj2 := positive(x[3])
		theta, lj3 := interval(x[4], 0, 1)
		lp += lj1 + lj2 + lj3
		lp += halfNormalLPDF(s1, 2) + halfNormalLPDF(s2, 2)
		lp += normalLPDF(mu[0], 0, 2) + normalLPDF(mu[1], 0, 2)
		lp += betaLPDF(theta, 5, 5)
		lt, l1t := math.Log(theta), math.Log1p(-theta)
		for _, yn := range y {
			lp += logSumExp2(lt+normalLPDF(yn, mu[0], s1), l1t+normalLPDF(yn, mu[1], s2))
		}
		return lp
	}}, nil
}
