package diag

import (
	"math"
	"sort"
)

// ESS is the effective sample size of the chains as given (no splitting),
// from the autocorrelations combined across chains and truncated by Geyer's
// initial monotone sequence, as Stan and ArviZ compute it.
func ESS(chains [][]float64) float64 {
	m := len(chains)
	if m == 0 || len(chains[0]) < 4 || !allFinite(chains) {
		return math.NaN()
	}
	n := len(chains[0])
	means := make([]float64, m)
	for i, c := range chains {
		means[i], _ = meanVar(c)
	}
	// acov(t) averaged over chains, with the biased (divide by n)
	// estimator, computed lazily: Geyer's sequence usually stops early.
	acov := func(t int) float64 {
		s := 0.0
		for i, c := range chains {
			mu := means[i]
			a := 0.0
			for k := 0; k+t < n; k++ {
				a += (c[k] - mu) * (c[k+t] - mu)
			}
			s += a / float64(n)
		}
		return s / float64(m)
	}
	// Geyer's initial positive and monotone sequences: essWork.geyer,
	// which the summary's fast path shares.
	return new(essWork).geyer(m, n, means, acov)
}

// ESSMean is the effective sample size for the mean: ESS of the split
// chains.
func ESSMean(chains [][]float64) float64 { return ESS(Split(chains)) }

// ESSBulk is the bulk effective sample size: ESS of the rank-normalised
// split chains.
func ESSBulk(chains [][]float64) float64 {
	if len(chains) == 0 || len(chains[0]) < 4 || !allFinite(chains) {
		return math.NaN()
	}
	return ESS(RankNormalise(Split(chains)))
}

// ESSTail is the tail effective sample size: the smaller of the ESS of the
// indicators x ≤ q05 and x ≤ q95 on the split chains.
func ESSTail(chains [][]float64) float64 {
	a, b := ESSQuantile(chains, 0.05), ESSQuantile(chains, 0.95)
	return math.Min(a, b)
}

// ESSQuantile is the effective sample size for the q-quantile: ESS of the
// indicator x ≤ quantile on the split chains.
func ESSQuantile(chains [][]float64, q float64) float64 {
	if len(chains) == 0 || len(chains[0]) < 4 || !allFinite(chains) {
		return math.NaN()
	}
	flat := Flatten(chains)
	sort.Float64s(flat)
	qv := Quantile(flat, q)
	ind := make([][]float64, len(chains))
	for i, c := range chains {
		ind[i] = make([]float64, len(c))
		for j, v := range c {
			if v <= qv {
				ind[i][j] = 1
			}
		}
	}
	return ESS(Split(ind))
}

// ESSSD is the effective sample size for the standard deviation: the
// smaller of the ESS of x and of x² on the split chains (ArviZ's rule).
func ESSSD(chains [][]float64) float64 {
	sq := make([][]float64, len(chains))
	for i, c := range chains {
		sq[i] = make([]float64, len(c))
		for j, v := range c {
			sq[i][j] = v * v
		}
	}
	return math.Min(ESSMean(chains), ESSMean(sq))
}

// MCSEMean is the Monte Carlo standard error of the mean: sd/sqrt(ESSMean).
func MCSEMean(chains [][]float64) float64 {
	_, v := meanVar(Flatten(chains))
	return math.Sqrt(v / ESSMean(chains))
}

// MCSESD is the Monte Carlo standard error of the standard deviation, by
// ArviZ's approximation sd·sqrt(e·(1-1/ESS)^(ESS-1) - 1) with ESS = ESSSD.
func MCSESD(chains [][]float64) float64 {
	_, v := meanVar(Flatten(chains))
	ess := ESSSD(chains)
	return math.Sqrt(v) * math.Sqrt(math.E*math.Pow(1-1/ess, ess-1)-1)
}
