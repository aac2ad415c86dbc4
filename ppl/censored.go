package ppl

import (
	"math"
	"slices"

	"github.com/gobayes/gobayes/ppl/dist"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// Censored observations and truncated distributions.
//
// Both are recorded on the variable (graph.RV's Censor, and Truncated
// with the bounds Lower and Upper) and read by the compiler where it
// emits the variable's log density, rather than built here as terms of
// LogPDF and LogCDF: the sampler's target, the pointwise log-likelihood
// (one term per element, for LOO), the predictive draws and a cell run
// again (sameVar) then see one definition, and a variable keeps its name
// in errors and listings. A truncated variable's bounds are the bound
// options' own (Lower, Upper), so a latent one gets the bijector of its
// interval as Bounds gives it, and prior draws are redrawn inside the
// bounds as for Bounds; Truncated adds the normaliser.

// limits is the lower and upper bound given to Censored or Truncated
// (nil for none).
type limits struct{ lower, upper any }

// Censored censors an observed continuous scalar variable (Tobit models,
// detection limits, survival times): an observation at or below lower
// counts as the probability log F(lower) of lying there, one at or above
// upper as log(1 - F(upper)), the others as their log density. lower and
// upper are data: a number, or a slice with one bound per observation;
// nil for none on that side. m.Normal("y", mu, sigma, ppl.Censored(nil,
// 10.0), ppl.Observed(y)) has values recorded as 10 where they reached
// 10 or more. Posterior and prior predictive draws are censored the same
// way: clipped to the bounds, as PyMC's Censored. The family needs a
// CDF (see LogCDF).
func Censored(lower, upper any) Option {
	return func(o *options) { o.censor = &limits{lower, upper} }
}

// Truncated truncates a continuous scalar variable to [lower, upper]:
// its density is p(y) / (F(upper) - F(lower)), normalised over the bounds
// whatever the parameters. lower and upper are numbers, slices of one
// bound per element, or expressions; nil for none on that side. An
// observed variable's data must lie within the bounds; a latent one is
// sampled inside them (the bijector of Bounds), and predictive draws are
// redrawn until they fall inside. The family needs a CDF (see LogCDF).
func Truncated(lower, upper any) Option {
	return func(o *options) { o.trunc = &limits{lower, upper} }
}

// applyLimits records the Censored and Truncated options of r (Var calls
// it after applyBounds).
func (m *Model) applyLimits(r *RV, o *options) {
	if o.censor == nil && o.trunc == nil {
		return
	}
	name := r.v.Name
	if o.censor != nil && o.trunc != nil {
		m.failf(name, "a variable is either Censored or Truncated, not both")
	}
	if msg := noCDF(r.v.Fam); msg != "" {
		what := "Censored"
		if o.trunc != nil {
			what = "Truncated"
		}
		m.failf(name, "%s: %s", what, msg)
	}
	if o.trunc != nil {
		if o.lower != nil || o.upper != nil || o.order != graph.Unordered {
			m.failf(name, "Truncated gives the variable its bounds; do not give Lower, Upper, Bounds or an ordering too")
		}
		if o.trunc.lower == nil && o.trunc.upper == nil {
			m.failf(name, "Truncated(nil, nil) truncates nothing; give a lower or an upper bound")
		}
		if o.hasObserved {
			r.widenTo(o.trunc.lower, o.trunc.upper)
		}
		m.applyBounds(r, &options{lower: o.trunc.lower, upper: o.trunc.upper})
		r.v.Truncated = true
		if sup := r.v.Fam.Support; sup.Kind == dist.Positive && r.v.Lower != nil && r.v.Lower.IsConst() {
			for _, v := range r.v.Lower.Data {
				if v < 0 {
					m.failf(name, "lower bound %v is below the support of %s (positive values); give 0 or more, or nil", v, r.v.Fam.Name)
				}
			}
		}
		return
	}
	lo := m.censorBound(r, "lower censoring bound", o.censor.lower)
	hi := m.censorBound(r, "upper censoring bound", o.censor.upper)
	if lo == nil && hi == nil {
		m.failf(name, "Censored(nil, nil) censors nothing; give a lower or an upper bound")
	}
	if lo != nil && hi != nil {
		for i := range max(len(lo), len(hi)) {
			if l, h := lo[i%len(lo)], hi[i%len(hi)]; !(l < h) {
				m.failf(name, "lower censoring bound %v is not below upper censoring bound %v", l, h)
			}
		}
	}
	r.v.Censor = &graph.Censoring{Lower: lo, Upper: hi}
}

// widenTo gives r, when its shape is not fixed yet, the shape of a
// vector bound: the variable has one element per bound, as its data
// (given with the option Observed, which is checked next) will. A
// latent variable with vector bounds takes its shape from Size, as with
// Bounds, so that a cell run again finds the shape it made.
func (r *RV) widenTo(bounds ...any) {
	if r.shapeFixed || r.used {
		return
	}
	for _, b := range bounds {
		if b == nil {
			continue
		}
		if n, err := asNode(b); err == nil && n.Len() > 1 {
			r.v.Value.Dims = slices.Clone(n.Dims)
			return
		}
	}
}

// censorBound is the data of a censoring bound, nil for none.
func (m *Model) censorBound(r *RV, what string, v any) []float64 {
	if v == nil {
		return nil
	}
	n, err := asNode(v)
	if err != nil {
		m.failf(r.v.Name, "%s: %v", what, err)
	}
	if n.Kind != graph.KConst {
		m.failf(r.v.Name, "%s: censoring bounds are data (a number or a slice), not an expression", what)
	}
	if n.Container != "" {
		m.failf(r.v.Name, "%s: censoring bounds are Go values here, not data container %q (new data could not follow them yet)", what, n.Container)
	}
	for i, x := range n.Data {
		if math.IsNaN(x) {
			m.failf(r.v.Name, "%s is NaN at index %d", what, i)
		}
	}
	return slices.Clone(n.Data)
}

// checkLimits checks observed data against r's censoring bounds (their
// number) and truncation bounds (the data must lie within them); Observe
// calls it.
func (r *RV) checkLimits(d []float64) {
	m := r.m
	if c := r.v.Censor; c != nil {
		for _, b := range [][]float64{c.Lower, c.Upper} {
			if len(b) > 1 && len(b) != len(d) {
				m.failf(r.v.Name, "%d censoring bounds for %d observations; give one bound, or one per observation", len(b), len(d))
			}
		}
	}
	if !r.v.Truncated {
		return
	}
	for _, side := range []struct {
		b     *graph.Node
		below bool
	}{{r.v.Lower, true}, {r.v.Upper, false}} {
		if side.b == nil || !side.b.IsConst() {
			continue
		}
		b := side.b.Data
		if len(b) > 1 && len(b) != len(d) {
			m.failf(r.v.Name, "%d truncation bounds for %d observations; give one bound, or one per observation", len(b), len(d))
		}
		for i, v := range d {
			if x := b[i%len(b)]; side.below && v < x || !side.below && v > x {
				m.failf(r.v.Name, "observed value %v at index %d lies outside the truncation bounds (%s bound %v); truncated data lie within the bounds", v, i, map[bool]string{true: "lower", false: "upper"}[side.below], x)
			}
		}
	}
}

// sameLimits reports whether the Censored and Truncated options o are
// those v was made with (a cell run again).
func sameLimits(v *graph.RV, o *options) bool {
	if v.Truncated != (o.trunc != nil) || (v.Censor != nil) != (o.censor != nil) {
		return false
	}
	if v.Censor == nil {
		return true
	}
	same := func(have []float64, x any) bool {
		if x == nil {
			return have == nil
		}
		n, err := asNode(x)
		return err == nil && n.Kind == graph.KConst && slices.Equal(n.Data, have)
	}
	return same(v.Censor.Lower, o.censor.lower) && same(v.Censor.Upper, o.censor.upper)
}

// boundOptions are the bounds o gives the variable: Truncated's, or
// Lower and Upper.
func (o *options) boundOptions() (lower, upper any) {
	if o.trunc != nil {
		return o.trunc.lower, o.trunc.upper
	}
	return o.lower, o.upper
}

// clipCensored censors draws of r as its data are: a draw below the
// lower bound is recorded at it, one above the upper bound likewise.
func clipCensored(r *graph.RV, draws []float64) {
	c := r.Censor
	if c == nil {
		return
	}
	for k, v := range draws {
		if len(c.Lower) > 0 {
			v = math.Max(v, c.Lower[k%len(c.Lower)])
		}
		if len(c.Upper) > 0 {
			v = math.Min(v, c.Upper[k%len(c.Upper)])
		}
		draws[k] = v
	}
}
