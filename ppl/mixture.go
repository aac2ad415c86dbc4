package ppl

import (
	"slices"

	"github.com/gobayes/gobayes/ppl/dist"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// Component is one component of a finite mixture: a scalar family and its
// parameters (numbers, slices or expressions).
type Component struct {
	fam    *dist.Family
	params []any
}

// Comp makes a mixture component of family fam with the given parameters,
// in the order fam.Params lists them.
func Comp(fam *dist.Family, params ...any) Component {
	return Component{fam: fam, params: params}
}

// NormalComp is a normal mixture component, Comp(Normal, mu, sigma).
func NormalComp(mu, sigma any) Component {
	return Component{fam: family("Normal"), params: []any{mu, sigma}}
}

// Mixture adds a finite mixture: each element is drawn from component k
// with probability weights[k]. weights is a simplex of K elements (a
// Dirichlet variable, or data); for two components a scalar θ stands for
// (θ, 1-θ). Components must be scalar families with one support; the
// mixture is usually observed, its log density a log-sum-exp over the
// components.
func (m *Model) Mixture(name string, weights any, comps []Component, opts ...Option) *RV {
	defer m.undo(m.mark())
	if len(comps) < 2 {
		m.failf(name, "a mixture needs 2 or more components, got %d", len(comps))
	}
	w, err := asNode(weights)
	if err != nil {
		m.failf(name, "weights: %v", err)
	}
	if w.Len() == 1 && len(comps) != 2 {
		m.failf(name, "a scalar weight stands for (θ, 1-θ) and needs 2 components, got %d", len(comps))
	}
	if w.Len() != 1 && (len(w.Dims) != 1 || w.Len() != len(comps)) {
		m.failf(name, "weights have shape %v for %d components; want a simplex [%d]", w.Dims, len(comps), len(comps))
	}
	if w.Kind == graph.KConst {
		k := dist.Simplex
		if w.Len() == 1 {
			k = dist.UnitInterval
		}
		if msg := checkSupport(w.Data, k, 0, 1); msg != "" {
			m.failf(name, "weights %s", msg)
		}
	}
	var o options
	for _, f := range opts {
		f(&o)
	}
	mix := &graph.Mixture{Weights: w}
	var ps []int
	for k, c := range comps {
		if c.fam == nil {
			m.failf(name, "component %d has no family", k)
		}
		if c.fam.EventRank != 0 {
			m.failf(name, "component %d is %s; mixtures take scalar families", k, c.fam.Name)
		}
		if c.fam.Support.Kind != comps[0].fam.Support.Kind || c.fam.Discrete != comps[0].fam.Discrete {
			m.failf(name, "component %d (%s) has another support than component 0 (%s)", k, c.fam.Name, comps[0].fam.Name)
		}
		if len(c.params) != len(c.fam.Params) {
			m.failf(name, "component %d: %s takes %d parameters, got %d", k, c.fam.Name, len(c.fam.Params), len(c.params))
		}
		mc := graph.MixComp{Fam: c.fam}
		for i, p := range c.params {
			n := m.paramNode(name, c.fam, i, p)
			if n.Len() != 1 {
				if ps != nil && !slices.Equal(ps, n.Dims) {
					m.failf(name, "component parameters have shapes %v and %v; want equal shapes or scalars", ps, n.Dims)
				}
				ps = n.Dims
			}
			mc.Params = append(mc.Params, n)
		}
		mix.Comps = append(mix.Comps, mc)
	}
	r := &RV{m: m, v: graph.RV{Name: name, Mix: mix}}
	shape := slices.Clone(ps)
	if o.shape != nil {
		if ps != nil && !slices.Equal(ps, o.shape) {
			m.failf(name, "the components have shape %v but the variable was given shape %v", ps, o.shape)
		}
		shape = slices.Clone(o.shape)
	}
	r.shapeFixed = shape != nil
	m.claim(name, r)
	r.v.Value = &graph.Node{Kind: graph.KRV, RV: &r.v, Dims: shape, Model: &m.g}
	r.v.Dims = o.dims
	if o.lower != nil || o.upper != nil || o.order != graph.Unordered || o.censor != nil || o.trunc != nil {
		m.failf(name, "bounds, orderings, censoring and truncation do not apply to a mixture")
	}
	m.g.RVs = append(m.g.RVs, &r.v)
	if o.hasObserved {
		r.Observe(o.observed)
	}
	m.checkVarDims(r)
	return r
}
