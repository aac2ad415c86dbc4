package plotting

import (
	"fmt"
	"sort"

	"gonum.org/v1/plot/vg/draw"

	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/vi"
)

// ELBO draws the history of a variational fit's evidence lower bound:
// the whole run, with a running mean, and — for histories of 50 values
// or more — the last half on its own scale, where convergence (a flat,
// noisy band) shows. The history is a *vi.Result or a []float64 with one
// value per iteration. Of a *vi.Result it draws the ELBO of every
// iteration (ELBOTrace, one noisy estimate each) with its running mean,
// and the precise estimates the convergence test read (ELBO, at
// ELBOIter) as points.
//
//	fit := m.ADVI()
//	plotting.ELBO(fit)
func ELBO(history any, args ...any) *Figure {
	_, set, err := parseArgs("ELBO", args)
	if err != nil {
		return errorFigure("ELBO", err)
	}
	var values []float64
	var iters []int
	var res *vi.Result
	switch h := history.(type) {
	case []float64:
		values = h
	case *vi.Result:
		if h == nil {
			return errorFigure("ELBO", fmt.Errorf("plotting: ELBO got a nil *vi.Result; pass the result of m.ADVI()"))
		}
		res = h
	case vi.Result:
		res = &h
	default:
		return errorFigure("ELBO", fmt.Errorf("plotting: ELBO got a %T; pass the result of m.ADVI() or a []float64 of ELBO values, one per iteration", history))
	}
	// A result's evaluations, drawn as points over its per-iteration trace.
	var evalIt, evalV []float64
	if res != nil {
		values, iters = res.ELBO, res.ELBOIter
		if len(res.ELBOTrace) > 0 && len(res.ELBOIter) == len(res.ELBO) {
			for i, x := range res.ELBO {
				if finite(x) {
					evalIt, evalV = append(evalIt, float64(res.ELBOIter[i])), append(evalV, x)
				}
			}
			values, iters = res.ELBOTrace, nil
		}
	}
	var it, v []float64
	for i, x := range values {
		if finite(x) {
			at := float64(i + 1)
			if len(iters) == len(values) {
				at = float64(iters[i])
			}
			it, v = append(it, at), append(v, x)
		}
	}
	total := len(values)
	if len(iters) > 0 && len(iters) == len(values) {
		total = iters[len(iters)-1]
	}
	if len(v) == 0 {
		return errorFigure("ELBO", fmt.Errorf("plotting: ELBO got a history of %d values and none is finite; pass the result of m.ADVI() or the ELBO of every iteration", len(values)))
	}
	cols := 1
	if len(v) >= 50 {
		cols = 2
	}
	f := newFigure("ELBO", set, 1, cols, 800, 360)
	window := max(1, len(v)/50)
	mean := runningMean(v, window)
	raw := draw.LineStyle{Color: withAlpha(oiBlue, 150), Width: 0.7}
	smooth := draw.LineStyle{Color: oiOrange, Width: 1.8}
	all := f.panel(0, 0, "all iterations", "iteration", "ELBO")
	if len(v) < 50 {
		// A short history (ADVI records the ELBO every 100 iterations):
		// its points, joined, and no smoothing.
		raw = draw.LineStyle{Color: oiBlue, Width: 1.5}
		all.add("line", "ELBO", len(v), xyLine(it, v, raw), points(it, v, draw.GlyphStyle{Color: oiBlue, Radius: 3, Shape: draw.CircleGlyph{}}))
	} else {
		all.add("line", "ELBO", len(v), xyLine(it, v, raw))
		all.add("line", "running mean", len(mean), xyLine(it, mean, smooth))
	}
	evalStyle := draw.GlyphStyle{Color: oiBlack, Radius: 2.5, Shape: draw.CircleGlyph{}}
	if len(evalV) > 0 {
		all.add("points", "evaluations", len(evalV), points(evalIt, evalV, evalStyle))
	}
	// Early iterations can be orders of magnitude below the rest: clip
	// the view to the last 90%.
	if lo, hi, ok := elboView(v[len(v)/10:]); ok {
		all.p.Y.Min, all.p.Y.Max = lo, hi
	}
	if len(evalV) > 0 {
		f.addLegend("ELBO, one draw per iteration", "line", oiBlue)
	} else {
		f.addLegend("ELBO", "line", oiBlue)
	}
	if cols == 2 {
		f.addLegend(fmt.Sprintf("running mean (%d iterations)", window), "line", oiOrange)
		h := len(v) / 2
		tail := f.panel(0, 1, "last half", "iteration", "")
		tail.add("line", "ELBO", len(v)-h, xyLine(it[h:], v[h:], raw))
		tail.add("line", "running mean", len(v)-h, xyLine(it[h:], mean[h:], smooth))
		if lo, hi, ok := elboView(v[h:]); ok {
			tail.p.Y.Min, tail.p.Y.Max = lo, hi
		}
		var ti, tv []float64
		for i, x := range evalIt {
			if x >= it[h] {
				ti, tv = append(ti, x), append(tv, evalV[i])
			}
		}
		if len(tv) > 0 {
			tail.add("points", "evaluations", len(tv), points(ti, tv, evalStyle))
		}
	}
	if len(evalV) > 0 {
		f.addLegend(fmt.Sprintf("ELBO every %d iterations (convergence test)", res.ELBOIter[0]), "points", oiBlack)
	}
	last := v[len(v)-1]
	if len(evalV) > 0 {
		last = evalV[len(evalV)-1]
	}
	f.title = set.Title
	if f.title == "" {
		f.title = fmt.Sprintf("ELBO over %d iterations (last: %s)", total, num(last))
	}
	return f
}

// elboView is the y range that shows values v: from their 1% quantile
// (one-draw ELBO estimates have a long lower tail, which would squeeze
// the band where convergence shows) to their maximum, padded by 5%; ok is
// false when that range is empty.
func elboView(v []float64) (lo, hi float64, ok bool) {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0, 0, false
	}
	lo, hi = s[0], s[len(s)-1]
	if len(s) >= 100 {
		lo = diag.Quantile(s, 0.01)
	}
	if !(lo < hi) {
		return 0, 0, false
	}
	pad := 0.05 * (hi - lo)
	return lo - pad, hi + pad, true
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
