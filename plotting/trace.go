package plotting

import (
	"fmt"
	"strings"
)

// traceLimit is how many columns Trace shows when no variable is named.
const traceLimit = 10

// Trace draws, for every selected scalar, the density of each chain
// beside the trace of each chain (value by draw), one colour per chain.
// Divergent transitions are ticks under the trace (at their draw) and
// under the density (at their value).
//
//	plotting.Trace(fit, "mu", "tau", plotting.Chains(1, 2))
func Trace(fit any, args ...any) *Figure {
	sel, set, err := prepare("Trace", fit, args, traceLimit)
	if err != nil {
		return errorFigure("Trace", err)
	}
	sel.capChains(set)
	rows := len(sel.columns)
	rowHeight := 170
	if rows > 4 {
		rowHeight = 140
	}
	f := newFigure("Trace", set, rows, 2, 800, max(300, 60+rowHeight*rows))
	f.colWeights = []float64{1, 2}
	f.note = sel.note
	ndiv := 0
	for _, c := range sel.chains {
		ndiv += len(sel.divergent(c))
	}
	for r, col := range sel.columns {
		name := sel.name(col)
		xlabel, drawLabel := name, "draw"
		dens := f.panel(r, 0, name, xlabel, "density")
		tr := f.panel(r, 1, name, drawLabel, name)
		var divX, divY []float64
		for _, c := range sel.chains {
			v := sel.values(c, col)
			d := kde(v)
			sty := f.sty.lineStyle(withAlpha(chainColor(c), 230))
			dens.add("line", chainLabel(c), len(d.X), xyLine(d.X, d.Y, sty))
			x := make([]float64, len(v))
			for i := range x {
				x[i] = float64(i)
			}
			sty.Width *= 0.7
			tr.add("line", chainLabel(c), len(v), xyLine(x, v, sty))
			for _, i := range sel.divergent(c) {
				if i < len(v) {
					divX = append(divX, float64(i))
					divY = append(divY, v[i])
				}
			}
		}
		if len(divX) > 0 {
			tr.add("ticks", "divergent", len(divX), rug{xs: divX, color: tickColor, size: 6})
			dens.add("ticks", "divergent", len(divY), rug{xs: divY, color: tickColor, size: 6})
		}
		tr.p.Y.Label.Text = ""
		tr.desc.YLabel = ""
		if r < rows-1 {
			dens.p.X.Label.Text, dens.desc.XLabel = "", ""
			tr.p.X.Label.Text, tr.desc.XLabel = "", ""
		}
	}
	for _, c := range sel.chains {
		f.addLegend(chainLabel(c), "line", chainColor(c))
	}
	if ndiv > 0 {
		f.addLegend(fmt.Sprintf("divergent (%d)", ndiv), "ticks", tickColor)
	}
	f.title = set.Title
	if f.title == "" {
		f.title = "Trace of " + columnList(sel)
	}
	return f
}

// columnList names the selected columns for a title, shortened.
func columnList(sel selection) string {
	var names []string
	for _, col := range sel.columns {
		names = append(names, sel.name(col))
	}
	if len(names) > 6 {
		return strings.Join(names[:5], ", ") + fmt.Sprintf(", … (%d in all)", len(names))
	}
	return strings.Join(names, ", ")
}
