// Package datasets simulates the data of the tutorials and benchmarks,
// compiled: a notebook cell's own loops are interpreted, about a hundred
// times slower, which matters at 10⁸ values.
package datasets

import (
	"math"
	"math/rand/v2"
)

// Logistic simulates a logistic regression with rows observations and
// preds predictors from seed:
//
//	X[i,j] ~ Normal(0, 1),  beta[j] ~ Normal(0, 1) · 2/√preds
//	y[i] ~ Bernoulli(logistic(X[i,:] · beta))
//
// so that the linear predictor has standard deviation about 2. It returns
// the rows of X, the 0/1 outcomes and the true coefficients.
func Logistic(rows, preds int, seed uint64) (X [][]float64, y []float64, beta []float64) {
	rng := rand.New(rand.NewPCG(seed, 0x6c6f6769737469))
	beta = make([]float64, preds)
	for j := range beta {
		beta[j] = rng.NormFloat64() * 2 / math.Sqrt(float64(preds))
	}
	X = make([][]float64, rows)
	y = make([]float64, rows)
	// One backing array: 10⁶ rows are one allocation, not a million.
	all := make([]float64, rows*preds)
	for i := range X {
		row := all[i*preds : (i+1)*preds : (i+1)*preds]
		eta := 0.0
		for j := range row {
			row[j] = rng.NormFloat64()
			eta += row[j] * beta[j]
		}
		X[i] = row
		if rng.Float64() < 1/(1+math.Exp(-eta)) {
			y[i] = 1
		}
	}
	return X, y, beta
}
