package plotting

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/vg/draw"
)

// pairLimit is how many columns Pair shows when none is named.
const pairLimit = 6

// Pair draws a scatter matrix of the selected scalars, pooled over the
// selected chains: the marginal density of each on the diagonal, every
// pair below it. Divergent transitions are drawn on top in a contrasting
// colour (and ticked under the marginals): when they gather in the
// narrow neck of a funnel (small tau in a centred hierarchical model),
// the sampler cannot explore that region and the model wants a
// non-centred parameterisation.
//
//	plotting.Pair(fit, "mu", "tau", "theta[0]")
func Pair(fit any, args ...any) *Figure {
	sel, set, err := prepare("Pair", fit, args, pairLimit)
	if err != nil {
		return errorFigure("Pair", err)
	}
	n := len(sel.columns)
	if n < 2 {
		return errorFigure("Pair", fmt.Errorf("plotting: Pair needs at least two scalars to pair; %s is one — name two or more, for example Pair(fit, %q, %q)", columnList(sel), sel.fit.Columns[0], sel.fit.Columns[len(sel.fit.Columns)-1]))
	}
	side := 800
	if n <= 3 {
		side = 700
	}
	f := newFigure("Pair", set, n, n, side, side+50)
	f.note = sel.note
	// Pooled draws and divergent draws of every column.
	vals := make([][]float64, n)
	divs := make([][]float64, n)
	ndiv := 0
	for k, col := range sel.columns {
		for _, c := range sel.chains {
			v := sel.values(c, col)
			vals[k] = append(vals[k], v...)
			for _, i := range sel.divergent(c) {
				if i < len(v) {
					divs[k] = append(divs[k], v[i])
				}
			}
		}
	}
	ndiv = len(divs[0])
	lims := make([][2]float64, n)
	for k := range vals {
		lims[k] = paddedRange(vals[k])
	}
	// Fainter dots for more draws and smaller panels, so dense regions
	// still show their density.
	pointAlpha := uint8(110)
	if len(vals[0]) > 2000 {
		pointAlpha = 70
	}
	if n > 4 {
		pointAlpha = pointAlpha * 2 / 3
	}
	divGlyph := draw.GlyphStyle{Color: divergentColor, Radius: 2.2, Shape: draw.CircleGlyph{}}
	if n >= 5 {
		divGlyph.Radius = 1.6
	}
	ticks := 0 // niceTicks' default
	if n >= 6 {
		ticks = 3 // narrow panels: fewer, so labels do not collide
	}
	for r := 0; r < n; r++ {
		for c := 0; c <= r; c++ {
			xname, yname := sel.name(sel.columns[c]), sel.name(sel.columns[r])
			xl, yl := "", ""
			if r == n-1 {
				xl = xname
			}
			if c == 0 && r > 0 {
				yl = yname
			}
			pn := f.panel(r, c, "", xl, yl)
			pn.p.X.Tick.Marker = niceTicks{n: ticks}
			pn.p.Y.Tick.Marker = niceTicks{n: ticks}
			if r == c {
				d := kde(vals[r])
				pn.add("line", "density", len(d.X), xyLine(d.X, d.Y, draw.LineStyle{Color: drawColor, Width: f.sty.line * 1.2}))
				if len(divs[r]) > 0 {
					pn.add("ticks", "divergent", len(divs[r]), rug{xs: divs[r], color: divergentColor, size: 5})
				}
				pn.p.Y.Tick.Marker = blankTicks{n: ticks}
				pn.p.Y.Min = 0
				if n <= 4 {
					pn.p.Title.Text, pn.desc.Title = xname, xname
				}
			} else {
				pn.add("points", "draws", len(vals[c]), cloud{x: vals[c], y: vals[r], color: withStraightAlpha(drawColor, pointAlpha), size: 1.8})
				if len(divs[c]) > 0 {
					pn.add("points", "divergent", len(divs[c]), points(divs[c], divs[r], divGlyph))
				}
				pn.p.Y.Min, pn.p.Y.Max = lims[r][0], lims[r][1]
				if c > 0 {
					pn.p.Y.Tick.Marker = blankTicks{n: ticks}
				}
			}
			pn.p.X.Min, pn.p.X.Max = lims[c][0], lims[c][1]
			if r < n-1 {
				pn.p.X.Tick.Marker = blankTicks{n: ticks}
			}
		}
	}
	f.addLegend("draws", "points", drawColor)
	if ndiv > 0 {
		f.addLegend(fmt.Sprintf("divergent (%d)", ndiv), "points", divergentColor)
	}
	f.title = set.Title
	if f.title == "" {
		f.title = "Pairs of " + columnList(sel)
	}
	return f
}

// paddedRange is the finite range of xs widened by 3% on each side.
func paddedRange(xs []float64) [2]float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range xs {
		if finite(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if lo > hi {
		return [2]float64{0, 1}
	}
	pad := 0.03 * (hi - lo)
	if pad == 0 {
		pad = 0.5
	}
	return [2]float64{lo - pad, hi + pad}
}
