package posterior

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gobayes/gobayes/ppl/diag"
)

// Warnings lists what is wrong with the run, each in plain words with what
// to do: divergences, R-hat above 1.01, effective sample sizes below 100
// per chain, saturated tree depth, low E-BFMI, interruption.
func (p *Posterior) Warnings() []string {
	var stats map[int]diag.Scalar
	if p.chainWarnings() {
		stats = p.columnStats(p.allColumns())
	}
	return p.warnings(stats)
}

// chainWarnings says whether the warnings judge the draws as Markov
// chains (R-hat, ESS), which needs every column's statistics.
func (p *Posterior) chainWarnings() bool {
	return p.Draws()*len(p.Chains) > 0 && !p.Approximation && !p.Independent
}

// warnings is Warnings with every column's statistics (nil when
// chainWarnings is false).
func (p *Posterior) warnings(stats map[int]diag.Scalar) []string {
	var w []string
	n := p.Draws()
	total := n * len(p.Chains)
	if p.Interrupted {
		w = append(w, fmt.Sprintf("the run was interrupted: each chain holds %d draws; diagnostics describe those only.", n))
	}
	if total == 0 || p.Approximation || p.Independent {
		return w
	}
	if d := p.Divergences(); d > 0 {
		w = append(w, fmt.Sprintf("%d of %d draws (%s) ended in a divergent transition: the sampler could not follow the posterior's curvature, so the draws may be biased. %s",
			d, total, percent(d, total), p.divergenceAdvice()))
	}
	var stuck []string
	for c, ch := range p.Chains {
		if a := ch.Stats.AcceptStat; len(a) > 0 {
			m := 0.0
			for _, v := range a {
				m += v / float64(len(a))
			}
			if m < 0.01 {
				stuck = append(stuck, fmt.Sprintf("chain %d (mean acceptance %.3g, step size %.3g)", c+1, m, ch.Adaptation.StepSize))
			}
		}
	}
	if len(stuck) > 0 {
		w = append(w, fmt.Sprintf("%s barely moved: it started where the density is extremely steep and never left. Give initial values near the bulk (ppl.Init) or reparameterise; the other diagnostics below are dominated by this.",
			strings.Join(stuck, ", ")))
	}
	var highRhat, lowESS []string
	worst := 1.0
	for j := range p.Columns {
		st, name := stats[j], p.Label(j)
		if st.Constant {
			continue
		}
		r := st.Rhat
		if len(p.Chains) > 1 && RhatHigh(r) {
			highRhat = append(highRhat, name)
			worst = math.Max(worst, r)
		}
		if e := math.Min(st.ESSBulk, st.ESSTail); e < 100*float64(len(p.Chains)) {
			lowESS = append(lowESS, name)
		}
	}
	// A dense metric is worth suggesting where chains ran diagonal on a
	// strongly correlated posterior.
	dense := ""
	if len(highRhat)+len(lowESS) > 0 && (p.Sampler == "NUTS" || p.Sampler == "HMC") {
		if a, b, r := p.strongestCorrelation(); math.Abs(r) > 0.9 && !p.allDense() {
			dense = fmt.Sprintf(" %s and %s are strongly correlated (%.2f) and some chains sampled with a diagonal metric: ppl.DenseMetric() adapts to that.", a, b, r)
		}
	}
	if len(highRhat) > 0 {
		w = append(w, fmt.Sprintf("R-hat above 1.01 for %s (largest %s): the chains disagree, so they have not converged to one distribution. Run longer (ppl.Warmup, ppl.Draws); if that does not help, look for multimodality or reparameterise.%s",
			list(highRhat), rhat(worst), dense))
	}
	if len(lowESS) > 0 {
		advice := " Run more draws, or reparameterise."
		if dense != "" && len(highRhat) == 0 {
			advice = " Run more draws." + dense
		}
		w = append(w, fmt.Sprintf("effective sample size below 100 per chain for %s: means and quantiles are imprecise.%s",
			list(lowESS), advice))
	}
	if d := p.Settings.MaxDepth; d > 0 {
		if k := p.TreeDepthHits(); k > 0 {
			w = append(w, fmt.Sprintf("%d of %d draws (%s) hit the maximum tree depth %d: trajectories were cut short, which costs efficiency (not correctness). Raise it (ppl.MaxDepth(%d)), or use a dense metric or reparameterise.",
				k, total, percent(k, total), d, d+2))
		}
	}
	var low []string
	var lowChains []int
	var lowValues []float64
	for c, ch := range p.Chains {
		if ch.Stats.Energy == nil || n < 2 {
			continue
		}
		if b := diag.EBFMI(ch.Stats.Energy); b < 0.3 {
			lowChains, lowValues = append(lowChains, c+1), append(lowValues, b)
		}
	}
	for i, s := range belowAll(lowValues, 0.3) {
		low = append(low, fmt.Sprintf("chain %d: %s", lowChains[i], s))
	}
	if len(low) > 0 {
		w = append(w, fmt.Sprintf("E-BFMI below 0.3 (%s): momentum resampling explores the energy distribution poorly, typical of heavy tails and funnels. %s",
			strings.Join(low, ", "), p.reparameterise("Reparameterise")))
	}
	return w
}

// Divergences counts divergent transitions over all chains.
func (p *Posterior) Divergences() int {
	k := 0
	for _, ch := range p.Chains {
		for _, d := range ch.Stats.Divergent {
			if d {
				k++
			}
		}
	}
	return k
}

// TreeDepthHits counts draws whose NUTS tree reached the maximum depth.
func (p *Posterior) TreeDepthHits() int {
	k := 0
	for _, ch := range p.Chains {
		for _, d := range ch.Stats.TreeDepth {
			if d >= p.Settings.MaxDepth {
				k++
			}
		}
	}
	return k
}

// EBFMI returns the E-BFMI of every chain (NaN without energies).
func (p *Posterior) EBFMI() []float64 {
	out := make([]float64, len(p.Chains))
	for c, ch := range p.Chains {
		out[c] = math.NaN()
		if ch.Stats.Energy != nil {
			out[c] = diag.EBFMI(ch.Stats.Energy)
		}
	}
	return out
}

// RhatHigh says whether an R-hat flags non-convergence: above 1.01, as
// computed (1.0104 is flagged; the summary then shows it with the
// decimals it needs, 1.0104, so that it visibly exceeds the threshold).
func RhatHigh(r float64) bool { return r > 1.01 }

// percent is k of n as a percentage: one decimal, except that a share too
// small (or too close to all) to show in one decimal is bounded, "<0.1%"
// (">99.9%"), rather than rounded to 0.0% (100.0%).
func percent(k, n int) string {
	p := 100 * float64(k) / float64(n)
	switch {
	case k == 0:
		return "0%"
	case k == n:
		return "100%"
	case p < 0.05:
		return "<0.1%"
	case p >= 99.95:
		return ">99.9%"
	}
	return strconv.FormatFloat(p, 'f', 1, 64) + "%"
}

func list(names []string) string {
	if len(names) > 6 {
		return strings.Join(names[:6], ", ") + fmt.Sprintf(" and %d more", len(names)-6)
	}
	return strings.Join(names, ", ")
}

// below formats v, which is below limit, with the decimals it takes to
// show it below (0.2996 as 0.2996, not 0.30).
func below(v, limit float64) string { return belowAll([]float64{v}, limit)[0] }

// belowAll formats values below limit alike, each with the decimals the
// one that needs the most takes to show it below (0.2996 and 0.2000, not
// 0.2996 beside 0.20).
func belowAll(vs []float64, limit float64) []string {
	d := 2
	for _, v := range vs {
		d = max(d, decimalsNeeded(v, 2, func(shown float64) bool { return shown < limit }))
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strconv.FormatFloat(v, 'f', d, 64)
	}
	return out
}

// allDense reports whether every chain sampled with a dense metric.
func (p *Posterior) allDense() bool {
	for _, ch := range p.Chains {
		if !ch.Adaptation.Dense {
			return false
		}
	}
	return len(p.Chains) > 0
}

// strongestCorrelation is the pair of parameters' scalars (of the first
// 60 that vary; deterministic quantities are not sampled) whose draws,
// all chains pooled, are the most correlated. The columns are
// standardised and the pairs' products summed on every core; each sum is
// taken in draw order, so the answer does not depend on the cores.
func (p *Posterior) strongestCorrelation() (a, b string, r float64) {
	var candidates []int
	for j := range p.Columns {
		if v := p.varOf(j); v != nil && !v.Deterministic {
			candidates = append(candidates, j)
		}
	}
	var cols []int
	var xs [][]float64
	for len(cols) < 60 && len(candidates) > 0 {
		batch := candidates[:min(60-len(cols), len(candidates))]
		candidates = candidates[len(batch):]
		std := make([][]float64, len(batch))
		parallelFor(len(batch), func(i int) { std[i] = standardised(thinned(p.byIndex(batch[i]), maxCorrelationDraws)) })
		for i, x := range std {
			if x != nil { // nil: constant, no correlation
				cols, xs = append(cols, batch[i]), append(xs, x)
			}
		}
	}
	corr := make([][]float64, len(xs))
	parallelFor(len(xs), func(i int) {
		corr[i] = make([]float64, len(xs))
		dots(xs[i], xs[i+1:], corr[i][i+1:])
	})
	for i := range xs {
		for k := i + 1; k < len(xs); k++ {
			if c := corr[i][k]; math.Abs(c) > math.Abs(r) {
				a, b, r = p.Label(cols[i]), p.Label(cols[k]), c
			}
		}
	}
	return a, b, r
}

// maxCorrelationDraws bounds the draws the correlated-pair search reads
// per scalar: its 60 columns of a posterior of 12 million draws would
// otherwise hold 6 GB. A correlation from a million draws is within 0.002
// of the whole posterior's; the search only asks whether it exceeds 0.9.
const maxCorrelationDraws = 1 << 20

// thinned is the chains' draws pooled, every k-th of them for the
// smallest k that keeps at most limit (all of them when they fit).
func thinned(chains [][]float64, limit int) []float64 {
	total := 0
	for _, c := range chains {
		total += len(c)
	}
	k := (total + limit - 1) / limit
	if k <= 1 {
		return diag.Flatten(chains)
	}
	out := make([]float64, 0, total/k+1)
	i := 0
	for _, c := range chains {
		for _, v := range c {
			if i%k == 0 {
				out = append(out, v)
			}
			i++
		}
	}
	return out
}

// standardised centres x and scales it to unit norm, in place; nil when
// x is constant.
func standardised(x []float64) []float64 {
	m, v := 0.0, 0.0
	for _, e := range x {
		m += e / float64(len(x))
	}
	for i := range x {
		x[i] -= m
		v += x[i] * x[i]
	}
	if !(v > 0) {
		return nil
	}
	s := 1 / math.Sqrt(v)
	for i := range x {
		x[i] *= s
	}
	return x
}

// dots sets out[q] to the dot product of x and ys[q], four at a time,
// each summed in index order.
func dots(x []float64, ys [][]float64, out []float64) {
	q := 0
	for ; q+4 <= len(ys); q += 4 {
		y0, y1, y2, y3 := ys[q][:len(x)], ys[q+1][:len(x)], ys[q+2][:len(x)], ys[q+3][:len(x)]
		var c0, c1, c2, c3 float64
		for n, v := range x {
			c0 += v * y0[n]
			c1 += v * y1[n]
			c2 += v * y2[n]
			c3 += v * y3[n]
		}
		out[q], out[q+1], out[q+2], out[q+3] = c0, c1, c2, c3
	}
	for ; q < len(ys); q++ {
		y := ys[q][:len(x)]
		c := 0.0
		for n, v := range x {
			c += v * y[n]
		}
		out[q] = c
	}
}

// parallelFor runs f(0), …, f(n-1) on up to GOMAXPROCS goroutines.
func parallelFor(n int, f func(i int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// varOf is the variable column j belongs to, nil when none.
func (p *Posterior) varOf(j int) *Var {
	for i := range p.Vars {
		if v := &p.Vars[i]; j >= v.Start && j < v.Start+v.size() {
			return v
		}
	}
	return nil
}

// divergenceAdvice says what to do about divergences, fitting the run's
// settings and, where known, the model: a higher target acceptance while
// one is left, then a reparameterisation.
func (p *Posterior) divergenceAdvice() string {
	ta := p.Settings.TargetAccept
	switch {
	case ta < 0.95:
		return "Raise the target acceptance, e.g. ppl.TargetAccept(0.95); if divergences remain, " + p.reparameterise("reparameterise")
	case ta < 0.99:
		return fmt.Sprintf("Raise the target acceptance from %g to ppl.TargetAccept(0.99); if divergences remain, %s", ta, p.reparameterise("reparameterise"))
	}
	return fmt.Sprintf("The target acceptance is %g already: %s", ta, p.reparameterise("reparameterise"))
}

// reparameterise is the advice to reparameterise, beginning with verb:
// the centred variables in non-centred form where the model has some,
// else what else to look for.
func (p *Posterior) reparameterise(verb string) string {
	switch {
	case !p.Structure:
		return verb + " (a centred hierarchical model in its non-centred form, rescaled parameters)."
	case len(p.Centred) > 0:
		return fmt.Sprintf("%s %s in non-centred form: x = loc + scale·x_raw with x_raw ~ Normal(0, 1), whose scale does not depend on the others.", verb, strings.Join(p.Centred, ", "))
	}
	return verb + ": the model has no centred hierarchy, so look for a parameter the data barely determine (give it a tighter prior), one pressed against a bound, or parameters of very different scales (rescale them)."
}
