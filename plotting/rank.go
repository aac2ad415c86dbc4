package plotting

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// rankLimit is how many columns Rank shows when none is named.
const rankLimit = 12

// Rank draws rank histograms: the draws of the chains shown (all, or
// the first 8, or those chosen with Chains) are ranked together, and each chain's ranks are counted in bins (Bins, default
// 20) and drawn as bars in the chain's colour, one row per chain, beside
// the height of a uniform histogram (dashed) and its 95% band (shaded).
// Chains that mix well have flat histograms within the band; a chain
// stuck in part of the posterior has tall bars at one end and short ones
// at the other (Vehtari et al. 2021). Rank needs at least two chains.
//
//	plotting.Rank(fit, "tau")
func Rank(fit any, args ...any) *Figure {
	sel, set, err := prepare("Rank", fit, args, rankLimit)
	if err != nil {
		return errorFigure("Rank", err)
	}
	sel.capChains(set)
	if len(sel.chains) < 2 {
		return errorFigure("Rank", fmt.Errorf("plotting: Rank needs at least two chains to compare; this selection has %d chain — sample with ppl.Chains(4) (or select more with plotting.Chains), or look at plotting.Trace", len(sel.chains)))
	}
	bins := set.Bins
	if bins == 0 {
		bins = 20
	}
	rows, cols := gridShape(len(sel.columns), 3)
	k := len(sel.chains)
	f := newFigure("Rank", set, rows, cols, 800, 70+max(200, 40*k+60)*rows)
	if len(sel.columns) == 1 && set.Width == 0 {
		f.sizeFrom(set, 600, max(320, 50*k+90))
	}
	f.note = sel.note
	n := sel.fit.Draws()
	total := n * k
	// Under uniform ranks a bin's count is Binomial(n, 1/bins): its mean
	// and a normal-approximation 95% band. A row is one unit high; a
	// uniform bar reaches rowFill of it.
	const rowFill = 0.45
	pb := 1 / float64(bins)
	mean := float64(n) * pb
	half := 1.96 * math.Sqrt(float64(n)*pb*(1-pb))
	width := float64(total) / float64(bins)
	ticks := make([]plot.Tick, k)
	for j, c := range sel.chains {
		ticks[j] = plot.Tick{Value: float64(k-1-j) + rowFill, Label: fmt.Sprint(c + 1)}
	}
	// Ranks are taken over the chains drawn, so the label says which.
	xlabel := "rank (all chains)"
	if k < len(sel.fit.Chains) {
		xlabel = fmt.Sprintf("rank among the %d chains shown", k)
	}
	for i, col := range sel.columns {
		pn := f.panel(i/cols, i%cols, sel.name(col), xlabel, "chain")
		ranks := poolRanks(sel, col)
		for j, c := range sel.chains {
			base := float64(k - 1 - j)
			pn.add("band", "uniform 95%", 2, hband{y0: base + rowFill*(mean-half)/mean, y1: base + rowFill*(mean+half)/mean, color: color8(0xEA)})
			counts := make([]float64, bins)
			for _, r := range ranks[j] {
				b := int(r * float64(bins) / float64(total))
				if b >= bins {
					b = bins - 1
				}
				counts[b]++
			}
			bars := make([]plot.Plotter, bins)
			for b, cnt := range counts {
				bars[b] = rankBar{x0: float64(b) * width, x1: float64(b+1) * width, y0: base, y1: base + rowFill*cnt/mean, color: chainColor(c)}
			}
			pn.add("bars", chainLabel(c), bins, bars...)
			pn.add("rule", "uniform", 1, segments{x0: []float64{0}, x1: []float64{float64(total)}, y0: []float64{base + rowFill}, y1: []float64{base + rowFill}, style: draw.LineStyle{Color: noteColor, Width: 0.8, Dashes: []vg.Length{4, 3}}})
		}
		pn.p.Y.Min, pn.p.Y.Max = 0, float64(k)-0.05
		pn.p.X.Min, pn.p.X.Max = 0, float64(total)
		pn.p.Y.Tick.Marker = plot.ConstantTicks(ticks)
		pn.p.Y.Tick.Length = 0
		if i%cols != 0 {
			pn.p.Y.Label.Text, pn.desc.YLabel = "", ""
		}
	}
	for _, c := range sel.chains {
		f.addLegend(chainLabel(c), "band", chainColor(c))
	}
	f.addLegend("uniform", "dashed", noteColor)
	f.addLegend("uniform ± 95%", "band", color8(0xD8))
	f.title = set.Title
	if f.title == "" {
		f.title = "Rank histograms of " + columnList(sel)
	}
	return f
}

// rankBar is one bar of a rank histogram, from y0 up to y1.
type rankBar struct {
	x0, x1, y0, y1 float64
	color          colorLike
}

func (b rankBar) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	// A hair of white between bars keeps them apart.
	x0, x1 := trX(b.x0)+0.3, trX(b.x1)-0.3
	y0, y1 := trY(b.y0), trY(b.y1)
	c.FillPolygon(b.color, c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
}

// poolRanks ranks the draws of column col over the selected chains
// together (0-based, ties in draw order) and returns each chain's ranks.
func poolRanks(sel selection, col int) [][]float64 {
	type item struct {
		v    float64
		k, i int
	}
	var all []item
	for k, c := range sel.chains {
		for i, v := range sel.values(c, col) {
			all = append(all, item{v, k, i})
		}
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].v < all[b].v })
	out := make([][]float64, len(sel.chains))
	for k, c := range sel.chains {
		out[k] = make([]float64, len(sel.values(c, col)))
	}
	for r, it := range all {
		out[it.k][it.i] = float64(r)
	}
	return out
}
