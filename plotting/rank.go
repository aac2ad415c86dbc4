package plotting

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// rankLimit is how many columns Rank shows when none is named.
const rankLimit = 12

// Rank draws rank histograms: the draws of all selected chains are ranked
// together, and each chain's ranks are counted in bins (Bins, default
// 20) and drawn as a step line in the chain's colour. Chains that mix
// well have flat, overlapping histograms within the shaded band (the
// 95% range of a bin count under uniform ranks); a chain stuck in part
// of the posterior sits high in some bins and low in others (Vehtari et
// al. 2021). Rank needs at least two chains.
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
	f := newFigure("Rank", set, rows, cols, 800, 70+220*rows)
	if len(sel.columns) == 1 && set.Width == 0 {
		f.width, f.height = 600, 360
	}
	f.note = sel.note
	n := sel.fit.Draws()
	total := n * len(sel.chains)
	// Under uniform ranks a bin's count is Binomial(n, 1/bins): its mean
	// and a normal-approximation 95% band.
	pb := 1 / float64(bins)
	mean := float64(n) * pb
	half := 1.96 * math.Sqrt(float64(n)*pb*(1-pb))
	for i, col := range sel.columns {
		pn := f.panel(i/cols, i%cols, sel.name(col), "rank (all chains)", "count")
		ranks := poolRanks(sel, col)
		pn.add("band", "uniform 95%", 2, hband{y0: mean - half, y1: mean + half, color: color8(0xE8)})
		pn.add("rule", "uniform", 1, hrule{y: mean, style: draw.LineStyle{Color: noteColor, Width: 0.8, Dashes: []vg.Length{4, 3}}})
		for k, c := range sel.chains {
			counts := make([]float64, bins)
			for _, r := range ranks[k] {
				b := int(r * float64(bins) / float64(total))
				if b >= bins {
					b = bins - 1
				}
				counts[b]++
			}
			x := make([]float64, 0, 2*bins)
			y := make([]float64, 0, 2*bins)
			for b, cnt := range counts {
				x = append(x, float64(b)*float64(total)/float64(bins), float64(b+1)*float64(total)/float64(bins))
				y = append(y, cnt, cnt)
			}
			pn.add("line", chainLabel(c), bins, xyLine(x, y, f.sty.lineStyle(chainColor(c))))
		}
		pn.p.Y.Min = 0
		pn.p.X.Min, pn.p.X.Max = 0, float64(total)
	}
	for _, c := range sel.chains {
		f.addLegend(chainLabel(c), "line", chainColor(c))
	}
	f.addLegend("uniform ± 95%", "band", color8(0xD8))
	f.title = set.Title
	if f.title == "" {
		f.title = "Rank histograms of " + columnList(sel)
	}
	return f
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
