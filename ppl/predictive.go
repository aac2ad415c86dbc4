package ppl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/dist"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/internal/compile"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

func (c *Compiled) predictiveProgram() (*compile.Predictive, error) {
	if err := c.stale(); err != nil {
		return nil, err
	}
	c.predOnce.Do(func() {
		c.pred, c.predErr = c.p.Predictive()
		c.predErr = fromCompile(c.predErr)
		if c.predErr == nil {
			// Frames are reused across calls: a frame of a large data set
			// is as large as the data.
			c.predFrames.New = func() any { return ir.NewFrame(c.pred.Program) }
		}
	})
	return c.pred, c.predErr
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
func (c *Compiled) sampleRV(rng *rand.Rand, pr *compile.Predictive, f *ir.Frame, i int, r *graph.RV) error {
	f.Forward(f.V[:pr.Dim])
	dst := f.V[pr.Offset[r] : pr.Offset[r]+r.Value.Len()]
	ps := make([][]float64, len(pr.Params[i]))
	for j, id := range pr.Params[i] {
		ps[j] = slices.Clone(f.Val(id))
	}
	lo, hi := val(f, pr.Lower[i]), val(f, pr.Upper[i])
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
		if lg := r.Params[0].Dims; (r.Fam.Name == "CategoricalLogit" || r.Fam.Name == "Categorical") && len(lg) == 2 && len(out) == lg[0] {
			// One row of logits per variate: the family's sampler takes
			// one logit vector for every draw it makes.
			k := lg[1]
			for i := range out {
				r.Fam.Sample(rng, [][]float64{ps[0][i*k : (i+1)*k]}, out[i:i+1])
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
	clipCensored(r, dst)
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
	f := ir.NewFrame(pr.Program)
	res := map[string][][]float64{}
	for range n {
		for i, r := range m.g.RVs {
			if err := c.sampleRV(rng, pr, f, i, r); err != nil {
				return nil, err
			}
		}
		f.Forward(f.V[:pr.Dim])
		for _, r := range m.g.RVs {
			res[r.Name] = append(res[r.Name], slices.Clone(f.V[pr.Offset[r]:pr.Offset[r]+r.Value.Len()]))
		}
		for j, d := range m.g.Dets {
			res[d.Det] = append(res[d.Det], slices.Clone(f.Val(pr.Dets[j])))
		}
	}
	return res, nil
}

// fill sets the latent variables' slots of a constrained position from a
// draw in the layout of Vars (Density.Constrained's output) and the
// observed variables' slots from their data.
func (c *Compiled) fill(pr *compile.Predictive, pos, draw []float64) error {
	if len(draw) < c.varLen-c.detLen() {
		return fmt.Errorf("ppl: %s: draw has %d values; want the %d of Vars (parameters first)", c.name, len(draw), c.varLen)
	}
	k := 0
	for _, l := range c.p.Latents {
		n := l.RV.Value.Len()
		copy(pos[pr.Offset[l.RV]:], draw[k:k+n])
		k += n
	}
	for _, r := range c.p.Observed {
		copy(pos[pr.Offset[r]:], r.Data)
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
// replicated data, by name, and, in a model with data containers, the
// deterministic quantities there. A variable summed out (enumerated) is
// drawn first, each element from its posterior probabilities at the draw
// (its _probs), and the observed variables given that value; its values
// come back under its name too.
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
	for _, e := range c.enums {
		n := e.rv.Value.Len()
		if len(draw) < e.probsAt+n*e.k {
			return nil, fmt.Errorf("ppl: %s: draw has %d values; want the %d of Vars (%s included)", c.name, len(draw), c.varLen, e.probs)
		}
		dst := f.V[pr.Offset[e.rv] : pr.Offset[e.rv]+n]
		for i := range dst {
			dst[i] = float64(drawCategory(rng, draw[e.probsAt+i*e.k:e.probsAt+(i+1)*e.k]))
		}
		res[e.rv.Name] = slices.Clone(dst)
	}
	for i, r := range c.m.g.RVs {
		if !r.Observed {
			continue
		}
		if err := c.sampleRV(rng, pr, f, i, r); err != nil {
			return nil, err
		}
		res[r.Name] = slices.Clone(f.V[pr.Offset[r] : pr.Offset[r]+r.Value.Len()])
	}
	if len(c.m.g.Data) > 0 && len(c.m.g.Dets) > 0 {
		// Only a model with data containers reports them (dataDets): the
		// others skip a forward pass and a copy per draw.
		f.Forward(f.V[:pr.Dim])
		for j, d := range c.m.g.Dets {
			res[d.Det] = slices.Clone(f.Val(pr.Dets[j]))
		}
	}
	return res, nil
}

// drawCategory draws k with probability p[k] (p sums to one, up to
// rounding: the last category takes what is left).
func drawCategory(rng *rand.Rand, p []float64) int {
	u := rng.Float64()
	for k, pk := range p[:len(p)-1] {
		if u < pk {
			return k
		}
		u -= pk
	}
	return len(p) - 1
}

// enumVars are the variables summed out (enumerated), which predictive
// draws give values.
func (c *Compiled) enumVars() []infer.Var {
	var vs []infer.Var
	for _, e := range c.enums {
		vs = append(vs, infer.Var{Name: e.rv.Name, Shape: slices.Clone(e.rv.Value.Dims)})
	}
	return vs
}

// LogLikLen is the number of pointwise log-likelihood terms: the elements
// of every observed variable (events, for multivariate families).
func (c *Compiled) LogLikLen() int {
	n := 0
	for _, r := range c.p.Observed {
		n += compile.ObsTerms(r)
	}
	return n
}

// PointwiseLogLik writes the log density of every observed element (in
// the order of Observed, row-major) at one posterior draw (in the layout
// of Vars) into out (len LogLikLen), for LOO and WAIC. An element whose
// density uses a summed-out (enumerated) variable gets log p(yⱼ | y₋ⱼ, θ),
// that variable marginalised (see enumerate.go).
func (c *Compiled) PointwiseLogLik(draw, out []float64) error {
	if err := c.stale(); err != nil {
		return err
	}
	c.llOnce.Do(func() {
		pr, err := c.predictiveProgram()
		if err != nil {
			c.llErr = err
			return
		}
		c.ll, c.llIDs, c.llErr = c.p.LogLik(pr)
		c.llErr = fromCompile(c.llErr)
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
