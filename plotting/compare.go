package plotting

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gobayes/gobayes/ppl/diag"
)

// Compare draws a model comparison (diag.Compare) as ArviZ's
// plot_compare does: one row per model, best at the top; its elpd with
// ±1 SE (filled point, thick line), and for every model but the best its
// elpd difference from the best placed at its own elpd with ±1 SE of the
// difference (open point, thin grey line); a dashed line marks the best
// elpd. Overlapping difference bars mean the data cannot tell the models
// apart.
//
//	cmp, _ := diag.Compare([]string{"centred", "non-centred"}, []*diag.ModelCheck{c1, c2})
//	plotting.Compare(cmp)
func Compare(cmp *diag.Comparison, args ...any) *Figure {
	_, set, err := parseArgs("Compare", args)
	if err != nil {
		return errorFigure("Compare", err)
	}
	if cmp == nil || len(cmp.Rows) == 0 {
		return errorFigure("Compare", fmt.Errorf("plotting: Compare got no comparison; pass the result of diag.Compare"))
	}
	rows := len(cmp.Rows)
	f := newFigure("Compare", set, 1, 1, 720, 120+50*rows)
	pn := f.panel(0, 0, "", "elpd ("+cmp.Method+"), higher is better", "")
	var se, dse segments
	se.style = draw.LineStyle{Color: oiBlue, Width: 3}
	dse.style = draw.LineStyle{Color: noteColor, Width: 1.2}
	var ex, ey, dx, dy []float64
	ticks := make([]plot.Tick, rows)
	for i, r := range cmp.Rows {
		y := float64(rows - 1 - i)
		ticks[rows-1-i] = plot.Tick{Value: y, Label: r.Name}
		se.x0, se.x1 = append(se.x0, r.ELPD-r.SE), append(se.x1, r.ELPD+r.SE)
		se.y0, se.y1 = append(se.y0, y), append(se.y1, y)
		ex, ey = append(ex, r.ELPD), append(ey, y)
		if i > 0 {
			yd := y + 0.25
			dse.x0, dse.x1 = append(dse.x0, r.ELPD-r.DSE), append(dse.x1, r.ELPD+r.DSE)
			dse.y0, dse.y1 = append(dse.y0, yd), append(dse.y1, yd)
			dx, dy = append(dx, r.ELPD), append(dy, yd)
		}
	}
	pn.add("interval", "elpd ± SE", len(ex), se, points(ex, ey, draw.GlyphStyle{Color: oiBlue, Radius: 3.5, Shape: draw.CircleGlyph{}}))
	if len(dx) > 0 {
		pn.add("interval", "difference ± SE", len(dx), dse, points(dx, dy, draw.GlyphStyle{Color: noteColor, Radius: 3, Shape: draw.RingGlyph{}}))
	}
	best := cmp.Rows[0].ELPD
	pn.add("rule", "best elpd", 1, vrule{x: best, style: draw.LineStyle{Color: noteColor, Width: 0.8, Dashes: []vg.Length{4, 3}}})
	lo, hi := se.x0[0], se.x1[0] // room around the widest bars
	for i := range se.x0 {
		lo, hi = min(lo, se.x0[i]), max(hi, se.x1[i])
	}
	for i := range dse.x0 {
		lo, hi = min(lo, dse.x0[i]), max(hi, dse.x1[i])
	}
	if pad := 0.06 * (hi - lo); pad > 0 {
		pn.p.X.Min, pn.p.X.Max = lo-pad, hi+pad
	}
	pn.p.Y.Min, pn.p.Y.Max = -0.6, float64(rows)-0.4
	pn.p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	pn.p.Y.Tick.Length, pn.p.Y.Width, pn.p.Y.Padding = 0, 0, 0
	f.addLegend("elpd ± SE", "line", oiBlue)
	if len(dx) > 0 {
		f.addLegend("difference from the best ± SE", "line", color.Color(noteColor))
	}
	f.title = set.Title
	if f.title == "" {
		f.title = fmt.Sprintf("Model comparison (%s): %s ranks first, weight %.2f", cmp.Method, cmp.Rows[0].Name, cmp.Rows[0].Weight)
	}
	return f
}
