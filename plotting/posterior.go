package plotting

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gobayes/gobayes/ppl/diag"
)

// posteriorLimit is how many columns Posterior shows when none is named.
const posteriorLimit = 12

// Posterior draws the marginal posterior of every selected scalar, pooled
// over the selected chains: a kernel density (or a histogram with
// Histogram()), the highest-density interval shaded (Prob, default 94%),
// the mean (or the median with Median()) as a line, and, when given, a
// reference value (Ref) and a region of practical equivalence (ROPE) with
// the posterior probabilities below the reference and inside the ROPE in
// the panel's title.
//
//	plotting.Posterior(fit, "mu", "tau", plotting.Ref(0), plotting.ROPE(-1, 1))
func Posterior(fit any, args ...any) *Figure {
	sel, set, err := prepare("Posterior", fit, args, posteriorLimit)
	if err != nil {
		return errorFigure("Posterior", err)
	}
	rows, cols := gridShape(len(sel.columns), 3)
	extra := 0 // title lines beyond two: one for the reference and ROPE
	if len(set.Ref) > 0 || set.ROPE != nil {
		extra++
	}
	f := newFigure("Posterior", set, rows, cols, 800, 70+(230+16*extra)*rows)
	if len(sel.columns) == 1 && set.Width == 0 {
		f.sizeFrom(set, 600, 360)
	}
	f.note = sel.note
	for i, col := range sel.columns {
		pn := f.panel(i/cols, i%cols, sel.name(col), sel.name(col), "")
		distPanel(f, pn, sel.pooled(col), sel.name(col), set, i)
		if cols >= 3 && strings.Count(pn.p.Title.Text, "\n") >= 2 {
			// Three lines over a third of the width: a smaller face keeps
			// neighbouring titles apart.
			pn.p.Title.TextStyle.Font.Size = f.sty.title * 0.85
		}
	}
	f.title = set.Title
	if f.title == "" {
		f.title = "Posterior of " + columnList(sel)
	}
	return f
}

// distPanel draws one sample's density (or histogram), HDI, point
// estimate, reference and ROPE on a panel, and names the numbers in its
// title.
func distPanel(f *Figure, pn *panel, xs []float64, name string, set Settings, i int) {
	sorted := finiteSorted(xs)
	if len(sorted) == 0 {
		pn.p.Title.Text = name + "\n(no finite draws)"
		pn.desc.Title = pn.p.Title.Text
		return
	}
	prob := set.prob()
	lo, hi := diag.HDI(sorted, prob)
	hdiLabel := fmt.Sprintf("%s%% HDI", num(prob*100))
	lines := []string{name}
	point, pointName := stat.Mean(sorted, nil), "mean"
	if set.Median {
		point, pointName = diag.Quantile(sorted, 0.5), "median"
	}
	lines = append(lines, fmt.Sprintf("%s %s, %s [%s, %s]", pointName, num(point), hdiLabel, num(lo), num(hi)))
	if set.ROPE != nil {
		pn.add("band", "ROPE", 2, vband{x0: set.ROPE[0], x1: set.ROPE[1], color: ropeColor})
		f.addLegend(fmt.Sprintf("ROPE [%s, %s]", num(set.ROPE[0]), num(set.ROPE[1])), "band", ropeColor)
	}
	discrete := isIntegers(sorted) && sorted[len(sorted)-1]-sorted[0] <= 60
	if discrete {
		// Integer draws (a count, an index): the probability of each
		// value, not a smoothed density.
		lo0 := sorted[0]
		mass := make([]float64, int(sorted[len(sorted)-1]-lo0)+1)
		for _, v := range sorted {
			mass[int(v-lo0)]++
		}
		for k, m := range mass {
			if m > 0 {
				pn.p.Add(bar{x: lo0 + float64(k), y: m / float64(len(sorted)), width: 0.7, color: withAlpha(drawColor, 150)})
			}
		}
		pn.desc.Elements = append(pn.desc.Elements, Element{Kind: "bars", Label: "probability", N: len(mass)})
		pn.add("band", hdiLabel, 2, hdiBar{lo: lo, hi: hi, color: drawColor})
		pn.p.X.Tick.Marker = integerTicks{}
		pn.p.Y.Label.Text, pn.desc.YLabel = "probability", "probability"
	} else if set.Histogram {
		bins := set.Bins
		if bins == 0 {
			bins = histogramBins(len(sorted))
		}
		h, err := plotter.NewHist(plotter.Values(sorted), bins)
		if err == nil {
			h.Normalize(1)
			h.FillColor = withAlpha(drawColor, 90)
			h.LineStyle = draw.LineStyle{Color: withAlpha(drawColor, 200), Width: 0.5}
			pn.add("bars", "histogram", len(h.Bins), h)
		}
		pn.add("band", hdiLabel, 2, hdiBar{lo: lo, hi: hi, color: drawColor})
	} else {
		d := kde(sorted)
		pn.add("band", hdiLabel, 2, area{x: d.X, y: d.Y, x0: lo, x1: hi, color: hdiColor})
		pn.add("line", "density", len(d.X), xyLine(d.X, d.Y, draw.LineStyle{Color: drawColor, Width: f.sty.line * 1.3}))
	}
	if set.Histogram || discrete {
		f.addLegend(hdiLabel, "line", drawColor)
	} else {
		f.addLegend(hdiLabel, "band", hdiColor)
	}
	pn.add("rule", pointName, 1, vrule{x: point, style: draw.LineStyle{Color: oiBlack, Width: f.sty.line}})
	f.addLegend(pointName, "line", oiBlack)
	var probs []string // the reference's and the ROPE's shares, one title line
	if ref, ok := set.ref(i); ok {
		below := 0
		for _, v := range sorted {
			if v < ref {
				below++
			}
		}
		probs = append(probs, refShare(name, ref, below, len(sorted)))
		pn.add("rule", "reference", 1, vrule{x: ref, style: draw.LineStyle{Color: refColor, Width: f.sty.line, Dashes: []vg.Length{4, 3}}})
		f.addLegend("reference", "dashed", refColor)
	}
	if set.ROPE != nil {
		in := 0
		for _, v := range sorted {
			if v >= set.ROPE[0] && v <= set.ROPE[1] {
				in++
			}
		}
		share, _ := percentSplit(in, len(sorted))
		probs = append(probs, share+" in ROPE")
	}
	// Three lines at most, so that three panels a row keep room to draw:
	// the name, the point estimate and HDI, the reference and ROPE shares.
	if len(probs) > 0 {
		lines = append(lines, strings.Join(probs, ", "))
	}
	// Heavy tails: show the central 99% (and the HDI) rather than every
	// far draw.
	n := len(sorted)
	qlo, qhi := diag.Quantile(sorted, 0.005), diag.Quantile(sorted, 0.995)
	if sorted[n-1]-sorted[0] > 4*(qhi-qlo) && qhi > qlo {
		pad := 0.05 * (qhi - qlo)
		pn.p.X.Min, pn.p.X.Max = math.Min(qlo, lo)-pad, math.Max(qhi, hi)+pad
		pn.p.X.Label.Text = strings.TrimSpace(pn.p.X.Label.Text + " (central 99% shown)")
		pn.desc.XLabel = pn.p.X.Label.Text
	}
	pn.p.Title.Text = strings.Join(lines, "\n")
	pn.desc.Title = pn.p.Title.Text
	pn.p.Y.Min = 0
}

// percentSplit is k of n and the rest, n-k, as percentages with one
// decimal that add up to 100%: the rest is 100 minus the rounded share.
// A share that would round to 0.0% (or 100.0%) without being 0 (or all)
// is bounded instead: "<0.1%" against ">99.9%".
func percentSplit(k, n int) (share, rest string) {
	p := 100 * float64(k) / float64(n)
	switch {
	case k == 0:
		return "0%", "100%"
	case k == n:
		return "100%", "0%"
	case p < 0.05:
		return "<0.1%", ">99.9%"
	case p >= 99.95:
		return ">99.9%", "<0.1%"
	}
	r := math.Round(p*10) / 10
	return strconv.FormatFloat(r, 'f', 1, 64) + "%", strconv.FormatFloat(100-r, 'f', 1, 64) + "%"
}

// refShare says how the draws fall about a reference: "25.0% < 0 <
// 75.0%", ArviZ's form, when both shares have a digit to show; when one is
// too small for it, the probability below the reference with its bound,
// "P(T < 3.83) > 99.9%" (chaining the bounds, ">99.9% < 3.83 < <0.1%",
// reads as nonsense).
func refShare(name string, ref float64, below, n int) string {
	lo, hi := percentSplit(below, n)
	if lo[0] != '<' && lo[0] != '>' {
		return fmt.Sprintf("%s < %s < %s", lo, num(ref), hi)
	}
	return fmt.Sprintf("P(%s < %s) %s %s", name, num(ref), lo[:1], lo[1:])
}

// histogramBins is a bin count by the Rice rule, 2·n^(1/3), within 10–60.
func histogramBins(n int) int {
	b := int(2 * math.Cbrt(float64(n)))
	return max(10, min(60, b))
}

// hdiBar draws an interval as a thick bar along the bottom of a panel.
type hdiBar struct {
	lo, hi float64
	color  color.Color
}

// isIntegers is true when every value is a whole number.
func isIntegers(xs []float64) bool {
	for _, v := range xs {
		if v != math.Trunc(v) {
			return false
		}
	}
	return true
}
