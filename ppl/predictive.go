package ppl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/dist"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// predictive is the program over the constrained values of every random
// variable (latent and observed, in declaration order): it gives each
// variable's parameters, bounds and the deterministic quantities, for
// ancestral sampling and for the inverse bijectors.
type predictive struct {
	p    *ir.Program
	dim  int
	voff map[*graph.RV]int
	// Per variable, in Model.rvs order: its parameters' values (for a
	// mixture, the weights then every component's parameters), its bound
	// options, and (latent only) the bounds of its bijector.
	params       [][]ir.ID
	lower, upper []ir.ID
	effLo, effHi []ir.ID
	dets         []ir.ID
}

func (c *Compiled) predictiveProgram() (*predictive, error) {
	if err := c.stale(); err != nil {
		return nil, err
	}
	c.predOnce.Do(func() {
		c.pred, c.predErr = c.buildPredictive()
		if c.predErr == nil {
			// Frames are reused across calls: a frame of a large data set
			// is as large as the data.
			c.predFrames.New = func() any { return ir.NewFrame(c.pred.p) }
		}
	})
	return c.pred, c.predErr
}

func (c *Compiled) buildPredictive() (pr *predictive, err error) {
	defer Catch(&err)
	m := c.m
	pr = &predictive{voff: map[*graph.RV]int{}}
	for _, r := range m.g.RVs {
		pr.voff[r] = pr.dim
		pr.dim += r.Value.Len()
	}
	b := ir.NewBuilder(pr.dim)
	e := newEmitter(c, b)
	e.constrained, e.voff = true, pr.voff
	out := func(n *graph.Node) ir.ID {
		if n == nil {
			return ir.None
		}
		id := e.emit(n)
		b.AddOutput("", id)
		return id
	}
	lat := map[*graph.RV]*latent{}
	for i := range c.latents {
		lat[c.latents[i].RV] = &c.latents[i]
	}
	for _, r := range m.g.RVs {
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
		pr.params = append(pr.params, ps)
		pr.lower = append(pr.lower, out(r.Lower))
		pr.upper = append(pr.upper, out(r.Upper))
		lo, hi := ir.None, ir.None
		if l := lat[r]; l != nil {
			lo, hi = out(l.lower), out(l.upper)
		}
		pr.effLo = append(pr.effLo, lo)
		pr.effHi = append(pr.effHi, hi)
	}
	for _, d := range m.g.Dets {
		e.ctx = d.Det
		pr.dets = append(pr.dets, out(d))
	}
	pr.p, err = b.Finalize(ir.None)
	if err != nil {
		return nil, &Error{Var: m.g.Name, Msg: err.Error()}
	}
	return pr, nil
}

// val is the value of id in frame f, or nil for None.
func val(f *ir.Frame, id ir.ID) []float64 {
	if id == ir.None {
		return nil
	}
	return f.Val(id)
}

// sampleRV draws variable i (r) into its slots of the constrained position
// held by f, given the values of the variables before it.
func (c *Compiled) sampleRV(rng *rand.Rand, pr *predictive, f *ir.Frame, i int, r *graph.RV) error {
	f.Forward(f.V[:pr.dim])
	dst := f.V[pr.voff[r] : pr.voff[r]+r.Value.Len()]
	ps := make([][]float64, len(pr.params[i]))
	for j, id := range pr.params[i] {
		ps[j] = slices.Clone(f.Val(id))
	}
	lo, hi := val(f, pr.lower[i]), val(f, pr.upper[i])
	draw := func(out []float64) error {
		if r.Mix != nil {
			return c.sampleMixture(rng, r, ps, out)
		}
		if r.Fam.Sample == nil {
			if lo == nil || hi == nil {
				return &Error{Var: r.Name, Msg: fmt.Sprintf("%s is improper and has no draws; give it proper bounds (Bounds) or another prior for prior predictive sampling", r.Fam.Name)}
			}
			for k := range out {
				a, b := lo[k%len(lo)], hi[k%len(hi)]
				out[k] = a + (b-a)*rng.Float64()
			}
			return nil
		}
		r.Fam.Sample(rng, ps, out)
		return nil
	}
	if lo == nil && hi == nil {
		if err := draw(dst); err != nil {
			return err
		}
	} else {
		// Bounds truncate: redraw the elements that fall outside.
		tmp := make([]float64, len(dst))
		done := make([]bool, len(dst))
		left := len(dst)
		for try := 0; left > 0; try++ {
			if try == 1000 {
				return &Error{Var: r.Name, Msg: "1000 prior draws fell outside the variable's bounds; the prior puts almost no mass between them"}
			}
			if err := draw(tmp); err != nil {
				return err
			}
			for k, v := range tmp {
				if done[k] || lo != nil && !(v > lo[k%len(lo)]) || hi != nil && !(v < hi[k%len(hi)]) {
					continue
				}
				dst[k], done[k] = v, true
				left--
			}
		}
	}
	switch r.Order {
	case graph.Ordered:
		sort.Float64s(dst)
	case graph.PositiveOrdered:
		for k := range dst {
			dst[k] = math.Abs(dst[k])
		}
		sort.Float64s(dst)
	}
	return nil
}

// sampleMixture draws each element from a component chosen by the weights.
func (c *Compiled) sampleMixture(rng *rand.Rand, r *graph.RV, ps [][]float64, out []float64) error {
	mix := r.Mix
	w := ps[0]
	if len(w) == 1 {
		w = []float64{w[0], 1 - w[0]}
	}
	fams := make([]*dist.Family, len(mix.Comps))
	params := make([][][]float64, len(mix.Comps))
	j := 1
	for k, mc := range mix.Comps {
		if mc.Fam.Sample == nil {
			return &Error{Var: r.Name, Msg: fmt.Sprintf("component %d (%s) is improper and has no draws", k, mc.Fam.Name)}
		}
		fams[k] = mc.Fam
		params[k] = ps[j : j+len(mc.Params)]
		j += len(mc.Params)
	}
	dist.SampleMixture(rng, w, fams, params, out)
	return nil
}

// PriorPredictive draws n times from the model's prior, ancestrally: every
// random variable (observed ones too, ignoring their data) and every
// deterministic quantity. Result[name][i] is draw i of the variable,
// row-major. Improper priors (Flat without bounds) have no draws: an error
// names them. Explicit LogDensity terms cannot be drawn from and are left
// out: forward sampling follows the variables' own distributions.
func (c *Compiled) PriorPredictive(rng *rand.Rand, n int) (map[string][][]float64, error) {
	pr, err := c.predictiveProgram()
	if err != nil {
		return nil, err
	}
	m := c.m
	f := ir.NewFrame(pr.p)
	res := map[string][][]float64{}
	for range n {
		for i, r := range m.g.RVs {
			if err := c.sampleRV(rng, pr, f, i, r); err != nil {
				return nil, err
			}
		}
		f.Forward(f.V[:pr.dim])
		for _, r := range m.g.RVs {
			res[r.Name] = append(res[r.Name], slices.Clone(f.V[pr.voff[r]:pr.voff[r]+r.Value.Len()]))
		}
		for j, d := range m.g.Dets {
			res[d.Det] = append(res[d.Det], slices.Clone(f.Val(pr.dets[j])))
		}
	}
	return res, nil
}

// fill sets the latent variables' slots of a constrained position from a
// draw in the layout of Vars (Density.Constrained's output) and the
// observed variables' slots from their data.
func (c *Compiled) fill(pr *predictive, pos, draw []float64) error {
	if len(draw) < c.varLen-c.detLen() {
		return fmt.Errorf("ppl: %s: draw has %d values; want the %d of Vars (parameters first)", c.name, len(draw), c.varLen)
	}
	k := 0
	for _, l := range c.latents {
		n := l.RV.Value.Len()
		copy(pos[pr.voff[l.RV]:], draw[k:k+n])
		k += n
	}
	for _, r := range c.observed {
		copy(pos[pr.voff[r]:], r.Data)
	}
	return nil
}

func (c *Compiled) detLen() int {
	n := 0
	for _, v := range c.vars {
		if v.Deterministic {
			n += ir.ShapeLen(v.Shape)
		}
	}
	return n
}

// PosteriorPredictive draws the observed variables given one posterior
// draw (in the layout of Vars, as Density.Constrained writes it):
// replicated data, by name.
func (c *Compiled) PosteriorPredictive(rng *rand.Rand, draw []float64) (map[string][]float64, error) {
	pr, err := c.predictiveProgram()
	if err != nil {
		return nil, err
	}
	f := c.predFrames.Get().(*ir.Frame)
	defer c.predFrames.Put(f)
	if err := c.fill(pr, f.V, draw); err != nil {
		return nil, err
	}
	res := map[string][]float64{}
	for i, r := range c.m.g.RVs {
		if !r.Observed {
			continue
		}
		if err := c.sampleRV(rng, pr, f, i, r); err != nil {
			return nil, err
		}
		res[r.Name] = slices.Clone(f.V[pr.voff[r] : pr.voff[r]+r.Value.Len()])
	}
	return res, nil
}

// LogLikLen is the number of pointwise log-likelihood terms: the elements
// of every observed variable (events, for multivariate families).
func (c *Compiled) LogLikLen() int {
	n := 0
	for _, r := range c.observed {
		n += c.obsTerms(r)
	}
	return n
}

func (c *Compiled) obsTerms(r *graph.RV) int {
	if r.Fam != nil && r.Fam.EventRank > 0 && len(r.Value.Dims) > 0 {
		if r.Fam.Name == "CategoricalLogit" || r.Fam.Name == "Categorical" {
			return r.Value.Len()
		}
		s := r.Value.Dims
		return ir.ShapeLen(s[:max(0, len(s)-r.Fam.EventRank)])
	}
	return r.Value.Len()
}

// PointwiseLogLik writes the log density of every observed element (in
// the order of Observed, row-major) at one posterior draw (in the layout
// of Vars) into out (len LogLikLen), for LOO and WAIC.
func (c *Compiled) PointwiseLogLik(draw, out []float64) error {
	if err := c.stale(); err != nil {
		return err
	}
	c.llOnce.Do(func() {
		c.ll, c.llIDs, c.llErr = c.buildLogLik()
		if c.llErr == nil {
			c.llFrames.New = func() any { return ir.NewFrame(c.ll) }
		}
	})
	if c.llErr != nil {
		return c.llErr
	}
	pr, _ := c.predictiveProgram()
	f := c.llFrames.Get().(*ir.Frame)
	defer c.llFrames.Put(f)
	if err := c.fill(pr, f.V, draw); err != nil {
		return err
	}
	f.Forward(f.V[:c.ll.Dim])
	k := 0
	for _, id := range c.llIDs {
		k += copy(out[k:], f.Val(id))
	}
	return nil
}

func (c *Compiled) buildLogLik() (p *ir.Program, ids []ir.ID, err error) {
	pr, err := c.predictiveProgram()
	if err != nil {
		return nil, nil, err
	}
	defer Catch(&err)
	b := ir.NewBuilder(pr.dim)
	e := newEmitter(c, b)
	e.constrained, e.voff = true, pr.voff
	for _, r := range c.observed {
		// Observed values are slots of the position here, so that the
		// same program serves replicated data too.
		id, ok := e.logDensity(r, true)
		if !ok {
			id = b.Const(make([]float64, c.obsTerms(r)), []int{c.obsTerms(r)})
		}
		if got := ir.ShapeLen(b.Shape(id)); got != c.obsTerms(r) {
			return nil, nil, &Error{Var: r.Name, Msg: fmt.Sprintf("pointwise log density has %d terms, want %d", got, c.obsTerms(r))}
		}
		b.AddOutput(r.Name, id)
		ids = append(ids, id)
	}
	p, err = b.Finalize(ir.None)
	return p, ids, err
}
