package plotting

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
)

// kdeGrid is the number of points a density is evaluated at.
const kdeGrid = 256

// density is a kernel density estimate on an even grid.
type density struct {
	X, Y      []float64
	Bandwidth float64
	Lower     float64 // reflection boundaries; ±Inf when none
	Upper     float64
}

// silverman returns Silverman's rule-of-thumb bandwidth,
// 0.9·min(sd, IQR/1.34)·n^(-1/5) (Silverman, "Density Estimation", 1986,
// eq. 3.31), falling back to sd or IQR when the other is 0. sorted must be
// sorted.
func silverman(sorted []float64) float64 {
	n := float64(len(sorted))
	if n < 2 {
		return 1
	}
	sd := stat.StdDev(sorted, nil)
	iqr := stat.Quantile(0.75, stat.Empirical, sorted, nil) - stat.Quantile(0.25, stat.Empirical, sorted, nil)
	s := math.Min(sd, iqr/1.34)
	if s <= 0 {
		s = math.Max(sd, iqr/1.34)
	}
	if s <= 0 || math.IsNaN(s) {
		// A constant sample: a narrow bump around it.
		s = math.Max(math.Abs(sorted[0])*1e-3, 1e-3)
		return s
	}
	return 0.9 * s * math.Pow(n, -0.2)
}

// supportOf guesses the boundaries a sample lives within: 0 below a
// non-negative sample whose density would spill below 0, and 1 above a
// sample in [0, 1] whose density would spill above 1. Reflection at these
// boundaries keeps a positive scale's density from sagging to half its
// height at the edge.
func supportOf(sorted []float64, h float64) (lower, upper float64) {
	lower, upper = math.Inf(-1), math.Inf(1)
	lo, hi := sorted[0], sorted[len(sorted)-1]
	if lo >= 0 && lo < 3*h {
		lower = 0
	}
	if lo >= 0 && hi <= 1 && 1-hi < 3*h {
		upper = 1
	}
	return lower, upper
}

// kde estimates the density of xs with a Gaussian kernel, bandwidth by
// Silverman's rule, and reflection at the boundaries supportOf finds. It
// bins the sample linearly on the grid and convolves the bins with the
// kernel, O(n + grid·kernel width) rather than O(n·grid).
func kde(xs []float64) density {
	sorted := finiteSorted(xs)
	if len(sorted) == 0 {
		return density{}
	}
	h := silverman(sorted)
	lower, upper := supportOf(sorted, h)
	return kdeWith(sorted, h, lower, upper)
}

// kdeWith is kde with a given bandwidth and boundaries; sorted must be
// sorted and finite.
func kdeWith(sorted []float64, h, lower, upper float64) density {
	lo, hi := sorted[0]-3*h, sorted[len(sorted)-1]+3*h
	// Heavy tails (a Cauchy's) would spread the grid so thin that the
	// bulk falls in a few points: cover the central 99% instead; the far
	// draws still count in the normalisation.
	n := len(sorted)
	qlo, qhi := sorted[n/200], sorted[n-1-n/200]
	if sorted[n-1]-sorted[0] > 4*(qhi-qlo) && qhi > qlo {
		lo, hi = qlo-3*h, qhi+3*h
	}
	if !math.IsInf(lower, -1) {
		lo = lower
	}
	if !math.IsInf(upper, 1) {
		hi = upper
	}
	// At least a point and a half per bandwidth, up to 2048 points.
	m := kdeGrid
	if need := int(1.5 * (hi - lo) / h); need > m {
		m = min(need, 2048)
	}
	dx := (hi - lo) / float64(m-1)
	x := make([]float64, m)
	floats.Span(x, lo, hi)
	// The kernel reaches 4 bandwidths; the bins extend that far beyond the
	// grid on either side so reflected mass has somewhere to land.
	k := int(math.Ceil(4 * h / dx))
	if k > 4*m {
		k = 4 * m
	}
	ext := make([]float64, m+2*k)
	for _, v := range sorted {
		t := (v - lo) / dx
		i := int(math.Floor(t))
		w := t - float64(i)
		if i >= -k && i < m+k {
			ext[i+k] += 1 - w
		}
		if i+1 >= -k && i+1 < m+k {
			ext[i+1+k] += w
		}
	}
	// Reflection: mass at grid index j mirrors to -j (lower boundary at
	// index 0) and to 2(m-1)-j (upper boundary at index m-1).
	if !math.IsInf(lower, -1) || !math.IsInf(upper, 1) {
		orig := append([]float64(nil), ext...)
		for j := 0; j < m; j++ {
			if !math.IsInf(lower, -1) && j <= k {
				ext[k-j] += orig[k+j]
			}
			if !math.IsInf(upper, 1) && m-1-j <= k {
				ext[k+2*(m-1)-j] += orig[k+j]
			}
		}
	}
	kern := make([]float64, 2*k+1)
	norm := 1 / (float64(len(sorted)) * h * math.Sqrt(2*math.Pi))
	for i := -k; i <= k; i++ {
		u := float64(i) * dx / h
		kern[i+k] = norm * math.Exp(-0.5*u*u)
	}
	y := make([]float64, m)
	for i := 0; i < m; i++ {
		s := 0.0
		for j := -k; j <= k; j++ {
			s += ext[i+k+j] * kern[j+k]
		}
		y[i] = s
	}
	return density{X: x, Y: y, Bandwidth: h, Lower: lower, Upper: upper}
}

// finiteSorted returns the finite values of xs, sorted, in a new slice.
func finiteSorted(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, v := range xs {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			out = append(out, v)
		}
	}
	sort.Float64s(out)
	return out
}
