package diag

import "math"

// Quantile is the q-quantile of sorted data with linear interpolation
// between order statistics (NumPy's default, R's type 7).
func Quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := q * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// HDI is the narrowest interval holding a fraction prob of the sorted
// draws (ArviZ's hdi for unimodal distributions).
func HDI(sorted []float64, prob float64) (lo, hi float64) {
	n := len(sorted)
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	inc := int(math.Floor(prob * float64(n)))
	nIntervals := n - inc
	if inc == 0 || nIntervals <= 0 {
		return sorted[0], sorted[n-1]
	}
	best := 0
	width := math.Inf(1)
	for i := 0; i < nIntervals; i++ {
		if w := sorted[i+inc] - sorted[i]; w < width {
			width, best = w, i
		}
	}
	return sorted[best], sorted[best+inc]
}

// EBFMI is the energy Bayesian fraction of missing information of one
// chain: the mean squared change of the energy between draws over the
// energy's variance (Betancourt 2016). Values below 0.3 mean the momentum
// resampling explores the energy distribution poorly.
func EBFMI(energy []float64) float64 {
	n := len(energy)
	if n < 2 {
		return math.NaN()
	}
	num := 0.0
	for i := 1; i < n; i++ {
		d := energy[i] - energy[i-1]
		num += d * d
	}
	num /= float64(n - 1)
	mean := 0.0
	for _, e := range energy {
		mean += e
	}
	mean /= float64(n)
	den := 0.0
	for _, e := range energy {
		den += (e - mean) * (e - mean)
	}
	den /= float64(n)
	return num / den
}
