package plotting

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gobayes/gobayes/ppl/diag"
)

// Band draws curves known by draws — a survival curve, a dose–response, a
// regression line at a grid of x — as their median and a central band of
// probability Prob (default 0.94): draws[s][i] is draw s of the curve at
// x[i]. Several groups, as [][][]float64 (one [][]float64 per group),
// share the panel in the palette's colours; Labels names them. Axes
// names the axes (x and y by default).
//
//	plotting.Band(months, [][][]float64{control, treated},
//		plotting.Labels("control", "treated"), plotting.Axes("months", "survival"))
func Band(x []float64, draws any, args ...any) *Figure {
	_, set, err := parseArgs("Band", args)
	if err != nil {
		return errorFigure("Band", err)
	}
	var groups [][][]float64
	switch d := draws.(type) {
	case [][]float64:
		groups = [][][]float64{d}
	case [][][]float64:
		groups = d
	default:
		return errorFigure("Band", fmt.Errorf("plotting: Band takes draws as [][]float64 (draws[s][i] at x[i]) or [][][]float64 (one such per group), not %T", draws))
	}
	if len(x) < 2 {
		return errorFigure("Band", fmt.Errorf("plotting: Band needs 2 or more x values, got %d", len(x)))
	}
	if !slices.IsSorted(x) {
		return errorFigure("Band", fmt.Errorf("plotting: Band's x values must increase"))
	}
	for g, gd := range groups {
		if len(gd) == 0 {
			return errorFigure("Band", fmt.Errorf("plotting: Band: group %d has no draws", g+1))
		}
		for s, row := range gd {
			if len(row) != len(x) {
				return errorFigure("Band", fmt.Errorf("plotting: Band: draw %d of group %d has %d values for %d x values; give each draw one value per x", s+1, g+1, len(row), len(x)))
			}
		}
	}
	if len(set.Labels) > 0 && len(set.Labels) != len(groups) {
		return errorFigure("Band", fmt.Errorf("plotting: Band got %d labels for %d groups", len(set.Labels), len(groups)))
	}
	xname, yname := "x", "y"
	if set.Axes != nil {
		xname, yname = set.Axes[0], set.Axes[1]
	}
	prob := set.prob()
	f := newFigure("Band", set, 1, 1, 640, 400)
	pn := f.panel(0, 0, "", xname, yname)
	for g, gd := range groups {
		lo, mid, hi := make([]float64, len(x)), make([]float64, len(x)), make([]float64, len(x))
		col := make([]float64, len(gd))
		for i := range x {
			for s, row := range gd {
				col[s] = row[i]
			}
			sorted := finiteSorted(col)
			if len(sorted) == 0 {
				lo[i], mid[i], hi[i] = math.NaN(), math.NaN(), math.NaN()
				continue
			}
			lo[i], mid[i], hi[i] = diag.Quantile(sorted, (1-prob)/2), diag.Quantile(sorted, 0.5), diag.Quantile(sorted, (1+prob)/2)
		}
		c := chainColor(g)
		name := fmt.Sprintf("group %d", g+1)
		if len(set.Labels) > 0 {
			name = set.Labels[g]
		}
		if len(groups) == 1 && len(set.Labels) == 0 {
			name = yname
		}
		pn.add("band", fmt.Sprintf("%s %s%% band", name, num(prob*100)), len(x), bandArea{x: x, lo: lo, hi: hi, color: withAlpha(c, 0x40)})
		pn.add("line", name+" median", len(x), xyLine(x, mid, draw.LineStyle{Color: c, Width: f.sty.line * 1.5}))
		f.addLegend(fmt.Sprintf("%s: median, %s%% band", name, num(prob*100)), "band", c)
	}
	f.title = set.Title
	if f.title == "" {
		f.title = fmt.Sprintf("%s against %s: median and %s%% band of %d draws", yname, xname, num(prob*100), len(groups[0]))
	}
	return f
}

// bandArea fills between lo(x) and hi(x).
type bandArea struct {
	x, lo, hi []float64
	color     color.Color
}

func (b bandArea) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var pts []vg.Point
	for i, x := range b.x {
		if !math.IsNaN(b.hi[i]) {
			pts = append(pts, vg.Point{X: trX(x), Y: trY(b.hi[i])})
		}
	}
	for i := len(b.x) - 1; i >= 0; i-- {
		if !math.IsNaN(b.lo[i]) {
			pts = append(pts, vg.Point{X: trX(b.x[i]), Y: trY(b.lo[i])})
		}
	}
	if len(pts) > 2 {
		c.FillPolygon(b.color, c.ClipPolygonXY(pts))
	}
}

func (b bandArea) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = b.x[0], b.x[len(b.x)-1]
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for i := range b.x {
		if !math.IsNaN(b.lo[i]) {
			ymin = math.Min(ymin, b.lo[i])
		}
		if !math.IsNaN(b.hi[i]) {
			ymax = math.Max(ymax, b.hi[i])
		}
	}
	return
}
