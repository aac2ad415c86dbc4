package plotting

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// forestLimit is how many columns Forest shows when none is named.
const forestLimit = 20

// Forest draws, for every selected scalar, its interval (Prob, default
// 94% HDI, thin) with the 50% HDI (thick) and the mean (or median) —
// per chain for one posterior, or per model when fit is a
// []*posterior.Posterior (named by Labels, or by the models' names) —
// and, alongside, the bulk and tail ESS and the rank-normalised split
// R-hat of each.
//
//	plotting.Forest(fit, "theta")
//	plotting.Forest([]*posterior.Posterior{centred, noncentred}, "mu", "tau", plotting.Labels("centred", "non-centred"))
func Forest(fit any, args ...any) *Figure {
	first, fits, err := parseFit("Forest", fit, true)
	if err != nil {
		return errorFigure("Forest", err)
	}
	models := fits != nil
	if !models {
		fits = []*posterior.Posterior{first}
	}
	sel, set, err := prepare("Forest", first, args, forestLimit)
	if err != nil {
		return errorFigure("Forest", err)
	}
	if !models {
		sel.capChains(set)
	}
	for _, p := range fits[1:] {
		if err := checkPosterior("Forest", p); err != nil {
			return errorFigure("Forest", err)
		}
	}
	// groups are the interval sets drawn per row: chains of one posterior
	// or models of many.
	type group struct {
		label  string
		color  color.Color
		chains func(name string) [][]float64
	}
	var groups []group
	chainsOf := func(p *posterior.Posterior, idx []int) func(string) [][]float64 {
		return func(name string) [][]float64 {
			col := p.Column(name)
			if col < 0 {
				return nil
			}
			var out [][]float64
			for _, c := range idx {
				out = append(out, p.Chains[c].Values[col])
			}
			return out
		}
	}
	if models {
		for m, p := range fits {
			label := fmt.Sprintf("model %d", m+1)
			if m < len(set.Labels) {
				label = set.Labels[m]
			} else if p.Model != "" {
				label = p.Model
			}
			idx, err := selectChains("Forest", p, set.Chains)
			if err != nil {
				return errorFigure("Forest", err)
			}
			groups = append(groups, group{label, chainColor(m), chainsOf(p, idx)})
		}
	} else if len(sel.chains) == 1 {
		groups = append(groups, group{chainLabel(sel.chains[0]), drawColor, chainsOf(first, sel.chains)})
	} else {
		for _, c := range sel.chains {
			groups = append(groups, group{chainLabel(c), chainColor(c), chainsOf(first, []int{c})})
		}
	}
	rows := len(sel.columns)
	f := newFigure("Forest", set, 1, 3, 800, 110+max((20+9*len(groups))*rows, 200))
	f.colWeights = []float64{3.2, 1, 1}
	f.note = sel.note
	prob := set.prob()
	iv := f.panel(0, 0, fmt.Sprintf("%s%% HDI (thin), 50%% HDI (thick)", num(prob*100)), "value", "")
	es := f.panel(0, 1, "ESS bulk ● tail ○", "ESS", "")
	rh := f.panel(0, 2, "R-hat", "R-hat", "")
	names := make([]string, rows)
	span := 0.7
	g := len(groups)
	rhatMax := 1.01
	for gi, grp := range groups {
		var thin, thick segments
		thin.style = draw.LineStyle{Color: grp.color, Width: 1.2}
		thick.style = draw.LineStyle{Color: grp.color, Width: 3.5}
		var px, py []float64
		for i, col := range sel.columns {
			name := sel.name(col)
			names[rows-1-i] = name
			chains := grp.chains(name)
			if chains == nil {
				continue
			}
			y := float64(rows - 1 - i)
			if g > 1 {
				y += span/2 - span*float64(gi)/float64(g-1)
			}
			sorted := finiteSorted(diag.Flatten(chains))
			if len(sorted) == 0 {
				continue
			}
			lo, hi := diag.HDI(sorted, prob)
			lo50, hi50 := diag.HDI(sorted, 0.5)
			thin.x0, thin.x1 = append(thin.x0, lo), append(thin.x1, hi)
			thin.y0, thin.y1 = append(thin.y0, y), append(thin.y1, y)
			thick.x0, thick.x1 = append(thick.x0, lo50), append(thick.x1, hi50)
			thick.y0, thick.y1 = append(thick.y0, y), append(thick.y1, y)
			pt := stat.Mean(sorted, nil)
			if set.Median {
				pt = diag.Quantile(sorted, 0.5)
			}
			px, py = append(px, pt), append(py, y)
		}
		iv.add("interval", grp.label, len(thin.x0), thin, thick)
		iv.add("points", grp.label, len(px), points(px, py, draw.GlyphStyle{Color: grp.color, Radius: 2.8, Shape: draw.CircleGlyph{}}))
		f.addLegend(grp.label, "line", grp.color)
	}
	// ESS and R-hat are computed over all selected chains of a posterior:
	// one point per row, or per row and model.
	diagGroups := groups
	if !models {
		diagGroups = []group{{"all chains", oiBlack, chainsOf(first, sel.chains)}}
	}
	for gi, grp := range diagGroups {
		var bx, by, tx, ty, rx, ry []float64
		type stats struct{ bulk, tail, rhat float64 }
		st := make([]stats, len(sel.columns))
		parallelFor(len(sel.columns), func(i int) {
			st[i] = stats{math.NaN(), math.NaN(), math.NaN()}
			if chains := grp.chains(sel.name(sel.columns[i])); chains != nil {
				st[i] = stats{diag.ESSBulk(chains), diag.ESSTail(chains), diag.Rhat(chains)}
			}
		})
		for i := range sel.columns {
			y := float64(rows - 1 - i)
			if len(diagGroups) > 1 {
				y += span/2 - span*float64(gi)/float64(len(diagGroups)-1)
			}
			if b := st[i].bulk; !math.IsNaN(b) {
				bx, by = append(bx, b), append(by, y)
			}
			if t := st[i].tail; !math.IsNaN(t) {
				tx, ty = append(tx, t), append(ty, y)
			}
			if r := st[i].rhat; !math.IsNaN(r) {
				rx, ry = append(rx, r), append(ry, y)
				rhatMax = math.Max(rhatMax, r)
			}
		}
		es.add("points", "ESS bulk "+grp.label, len(bx), points(bx, by, draw.GlyphStyle{Color: grp.color, Radius: 2.8, Shape: draw.CircleGlyph{}}))
		es.add("points", "ESS tail "+grp.label, len(tx), points(tx, ty, draw.GlyphStyle{Color: grp.color, Radius: 2.8, Shape: draw.RingGlyph{}}))
		rh.add("points", "R-hat "+grp.label, len(rx), points(rx, ry, draw.GlyphStyle{Color: grp.color, Radius: 2.8, Shape: draw.CircleGlyph{}}))
	}
	dashed := draw.LineStyle{Color: noteColor, Width: 0.8, Dashes: []vg.Length{4, 3}}
	es.add("rule", "ESS 400", 1, vrule{x: 400, style: dashed})
	rh.add("rule", "R-hat 1.01", 1, vrule{x: 1.01, style: dashed})
	es.p.X.Min = 0
	// A narrow panel: three ticks at most, thousands as 2.5k (its labels
	// once ran together, "0 2500 5000 750010000").
	es.p.X.Tick.Marker = niceTicks{n: 3, compact: true}
	rh.p.X.Min, rh.p.X.Max = math.Min(0.99, rh.p.X.Min), math.Max(1.03, rhatMax+0.01)
	for _, pn := range []*panel{iv, es, rh} {
		pn.p.Y.Min, pn.p.Y.Max = -0.6, float64(rows)-0.4
		pn.p.Y.Tick.Length = 0
		pn.p.Y.Width = 0
		pn.p.Y.Padding = 0
	}
	ticks := make([]plot.Tick, rows)
	for i, n := range names {
		ticks[i] = plot.Tick{Value: float64(i), Label: n}
	}
	iv.p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	blank := make([]plot.Tick, rows)
	for i := range blank {
		blank[i] = plot.Tick{Value: float64(i)}
	}
	es.p.Y.Tick.Marker = plot.ConstantTicks(blank)
	rh.p.Y.Tick.Marker = plot.ConstantTicks(blank)
	if !models {
		f.addLegend("ESS 400 / R-hat 1.01", "dashed", noteColor)
	}
	f.title = set.Title
	if f.title == "" {
		f.title = "Forest of " + columnList(sel)
		if models {
			f.title += fmt.Sprintf(" across %d models", len(fits))
		}
	}
	return f
}
