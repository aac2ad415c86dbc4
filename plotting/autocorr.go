package plotting

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot/vg/draw"
)

// autocorrLimit is how many columns Autocorr shows when none is named.
const autocorrLimit = 12

// Autocorr draws the autocorrelation of every selected scalar at lags 0
// to MaxLag (default 100), one line per chain, with the band ±1.96/√n
// within which white noise's autocorrelations fall 95% of the time.
// Autocorrelation that dies out within a few lags means the chain mixes
// well; a slow decay means few effective draws.
//
//	plotting.Autocorr(fit, "tau", plotting.MaxLag(50))
func Autocorr(fit any, args ...any) *Figure {
	sel, set, err := prepare("Autocorr", fit, args, autocorrLimit)
	if err != nil {
		return errorFigure("Autocorr", err)
	}
	sel.capChains(set)
	maxLag := set.MaxLag
	if maxLag == 0 {
		maxLag = 100
	}
	n := sel.fit.Draws()
	if maxLag > n-1 {
		maxLag = n - 1
	}
	rows, cols := gridShape(len(sel.columns), 3)
	f := newFigure("Autocorr", set, rows, cols, 800, 70+210*rows)
	if len(sel.columns) == 1 && set.Width == 0 {
		f.sizeFrom(set, 600, 340)
	}
	f.note = sel.note
	white := 1.96 / math.Sqrt(float64(n))
	for i, col := range sel.columns {
		pn := f.panel(i/cols, i%cols, sel.name(col), "lag", "autocorrelation")
		pn.add("band", "white noise 95%", 2, hband{y0: -white, y1: white, color: color8(0xE8)})
		pn.add("rule", "zero", 1, hrule{y: 0, style: draw.LineStyle{Color: noteColor, Width: 0.6}})
		lo := 0.0
		for _, c := range sel.chains {
			ac := autocorr(sel.values(c, col), maxLag)
			lags := make([]float64, len(ac))
			for t := range lags {
				lags[t] = float64(t)
				if ac[t] < lo {
					lo = ac[t]
				}
			}
			pn.add("line", chainLabel(c), len(ac), xyLine(lags, ac, f.sty.lineStyle(withAlpha(chainColor(c), 230))))
		}
		pn.p.Y.Min, pn.p.Y.Max = math.Min(-0.25, lo-0.05), 1.02
		pn.p.X.Min, pn.p.X.Max = 0, float64(maxLag)
		if i%cols != 0 {
			pn.p.Y.Label.Text, pn.desc.YLabel = "", ""
		}
	}
	for _, c := range sel.chains {
		f.addLegend(chainLabel(c), "line", chainColor(c))
	}
	f.addLegend("white noise ± 95%", "band", color8(0xD8))
	f.title = set.Title
	if f.title == "" {
		f.title = "Autocorrelation of " + columnList(sel)
	}
	return f
}

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
			out[t] = math.NaN()
		}
		return out
	}
	for t := len(out) - 1; t >= 0; t-- {
		out[t] /= out[0]
	}
	return out
}
