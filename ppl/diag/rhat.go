package diag

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// Split cuts every chain in two halves of n/2 draws (the middle draw of an
// odd-length chain is dropped, as ArviZ does).
func Split(chains [][]float64) [][]float64 {
	out := make([][]float64, 0, 2*len(chains))
	for _, c := range chains {
		h := len(c) / 2
		out = append(out, c[:h], c[len(c)-h:])
	}
	return out
}

// Flatten concatenates the chains.
func Flatten(chains [][]float64) []float64 {
	n := 0
	for _, c := range chains {
		n += len(c)
	}
	out := make([]float64, 0, n)
	for _, c := range chains {
		out = append(out, c...)
	}
	return out
}

// RankNormalise replaces every draw by the normal quantile of its pooled
// fractional rank, Φ⁻¹((r - 3/8)/(S + 1/4)), with ties given their average
// rank (Vehtari et al. 2021, eq. 14).
func RankNormalise(chains [][]float64) [][]float64 {
	flat := Flatten(chains)
	s := len(flat)
	idx := make([]int, s)
	for i := range idx {
		idx[i] = i
	}
	// Ties get the average of their ranks below, so the sort need not be
	// stable (a stable sort costs twice as much here).
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(flat[a], flat[b]) })
	rank := make([]float64, s)
	for i := 0; i < s; {
		j := i
		for j+1 < s && flat[idx[j+1]] == flat[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			rank[idx[k]] = avg
		}
		i = j + 1
	}
	norm := distuv.UnitNormal
	out := make([][]float64, len(chains))
	k := 0
	for c, ch := range chains {
		out[c] = make([]float64, len(ch))
		for d := range ch {
			out[c][d] = norm.Quantile((rank[k] - 0.375) / (float64(s) + 0.25))
			k++
		}
	}
	return out
}

// RhatBasic is the Gelman–Rubin potential scale reduction of the chains as
// given (no splitting, no ranks): sqrt(((n-1)/n·W + B/n)/W).
func RhatBasic(chains [][]float64) float64 {
	m := len(chains)
	if m < 2 || len(chains[0]) < 2 {
		return math.NaN()
	}
	n := float64(len(chains[0]))
	means := make([]float64, m)
	w := 0.0
	for i, c := range chains {
		mu, v := meanVar(c)
		means[i] = mu
		w += v / float64(m)
	}
	_, vm := meanVar(means)
	b := n * vm
	if w == 0 {
		if b == 0 {
			return 1
		}
		return math.Inf(1)
	}
	return math.Sqrt(((n-1)/n*w + b/n) / w)
}

// Rhat is the rank-normalised split R-hat: the larger of the split R-hat of
// the rank-normalised draws (bulk) and of the rank-normalised draws folded
// about the median (tail). Chains need at least 4 draws.
func Rhat(chains [][]float64) float64 {
	if len(chains) == 0 || len(chains[0]) < 4 || !allFinite(chains) {
		return math.NaN()
	}
	split := Split(chains)
	bulk := RhatBasic(RankNormalise(split))
	tail := RhatBasic(RankNormalise(fold(split)))
	return math.Max(bulk, tail)
}

// fold returns |x - median(x)| with the median over all draws.
func fold(chains [][]float64) [][]float64 {
	flat := Flatten(chains)
	sort.Float64s(flat)
	med := Quantile(flat, 0.5)
	out := make([][]float64, len(chains))
	for i, c := range chains {
		out[i] = make([]float64, len(c))
		for j, v := range c {
			out[i][j] = math.Abs(v - med)
		}
	}
	return out
}

func meanVar(x []float64) (mean, variance float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		variance += (v - mean) * (v - mean)
	}
	return mean, variance / float64(len(x)-1)
}

func allFinite(chains [][]float64) bool {
	for _, c := range chains {
		for _, v := range c {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}
