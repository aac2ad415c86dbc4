package posteriordb

import "github.com/gobayes/gobayes/ppl/datasets"

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
	X, y, _ := datasets.Logistic(n, d, seed)
	return &Case{
		Name: LogisticName,
		Data: map[string]any{"N": float64(n), "D": float64(d), "X": X, "y": y},
	}
}
