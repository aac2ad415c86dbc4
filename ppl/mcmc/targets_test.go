package mcmc

import (
	"math"
	"math/rand/v2"
)

// stdNormal is the log density of Normal(0, I) in len(x) dimensions.
func stdNormal(x, g []float64) float64 {
	lp := 0.0
	for i, v := range x {
		lp -= 0.5 * v * v
		g[i] = -v
	}
	return lp
}

// gaussian returns the log density of Normal(0, cov) for a 2-d covariance
// with standard deviations s1, s2 and correlation r.
func gaussian(s1, s2, r float64) LogDensity {
	// Precision matrix of [[s1², r s1 s2], [r s1 s2, s2²]].
	det := s1 * s1 * s2 * s2 * (1 - r*r)
	a, b, c := s2*s2/det, -r*s1*s2/det, s1*s1/det
	return func(x, g []float64) float64 {
		g[0] = -(a*x[0] + b*x[1])
		g[1] = -(b*x[0] + c*x[1])
		return 0.5 * (x[0]*g[0] + x[1]*g[1])
	}
}

// funnel is Neal's funnel: v ~ Normal(0, 3), x_i ~ Normal(0, exp(v/2)).
func funnel(x, g []float64) float64 {
	v := x[0]
	lp := -v * v / 18
	g[0] = -v / 9
	n := float64(len(x) - 1)
	e := math.Exp(-v)
	for i := 1; i < len(x); i++ {
		lp -= 0.5 * x[i] * x[i] * e
		g[i] = -x[i] * e
		g[0] += 0.5 * x[i] * x[i] * e
	}
	lp -= 0.5 * n * v
	g[0] -= 0.5 * n
	return lp
}

// batchMeans returns the mean of xs and its Monte Carlo standard error by
// the method of 40 non-overlapping batch means (an estimator independent of
// package diag, so these tests do not lean on it).
func batchMeans(xs []float64) (mean, mcse float64) {
	const nb = 40
	size := len(xs) / nb
	var means [nb]float64
	for b := 0; b < nb; b++ {
		s := 0.0
		for _, x := range xs[b*size : (b+1)*size] {
			s += x
		}
		means[b] = s / float64(size)
		mean += means[b] / nb
	}
	v := 0.0
	for _, m := range means {
		v += (m - mean) * (m - mean)
	}
	return mean, math.Sqrt(v / (nb - 1) / nb)
}

func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 7)) }
