package plotting

import (
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gobayes/gobayes/ppl/diag"
)

// essLimit is how many columns ESS shows when none is named.
const essLimit = 12

// essSteps is the number of draw counts at which ESS evaluates.
const essSteps = 10

// ESS draws how the bulk and tail effective sample sizes of every
// selected scalar grow with the number of draws (the first n draws of
// every selected chain, n from a tenth of the run to all of it),
// with a line at 400, the ESS above which R-hat and the ESS estimates
// themselves are reliable (Vehtari et al. 2021). ESS that grows linearly
// means the run is long enough to estimate it; ESS that stalls means the
// chains are not mixing.
//
//	plotting.ESS(fit, "mu", "tau")
func ESS(fit any, args ...any) *Figure {
	sel, set, err := prepare("ESS", fit, args, essLimit)
	if err != nil {
		return errorFigure("ESS", err)
	}
	rows, cols := gridShape(len(sel.columns), 3)
	f := newFigure("ESS", set, rows, cols, 800, 70+210*rows)
	if len(sel.columns) == 1 && set.Width == 0 {
		f.sizeFrom(set, 600, 340)
	}
	f.note = sel.note
	n := sel.fit.Draws()
	var counts []int
	for k := 1; k <= essSteps; k++ {
		m := int(math.Round(float64(n) * float64(k) / essSteps))
		if m >= 8 && (len(counts) == 0 || m > counts[len(counts)-1]) {
			counts = append(counts, m)
		}
	}
	bulkStyle := draw.LineStyle{Color: oiBlue, Width: f.sty.line}
	tailStyle := draw.LineStyle{Color: oiOrange, Width: f.sty.line}
	// The estimates dominate the cost: compute the columns in parallel.
	type curve struct{ bx, by, tx, ty []float64 }
	curves := make([]curve, len(sel.columns))
	parallelFor(len(sel.columns), func(i int) {
		col := sel.columns[i]
		chains := make([][]float64, len(sel.chains))
		var cv curve
		for _, m := range counts {
			for k, c := range sel.chains {
				chains[k] = sel.values(c, col)[:m]
			}
			total := float64(m * len(sel.chains))
			if b := diag.ESSBulk(chains); !math.IsNaN(b) {
				cv.bx, cv.by = append(cv.bx, total), append(cv.by, b)
			}
			if t := diag.ESSTail(chains); !math.IsNaN(t) {
				cv.tx, cv.ty = append(cv.tx, total), append(cv.ty, t)
			}
		}
		curves[i] = cv
	})
	for i, col := range sel.columns {
		pn := f.panel(i/cols, i%cols, sel.name(col), "total draws", "ESS")
		bx, by, tx, ty := curves[i].bx, curves[i].by, curves[i].tx, curves[i].ty
		pn.add("line", "bulk ESS", len(bx), xyLine(bx, by, bulkStyle), points(bx, by, draw.GlyphStyle{Color: oiBlue, Radius: 2, Shape: draw.CircleGlyph{}}))
		pn.add("line", "tail ESS", len(tx), xyLine(tx, ty, tailStyle), points(tx, ty, draw.GlyphStyle{Color: oiOrange, Radius: 2, Shape: draw.SquareGlyph{}}))
		pn.add("rule", "ESS 400", 1, hrule{y: 400, style: draw.LineStyle{Color: noteColor, Width: 0.8, Dashes: []vg.Length{4, 3}}})
		pn.p.Y.Min, pn.p.X.Min = 0, 0
		if i%cols != 0 {
			pn.p.Y.Label.Text, pn.desc.YLabel = "", ""
		}
	}
	f.addLegend("bulk ESS", "line", oiBlue)
	f.addLegend("tail ESS", "line", oiOrange)
	f.addLegend("ESS 400", "dashed", noteColor)
	f.title = set.Title
	if f.title == "" {
		f.title = "ESS by number of draws: " + columnList(sel)
	}
	return f
}
