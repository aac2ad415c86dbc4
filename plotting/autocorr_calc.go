package plotting

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// autocorr returns the autocorrelation of x at lags 0 … maxLag.
func autocorr(x []float64, maxLag int) []float64 {
	n := len(x)
	if maxLag >= n {
		maxLag = n - 1
	}
	mu := stat.Mean(x, nil)
	out := make([]float64, maxLag+1)
	for t := 0; t <= maxLag; t++ {
		s := 0.0
		for i := 0; i+t < n; i++ {
			s += (x[i] - mu) * (x[i+t] - mu)
		}
		out[t] = s
	}
	if out[0] == 0 {
		for t := range out {
			out[t] = nan()
		}
		return out
	}
	for t := len(out) - 1; t >= 0; t-- {
		out[t] /= out[0]
	}
	return out
}

func nan() float64 { return math.NaN() }
