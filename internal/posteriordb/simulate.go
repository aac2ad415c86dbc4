package posteriordb

import (
	"math"
	"math/rand/v2"
)

// LogisticName names the simulated logistic regression case, which is not
// a reference posterior (it has no Reference) but a benchmark of large data.
const LogisticName = "logistic_regression"

// SimulatedLogistic simulates the data of a logistic regression with n
// observations and d predictors from the seed:
//
//	X[i,j] ~ Normal(0, 1),  beta_true[j] ~ Normal(0, 1) * 2/sqrt(d)
//	y[i] ~ Bernoulli(logistic(X[i,:] . beta_true))
//
// so that the linear predictor has standard deviation about 2. Its model
// (see Model) is beta[j] ~ Normal(0, 1), y ~ BernoulliLogit(X beta). The
// data fields are N, D, X (rows) and y (0/1).
func SimulatedLogistic(n, d int, seed uint64) *Case {
	rng := rand.New(rand.NewPCG(seed, 0x6c6f6769737469))
	beta := make([]float64, d)
	for j := range beta {
		beta[j] = rng.NormFloat64() * 2 / math.Sqrt(float64(d))
	}
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		row := make([]float64, d)
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
	return &Case{
		Name: LogisticName,
		Data: map[string]any{"N": float64(n), "D": float64(d), "X": X, "y": y},
	}
}
