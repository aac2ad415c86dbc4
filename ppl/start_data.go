package ppl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/dist"
	"github.com/gobayes/gobayes/ppl/internal/compile"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// When no finite starting point is found, the cause is often one
// observed value rather than the model: a proportion of exactly 0 under
// a Beta, a duration of 0 under a Gamma or Weibull. Such a value lies in
// the family's support as the model is built (so Observe accepts it),
// but its density there is zero for most parameter values. startCulprit
// finds it: the observed elements whose log density is not finite at any
// of a few random starting points while the other elements of the same
// variable are finite at some, and names the first with its value.

// startTries is how many random starting points startCulprit evaluates.
const startTries = 20

// explainStart replaces a failed start's error by one naming an observed
// value that no starting point fits, when there is one; err otherwise.
func (c *Compiled) explainStart(err error, seed uint64) error {
	if err == nil || !strings.Contains(err.Error(), "no finite starting point") {
		return err
	}
	if e := c.startCulprit(seed); e != nil {
		return e
	}
	return err
}

// startCulprit is the *Error naming the first observed element that is
// not finite at any of startTries random positions (uniform(-2, 2) on the
// unconstrained scale, as the samplers start), nil when there is none.
func (c *Compiled) startCulprit(seed uint64) *Error {
	if c.LogLikLen() == 0 {
		return nil
	}
	d := c.newDensity()
	draw := make([]float64, c.VarLen())
	ll := make([]float64, c.LogLikLen())
	finiteAt := make([]int, len(ll)) // tries at which each element is finite
	rng := rand.New(rand.NewPCG(seed, 0x5747))
	x := make([]float64, c.Dim())
	for try := 0; try < startTries; try++ {
		for i := range x {
			x[i] = 4*rng.Float64() - 2
		}
		d.Constrained(x, draw)
		if c.PointwiseLogLik(draw, ll) != nil {
			return nil
		}
		for j, v := range ll {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				finiteAt[j]++
			}
		}
	}
	k := 0
	for _, r := range c.p.Observed {
		n := compile.ObsTerms(r)
		elems := finiteAt[k : k+n]
		k += n
		bad, fine := -1, false
		for j, f := range elems {
			switch {
			case f == 0 && bad < 0:
				bad = j
			case f > 0:
				fine = true
			}
		}
		if bad < 0 || !fine {
			continue // nothing to blame, or the whole variable: the model's, not a value's
		}
		return c.culpritError(r, bad, elems)
	}
	return nil
}

// culpritError describes element j of the observed variable r, which no
// starting point fits; elems counts the tries at which each is finite.
func (c *Compiled) culpritError(r *graph.RV, j int, elems []int) *Error {
	nbad := 0
	for _, f := range elems {
		if f == 0 {
			nbad++
		}
	}
	dens := line(r)[2]
	what := fmt.Sprintf("element %d", j)
	where := ""
	value := math.NaN()
	if r.Fam != nil && r.Fam.EventRank == 0 && len(r.Data) == len(elems) {
		value = r.Data[j]
		what = fmt.Sprintf("observed value %v at index %d", value, j)
		if len(r.Dims) == 1 {
			if labels := c.m.g.Coords[r.Dims[0]]; j < len(labels) {
				what += fmt.Sprintf(" (%s=%s)", r.Dims[0], labels[j])
			}
		}
	}
	others := ""
	if nbad > 1 {
		others = fmt.Sprintf(" (and %s more like it)", diag.Plural(nbad-1, "value"))
	}
	if edge := supportEdge(r, value); edge != "" {
		where = fmt.Sprintf(" The value lies on the edge of %s's support (%s), where the density is zero or infinite for most parameter values. Move such values inside the support (a proportion y of n cases as (y·(n−1) + 0.5)/n, a duration of 0 as half the smallest unit measured), or model them apart (a hurdle or zero-inflated family).", r.Fam.Name, edge)
	} else {
		where = " Check this value against the model: no parameter value near the start gives it a positive density."
	}
	return &Error{Var: r.Name, Msg: fmt.Sprintf("%s%s has a log density of −∞ under %s at each of %d random starting points, while the other values are finite at some: the sampler found no finite starting point.%s", what, others, dens, startTries, where)}
}

// supportEdge names the edge of r's support that value lies on ("0",
// "0 or 1"), "" when it is not on one.
func supportEdge(r *graph.RV, value float64) string {
	if r.Fam == nil || math.IsNaN(value) {
		return ""
	}
	sup := r.Support()
	switch sup.Kind {
	case dist.Positive:
		if value == 0 {
			return "values > 0"
		}
	case dist.UnitInterval:
		if value == 0 || value == 1 {
			return "values strictly between 0 and 1"
		}
	case dist.Bounded:
		lo, hi := math.NaN(), math.NaN()
		if sup.Lower >= 0 && sup.Lower < len(r.Params) && r.Params[sup.Lower].IsConst() && r.Params[sup.Lower].Len() == 1 {
			lo = r.Params[sup.Lower].Data[0]
		}
		if sup.Upper >= 0 && sup.Upper < len(r.Params) && r.Params[sup.Upper].IsConst() && r.Params[sup.Upper].Len() == 1 {
			hi = r.Params[sup.Upper].Data[0]
		}
		if value == lo || value == hi {
			return fmt.Sprintf("values between %v and %v", lo, hi)
		}
	}
	return ""
}
