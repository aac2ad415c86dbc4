package plotting

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// PPC draws a predictive check: the observed data against draws of
// replicated data, from the posterior or the prior predictive
// distribution. draws is a [][]float64 (each draws[i] one replicated data
// set) or a *posterior.Posterior of predictive draws, such as
// m.PosteriorPredictive(fit) returns, in which every draw of every chain
// is one replicated data set made of the columns named in args (all
// columns when none is named). Continuous data show
// the density of each of up to MaxDraws (default 50) replicated sets as
// thin lines, their pooled density dashed, and the observed density in
// black. Counts (data that are all integers over a range of at most 60
// values) show the observed frequency of each value as bars and the
// replicated frequencies' median and 90% interval, over the values
// observed or reached by at least 5% of the replications. The first of Labels
// names the predictive distribution (default "posterior predictive").
//
//	plotting.PPC(y, m.PosteriorPredictive(fit))
//	plotting.PPC(y, yrep, plotting.Labels("prior predictive"))
func PPC(observed []float64, draws any, args ...any) *Figure {
	names, set, err := parseArgs("PPC", args)
	if err != nil {
		return errorFigure("PPC", err)
	}
	var sets [][]float64
	switch d := draws.(type) {
	case [][]float64:
		sets = d
	case *posterior.Posterior, posterior.Posterior, posteriorHolder:
		p, _, err := parseFit("PPC", d, false)
		if err != nil {
			return errorFigure("PPC", err)
		}
		if sets, err = replicates(p, names); err != nil {
			return errorFigure("PPC", err)
		}
	default:
		return errorFigure("PPC", fmt.Errorf("plotting: PPC got predictive draws of type %T; pass m.PosteriorPredictive(fit) or a [][]float64 with one replicated data set per row", draws))
	}
	if len(set.Log) > 0 {
		// PPC draws one quantity: any Log(...) puts it on the log scale.
		var err error
		if observed, sets, err = logData(observed, sets); err != nil {
			return errorFigure("PPC", err)
		}
	}
	obs := finiteSorted(observed)
	if len(obs) == 0 {
		return errorFigure("PPC", fmt.Errorf("plotting: PPC got no finite observed data (%d values); pass the data the model observed as a []float64", len(observed)))
	}
	var reps [][]float64
	for _, d := range sets {
		if s := finiteSorted(d); len(s) > 0 {
			reps = append(reps, s)
		}
	}
	if len(reps) == 0 {
		return errorFigure("PPC", fmt.Errorf("plotting: PPC got %d predictive draws and none holds finite values; pass m.PosteriorPredictive(fit), or draws[i] = one replicated data set", len(sets)))
	}
	label := "posterior predictive"
	if len(set.Labels) > 0 {
		label = set.Labels[0]
	}
	maxDraws := set.MaxDraws
	if maxDraws == 0 {
		maxDraws = 50
	}
	f := newFigure("PPC", set, 1, 1, 700, 420)
	if len(set.Log) > 0 {
		f.note = "log scale: the densities of log(y)"
	}
	if len(set.Log) == 0 && isCounts(obs, reps) {
		countsPPC(f, obs, reps, label)
	} else {
		densityPPC(f, obs, reps, label, maxDraws)
		if len(set.Log) > 0 {
			for _, c := range f.cells {
				if c != nil {
					c.p.X.Label.Text, c.desc.XLabel = "log(value)", "log(value)"
				}
			}
		}
	}
	f.title = set.Title
	if f.title == "" {
		f.title = fmt.Sprintf("%s check (%s, %s)", capitalise(label), diag.Plural(len(reps), "draw"), diag.Plural(len(obs), "observation"))
	}
	return f
}

// replicates turns a posterior of predictive draws into one data set per
// draw of every chain, made of the named columns (all when none is named).
func replicates(p *posterior.Posterior, names []string) ([][]float64, error) {
	if err := checkPosterior("PPC", p); err != nil {
		return nil, err
	}
	cols, _, err := selectColumns("PPC", p, names, 0)
	if err != nil {
		return nil, err
	}
	var out [][]float64
	for _, ch := range p.Chains {
		for i := 0; i < p.Draws(); i++ {
			row := make([]float64, len(cols))
			for k, c := range cols {
				row[k] = ch.Values[c][i]
			}
			out = append(out, row)
		}
	}
	return out, nil
}

// isCounts is true when every value is an integer and the values span at
// most 60 integers.
func isCounts(obs []float64, reps [][]float64) bool {
	lo, hi := obs[0], obs[len(obs)-1]
	check := func(xs []float64) bool {
		for _, v := range xs {
			if v != math.Trunc(v) {
				return false
			}
		}
		lo, hi = math.Min(lo, xs[0]), math.Max(hi, xs[len(xs)-1])
		return true
	}
	if !check(obs) {
		return false
	}
	for _, r := range reps {
		if !check(r) {
			return false
		}
	}
	return hi-lo <= 60
}

func densityPPC(f *Figure, obs []float64, reps [][]float64, label string, maxDraws int) {
	pn := f.panel(0, 0, "", "value", "density")
	step := 1
	if len(reps) > maxDraws {
		step = (len(reps) + maxDraws - 1) / maxDraws
	}
	var pooled []float64
	for _, r := range reps {
		pooled = append(pooled, r...)
	}
	thin := draw.LineStyle{Color: withAlpha(oiSky, 90), Width: 0.7}
	for i := 0; i < len(reps); i += step {
		d := kde(reps[i])
		pn.add("line", label, len(d.X), xyLine(d.X, d.Y, thin))
	}
	dp := kde(pooled)
	pn.add("line", label+" (pooled)", len(dp.X), xyLine(dp.X, dp.Y, draw.LineStyle{Color: oiOrange, Width: 1.6, Dashes: []vg.Length{5, 3}}))
	do := kde(obs)
	pn.add("line", "observed", len(do.X), xyLine(do.X, do.Y, draw.LineStyle{Color: oiBlack, Width: 2}))
	pn.p.Y.Min = 0
	// Keep the picture on the data: the tails of wild replicates would
	// otherwise squash it.
	q := finiteSorted(pooled)
	lo := math.Min(obs[0], diag.Quantile(q, 0.005))
	hi := math.Max(obs[len(obs)-1], diag.Quantile(q, 0.995))
	pad := 0.05 * (hi - lo)
	pn.p.X.Min, pn.p.X.Max = lo-pad, hi+pad
	f.addLegend("observed", "line", oiBlack)
	f.addLegend(label, "line", oiSky)
	f.addLegend(label+" (pooled)", "dashed", oiOrange)
}

func countsPPC(f *Figure, obs []float64, reps [][]float64, label string) {
	pn := f.panel(0, 0, "", "value", "frequency")
	lo, hi := obs[0], obs[len(obs)-1]
	for _, r := range reps {
		lo, hi = math.Min(lo, r[0]), math.Max(hi, r[len(r)-1])
	}
	nv := int(hi-lo) + 1
	freq := func(xs []float64) []float64 {
		out := make([]float64, nv)
		for _, v := range xs {
			out[int(v-lo)]++
		}
		for i := range out {
			out[i] /= float64(len(xs))
		}
		return out
	}
	fo := freq(obs)
	per := make([][]float64, nv) // per value, the replicated frequencies
	for _, r := range reps {
		for i, p := range freq(r) {
			per[i] = append(per[i], p)
		}
	}
	low, mid, high := make([]float64, nv), make([]float64, nv), make([]float64, nv)
	for i, ps := range per {
		sort.Float64s(ps)
		low[i], mid[i], high[i] = diag.Quantile(ps, 0.05), diag.Quantile(ps, 0.5), diag.Quantile(ps, 0.95)
	}
	// The x axis runs over the values that show something: an observed
	// count or a 90% interval above zero. A value at either end that no
	// observation has and fewer than 5% of the replications reach would
	// draw only a dot at zero (one wild replicate stretched tutorial 06's
	// axis to 30 with fifteen of them).
	first, last := 0, nv-1
	for first < last && fo[first] == 0 && high[first] == 0 {
		first++
	}
	for last > first && fo[last] == 0 && high[last] == 0 {
		last--
	}
	width := 0.7
	top := 0.0
	for i := first; i <= last; i++ {
		if fo[i] > 0 {
			pn.p.Add(bar{x: lo + float64(i), y: fo[i], width: width, color: color8(0xB8)})
		}
		top = math.Max(top, math.Max(fo[i], high[i]))
	}
	pn.desc.Elements = append(pn.desc.Elements, Element{Kind: "bars", Label: "observed", N: last - first + 1})
	var seg segments
	seg.style = draw.LineStyle{Color: oiBlue, Width: 2}
	var mx, my []float64
	for i := first; i <= last; i++ {
		x := lo + float64(i)
		seg.x0, seg.x1 = append(seg.x0, x), append(seg.x1, x)
		seg.y0, seg.y1 = append(seg.y0, low[i]), append(seg.y1, high[i])
		mx, my = append(mx, x), append(my, mid[i])
	}
	pn.add("interval", label+" 90%", len(seg.x0), seg)
	pn.add("points", label+" median", len(mx), points(mx, my, draw.GlyphStyle{Color: oiBlue, Radius: 3, Shape: draw.CircleGlyph{}}))
	// Room above the tallest interval or bar, so that none ends at the
	// frame as if cut there.
	pn.p.Y.Min, pn.p.Y.Max = 0, 1.06*top
	pn.p.X.Tick.Marker = integerTicks{}
	// Half a count of room on each side, so that the end counts' bars
	// are not cut by the frame.
	pn.p.X.Min, pn.p.X.Max = lo+float64(first)-0.5, lo+float64(last)+0.5
	f.addLegend("observed", "band", color8(0xB8))
	f.addLegend(label+" median and 90%", "points", oiBlue)
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	if s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// logData is the observed data and the replicated sets on the log scale;
// a value that is not positive is an error saying so.
func logData(observed []float64, sets [][]float64) ([]float64, [][]float64, error) {
	tr := func(xs []float64, what string) ([]float64, error) {
		out := make([]float64, len(xs))
		for i, v := range xs {
			if !(v > 0) {
				return nil, fmt.Errorf("plotting: PPC with Log: the %s hold %v at index %d; the log scale needs positive values (drop Log, or shift the data)", what, v, i)
			}
			out[i] = math.Log(v)
		}
		return out, nil
	}
	obs, err := tr(observed, "observed data")
	if err != nil {
		return nil, nil, err
	}
	reps := make([][]float64, len(sets))
	for k, s := range sets {
		if reps[k], err = tr(s, "replicated data"); err != nil {
			return nil, nil, err
		}
	}
	return obs, reps, nil
}
