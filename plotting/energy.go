package plotting

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gobayes/gobayes/ppl/diag"
)

// Energy draws the Hamiltonian sampler's energy diagnostics (Betancourt
// 2016): the marginal energy distribution (energy minus its mean) and the
// distribution of energy changes between draws, pooled over the selected
// chains, beside each chain's E-BFMI. When the transition distribution is
// much narrower than the marginal one (E-BFMI below 0.3), momentum
// resampling cannot move the chain through the energy levels of the
// posterior and the sampler explores poorly. Energy needs the energy
// statistic, which NUTS and HMC record.
//
//	plotting.Energy(fit)
func Energy(fit any, args ...any) *Figure {
	sel, set, err := prepare("Energy", fit, args, 1)
	if err != nil {
		return errorFigure("Energy", err)
	}
	sel.note = "" // Energy draws no columns
	sel.capChains(set)
	var marginal, transition []float64
	bfmi := make([]float64, len(sel.chains))
	for k, c := range sel.chains {
		e := sel.fit.Chains[c].Stats.Energy
		if len(e) < 2 {
			sampler := sel.fit.Sampler
			if sampler == "" {
				sampler = "the sampler"
			}
			return errorFigure("Energy", fmt.Errorf("plotting: Energy needs the sampler's energy statistic, and chain %d has none (%s does not record it); sample with ppl.NUTS() or HMC, or check convergence with plotting.Trace and plotting.Rank", c+1, sampler))
		}
		mu := stat.Mean(e, nil)
		for i, v := range e {
			marginal = append(marginal, v-mu)
			if i > 0 {
				transition = append(transition, v-e[i-1])
			}
		}
		bfmi[k] = diag.EBFMI(e)
	}
	f := newFigure("Energy", set, 1, 2, 800, 380)
	f.colWeights = []float64{2.3, 1}
	f.note = sel.note
	de := f.panel(0, 0, "energy distributions", "energy − mean energy", "density")
	dm, dt := kde(marginal), kde(transition)
	de.add("band", "marginal energy", len(dm.X), filledCurve{x: dm.X, y: dm.Y, color: withAlpha(oiBlue, 0x50)})
	de.add("line", "marginal energy", len(dm.X), xyLine(dm.X, dm.Y, f.sty.lineStyle(oiBlue)))
	de.add("band", "energy transition", len(dt.X), filledCurve{x: dt.X, y: dt.Y, color: withAlpha(oiOrange, 0x50)})
	de.add("line", "energy transition", len(dt.X), xyLine(dt.X, dt.Y, f.sty.lineStyle(oiOrange)))
	de.p.Y.Min = 0
	f.addLegend("marginal energy", "band", withAlpha(oiBlue, 0x80))
	f.addLegend("energy transition", "band", withAlpha(oiOrange, 0x80))

	bp := f.panel(0, 1, "E-BFMI per chain", "", "E-BFMI")
	names := make([]string, len(sel.chains))
	var parts []string
	top := 1.0
	for k, c := range sel.chains {
		names[k] = fmt.Sprint(c + 1)
		clr := chainColor(c)
		bp.add("bars", chainLabel(c), 1, bar{x: float64(k), y: bfmi[k], width: 0.6, color: clr})
		parts = append(parts, num(bfmi[k]))
		if !math.IsNaN(bfmi[k]) {
			top = math.Max(top, bfmi[k])
		}
	}
	bp.add("rule", "E-BFMI 0.3", 1, hrule{y: 0.3, style: draw.LineStyle{Color: oiVermillion, Width: 1, Dashes: []vg.Length{4, 3}}})
	ticks := make([]plot.Tick, len(names))
	for k, n := range names {
		ticks[k] = plot.Tick{Value: float64(k), Label: n}
	}
	bp.p.X.Tick.Marker = plot.ConstantTicks(ticks)
	bp.p.X.Label.Text, bp.desc.XLabel = "chain", "chain"
	bp.p.X.Min, bp.p.X.Max = -0.6, float64(len(names))-0.4
	bp.p.Y.Min, bp.p.Y.Max = 0, top*1.1
	f.addLegend("E-BFMI 0.3 (below: poor exploration)", "dashed", oiVermillion)
	f.title = set.Title
	if f.title == "" {
		f.title = "Energy — E-BFMI " + strings.Join(parts, ", ")
	}
	return f
}

// filledCurve fills the area between a curve and zero.
type filledCurve struct {
	x, y  []float64
	color colorLike
}

func (fc filledCurve) Plot(c draw.Canvas, p *plot.Plot) {
	if len(fc.x) == 0 {
		return
	}
	trX, trY := p.Transforms(&c)
	pts := make([]vg.Point, 0, len(fc.x)+2)
	pts = append(pts, vg.Point{X: trX(fc.x[0]), Y: trY(0)})
	for i := range fc.x {
		pts = append(pts, vg.Point{X: trX(fc.x[i]), Y: trY(fc.y[i])})
	}
	pts = append(pts, vg.Point{X: trX(fc.x[len(fc.x)-1]), Y: trY(0)})
	c.FillPolygon(fc.color, c.ClipPolygonXY(pts))
}

func (fc filledCurve) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), 0
	xmax, ymax = math.Inf(-1), 0
	for i := range fc.x {
		xmin, xmax = math.Min(xmin, fc.x[i]), math.Max(xmax, fc.x[i])
		ymax = math.Max(ymax, fc.y[i])
	}
	return
}

// bar is one vertical bar from 0 to y centred on x.
type bar struct {
	x, y, width float64
	color       colorLike
}

func (b bar) Plot(c draw.Canvas, p *plot.Plot) {
	if math.IsNaN(b.y) {
		return
	}
	trX, trY := p.Transforms(&c)
	x0, x1 := trX(b.x-b.width/2), trX(b.x+b.width/2)
	y0, y1 := trY(0), trY(b.y)
	c.FillPolygon(b.color, c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
}

func (b bar) DataRange() (xmin, xmax, ymin, ymax float64) {
	return b.x - b.width/2, b.x + b.width/2, math.Min(0, b.y), math.Max(0, b.y)
}
