package compile

import (
	"fmt"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// Predictive is the program over the constrained values of every random
// variable (latent and observed, in declaration order; of the model as
// written, graph.Model.Source, when variables were summed out): it gives
// each variable's parameters, bounds and the deterministic quantities, for
// ancestral sampling and for the inverse bijectors.
type Predictive struct {
	Program *ir.Program
	Dim     int               // the constrained position's length
	Offset  map[*graph.RV]int // each variable's first slot in it
	// Per variable, in the order of graph.Model.RVs: its parameters'
	// values (for a mixture, the weights then every component's
	// parameters), its bound options, and (latent only) the bounds of its
	// bijector; ir.None where there is none.
	Params             [][]ir.ID
	Lower, Upper       []ir.ID
	EffLower, EffUpper []ir.ID
	Dets               []ir.ID // the deterministic quantities
}

// Predictive compiles the program over the constrained values.
func (c *Programs) Predictive() (pr *Predictive, err error) {
	defer catch(&err)
	m := c.m
	if m.Source != nil {
		m = m.Source
	}
	pr = &Predictive{Offset: map[*graph.RV]int{}}
	for _, r := range m.RVs {
		pr.Offset[r] = pr.Dim
		pr.Dim += r.Value.Len()
	}
	b := c.newBuilder(pr.Dim)
	e := newEmitter(c, b)
	e.constrained, e.voff = true, pr.Offset
	out := func(n *graph.Node) ir.ID {
		if n == nil {
			return ir.None
		}
		id := e.emit(n)
		b.AddOutput("", id)
		return id
	}
	lat := map[*graph.RV]*Latent{}
	for i := range c.Latents {
		lat[c.Latents[i].RV] = &c.Latents[i]
	}
	for _, r := range m.RVs {
		e.ctx = r.Name
		var ps []ir.ID
		if r.Mix != nil {
			ps = append(ps, out(r.Mix.Weights))
			for _, mc := range r.Mix.Comps {
				for _, p := range mc.Params {
					ps = append(ps, out(p))
				}
			}
		} else {
			for _, p := range r.Params {
				ps = append(ps, out(p))
			}
		}
		pr.Params = append(pr.Params, ps)
		pr.Lower = append(pr.Lower, out(r.Lower))
		pr.Upper = append(pr.Upper, out(r.Upper))
		lo, hi := ir.None, ir.None
		if l := lat[r]; l != nil {
			lo, hi = out(l.Lower), out(l.Upper)
		}
		pr.EffLower = append(pr.EffLower, lo)
		pr.EffUpper = append(pr.EffUpper, hi)
	}
	for _, d := range m.Dets {
		e.ctx = d.Det
		pr.Dets = append(pr.Dets, out(d))
	}
	pr.Program, err = b.Finalize(ir.None)
	if err != nil {
		return nil, &Error{Var: m.Name, Msg: err.Error()}
	}
	return pr, nil
}

// ObsTerms is the number of pointwise log-likelihood terms of an
// observed variable: its elements, or its events for a multivariate
// family.
func ObsTerms(r *graph.RV) int {
	if r.Fam != nil && r.Fam.EventRank > 0 && len(r.Value.Dims) > 0 {
		if r.Fam.Name == "CategoricalLogit" || r.Fam.Name == "Categorical" {
			return r.Value.Len()
		}
		s := r.Value.Dims
		return ir.ShapeLen(s[:max(0, len(s)-r.Fam.EventRank)])
	}
	return r.Value.Len()
}

// LogLik compiles the pointwise log-likelihood over pr's constrained
// position: one output per observed variable (ids), of ObsTerms values.
func (c *Programs) LogLik(pr *Predictive) (p *ir.Program, ids []ir.ID, err error) {
	defer catch(&err)
	b := c.newBuilder(pr.Dim)
	e := newEmitter(c, b)
	e.constrained, e.voff = true, pr.Offset
	for _, r := range c.Observed {
		// Observed values are slots of the position here, so that the
		// same program serves replicated data too.
		var id ir.ID
		ok := true
		if c.m.Marginal[r] {
			n := c.m.MarginalLogLik[r]
			if n == nil {
				return nil, nil, &Error{Var: r.Name, Msg: "its log density is summed over an enumerated variable with the others that use it: it does not split by element"}
			}
			e.ctx = r.Name
			id = e.emit(n)
		} else {
			id, ok = e.logDensity(r, true)
		}
		if !ok {
			id = b.Const(make([]float64, ObsTerms(r)), []int{ObsTerms(r)})
		}
		if got := ir.ShapeLen(b.Shape(id)); got != ObsTerms(r) {
			return nil, nil, &Error{Var: r.Name, Msg: fmt.Sprintf("pointwise log density has %d terms, want %d", got, ObsTerms(r))}
		}
		b.AddOutput(r.Name, id)
		ids = append(ids, id)
	}
	p, err = b.Finalize(ir.None)
	return p, ids, err
}
