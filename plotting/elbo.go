package plotting

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/vg/draw"
)

// ELBO draws the history of a variational fit's evidence lower bound,
// one value per iteration: the whole run, with a running mean, and —
// for runs of 40 iterations or more — the last half on its own scale,
// where convergence (a flat, noisy band) shows.
//
//	plotting.ELBO(vi.History)
func ELBO(history []float64, args ...any) *Figure {
	_, set, err := parseArgs("ELBO", args)
	if err != nil {
		return errorFigure("ELBO", err)
	}
	var it, v []float64
	for i, x := range history {
		if finite(x) {
			it, v = append(it, float64(i+1)), append(v, x)
		}
	}
	if len(v) == 0 {
		return errorFigure("ELBO", fmt.Errorf("plotting: ELBO got a history of %d values and none is finite; pass the ELBO of every iteration of a variational fit", len(history)))
	}
	cols := 1
	if len(v) >= 40 {
		cols = 2
	}
	f := newFigure("ELBO", set, 1, cols, 800, 360)
	window := max(1, len(v)/50)
	mean := runningMean(v, window)
	raw := draw.LineStyle{Color: withAlpha(oiBlue, 150), Width: 0.7}
	smooth := draw.LineStyle{Color: oiOrange, Width: 1.8}
	all := f.panel(0, 0, "all iterations", "iteration", "ELBO")
	all.add("line", "ELBO", len(v), xyLine(it, v, raw))
	all.add("line", "running mean", len(mean), xyLine(it, mean, smooth))
	// Early iterations can be orders of magnitude below the rest: clip
	// the view to the range of the last 90%.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range v[len(v)/10:] {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	if lo < hi {
		pad := 0.05 * (hi - lo)
		all.p.Y.Min, all.p.Y.Max = lo-pad, hi+pad
	}
	if cols == 2 {
		h := len(v) / 2
		tail := f.panel(0, 1, "last half", "iteration", "")
		tail.add("line", "ELBO", len(v)-h, xyLine(it[h:], v[h:], raw))
		tail.add("line", "running mean", len(v)-h, xyLine(it[h:], mean[h:], smooth))
	}
	f.addLegend("ELBO", "line", oiBlue)
	f.addLegend(fmt.Sprintf("running mean (%d iterations)", window), "line", oiOrange)
	f.title = set.Title
	if f.title == "" {
		f.title = fmt.Sprintf("ELBO over %d iterations (last: %s)", len(history), num(v[len(v)-1]))
	}
	return f
}

// runningMean is the mean of the window values ending at each index.
func runningMean(v []float64, window int) []float64 {
	out := make([]float64, len(v))
	s := 0.0
	for i, x := range v {
		s += x
		if i >= window {
			s -= v[i-window]
		}
		out[i] = s / float64(min(i+1, window))
	}
	return out
}
