package ppl

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/cpu"
	"github.com/gobayes/gobayes/accel/fuse"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/internal/compile"
	"github.com/gobayes/gobayes/ppl/internal/shard"
)

// Compiled is a model compiled into ir programs: the log density over the
// unconstrained position with its gradient, and the constrained values of
// every recorded variable. It implements infer.Model for the samplers and
// is safe for concurrent use (each goroutine evaluates with its own
// Density).
type Compiled struct {
	m        *Model
	version  int               // the model's version when compiled
	p        *compile.Programs // the layout and the programs
	name     string
	dim      int
	params   []Param
	vars     []infer.Var
	varLen   int
	valueIDs []ir.ID      // vars in p.Values
	pool     sync.Pool    // of *Density, for the convenience methods
	enums    []enumerated // the variables summed out (enumerate.go)

	// placed is the sharded log density compiled on a ShardedBackend (an
	// MPI job): one for every chain of a run.
	placed struct {
		sync.Mutex
		b   accel.ShardedBackend
		acc accel.Compiled
	}

	predOnce   sync.Once
	pred       *compile.Predictive
	predErr    error
	predFrames sync.Pool
	llOnce     sync.Once
	ll         *ir.Program
	llIDs      []ir.ID
	llErr      error
	llFrames   sync.Pool
}

var _ infer.Model = (*Compiled)(nil)

// Param describes one free parameter of a compiled model.
type Param struct {
	Name  string
	Shape []int // constrained shape
	// Offset and Len locate its slots in the unconstrained position.
	Offset, Len int
	// Transform names the bijector: identity, lower, upper, interval,
	// ordered, positive_ordered, simplex, cholesky_corr.
	Transform string
}

// Compile lays out the unconstrained position, picks each parameter's
// bijector, and compiles the log density (Jacobians included) and the
// constrained values into ir programs (package ppl/internal/compile does
// the work). The result is cached until the model changes. Errors name
// the variable at fault.
func (m *Model) Compile() (*Compiled, error) {
	if m.compiled != nil || m.cerr != nil {
		return m.compiled, m.cerr
	}
	if err := m.checkDims(); err != nil {
		m.cerr = err
		return nil, err
	}
	if err := m.checkDomains(); err != nil {
		m.cerr = err
		return nil, err
	}
	c, err := compileModel(m, m.shards)
	m.compiled, m.cerr = c, err
	return c, err
}

// compileOnRanks is the model compiled for an MPI job of n ranks: its
// observed rows split into n shards (whose blocks the ranks hold), unless
// Shards set a number of its own. The parameters' layout is Compile's.
func (m *Model) compileOnRanks(n int) (*Compiled, error) {
	if m.shards != 0 || n < 2 {
		return m.Compile()
	}
	if c := m.onRanks; c != nil && c.version == m.version && c.p.Plan.Shards == n {
		return c, nil
	}
	own, err := m.Compile()
	if err != nil {
		return nil, err
	}
	if own.p.Plan.Shards == n {
		// The automatic choice made as many shards (one per core here):
		// the same programs, not a second copy of the data.
		return own, nil
	}
	c, err := compileModel(m, n)
	if err == nil {
		m.onRanks = c
	}
	return c, err
}

func compileModel(m *Model, shards int) (*Compiled, error) {
	g, enums, err := m.enumerate()
	if err != nil {
		return nil, err
	}
	// ppl states that its programs run accel/fuse's kernels of model
	// structure: the planner is passed here, not installed by an import.
	p, err := compile.Compile(g, compile.Sharding{Shards: shards, AutoVolume: AutoShardVolume}, fuse.Plan)
	if err != nil {
		return nil, fromCompile(err)
	}
	c := &Compiled{m: m, version: m.version, p: p, name: m.g.Name, dim: p.Dim, enums: enums}
	for _, l := range p.Latents {
		shape := l.RV.Value.Dims
		c.params = append(c.params, Param{Name: l.RV.Name, Shape: slices.Clone(shape), Offset: l.Offset, Len: l.Len, Transform: l.Transform.String()})
		c.vars = append(c.vars, infer.Var{Name: l.RV.Name, Shape: slices.Clone(shape)})
	}
	for _, d := range g.Dets {
		c.vars = append(c.vars, infer.Var{Name: d.Det, Shape: slices.Clone(d.Dims), Deterministic: true})
	}
	c.valueIDs = make([]ir.ID, len(c.vars))
	for i, v := range c.vars {
		for j := range c.enums {
			if c.enums[j].probs == v.Name {
				c.enums[j].probsAt = c.varLen
			}
		}
		c.varLen += ir.ShapeLen(v.Shape)
		c.valueIDs[i] = p.Values.Output(v.Name)
	}
	c.pool.New = func() any { return c.NewDensity() }
	return c, nil
}

// stale reports a model changed since it was compiled: the programs built
// lazily (predictive, log-likelihood) would no longer match the layout.
func (c *Compiled) stale() error {
	if c.m.version != c.version {
		return &Error{Var: c.name, Msg: "the model changed after it was compiled; compile it again"}
	}
	return nil
}

// Name is the model's name.
func (c *Compiled) Name() string { return c.name }

// Dim is the length of the unconstrained position.
func (c *Compiled) Dim() int { return c.dim }

// Vars lists what a draw records: the free parameters (constrained), then
// the deterministic quantities, in declaration order.
func (c *Compiled) Vars() []infer.Var { return slices.Clone(c.vars) }

// VarLen is the number of scalars of one draw (the length of
// Density.Constrained's out).
func (c *Compiled) VarLen() int { return c.varLen }

// Params describes the free parameters and their places in the
// unconstrained position.
func (c *Compiled) Params() []Param { return slices.Clone(c.params) }

// Observed lists the observed variables (name and shape), in declaration
// order: the layout of PosteriorPredictive and PointwiseLogLik.
func (c *Compiled) Observed() []infer.Var {
	vs := make([]infer.Var, len(c.p.Observed))
	for i, r := range c.p.Observed {
		vs[i] = infer.Var{Name: r.Name, Shape: slices.Clone(r.Value.Dims)}
	}
	return vs
}

// Program is the log-density program, for backends that evaluate it
// themselves (accel/cpu batches, accel/cuda). Data sharding splits the
// observed variables' terms of this program.
func (c *Compiled) Program() *ir.Program { return c.p.Density }

// Term is one summand of the log density in Program.
type Term struct {
	// Name is the variable's name for its log density, "jacobian(name)"
	// for a bijector's log-Jacobian, or the name of a LogDensity term.
	Name string
	// ID is the term's scalar value in Program.
	ID ir.ID
	// Observed marks an observed variable's log-likelihood: the terms over
	// data that a backend may split into shards.
	Observed bool
}

// Terms lists the summands of the log density, in the order they are
// added.
func (c *Compiled) Terms() []Term {
	obs := map[string]bool{}
	for _, r := range c.p.Observed {
		obs[r.Name] = true
	}
	ts := make([]Term, len(c.p.TermIDs))
	for i, id := range c.p.TermIDs {
		ts[i] = Term{Name: c.p.TermNames[i], ID: id, Observed: obs[c.p.TermNames[i]]}
	}
	return ts
}

// Density evaluates a compiled model at unconstrained positions with its
// own scratch memory: not safe for concurrent use, never allocating.
//
// Its log density and gradient go through the accel contract: a batch of
// one position on the backend the run chose (accel/cpu, on the caller's
// goroutine, unless Backend says otherwise), so that NUTS, HMC, MAP and
// ADVI evaluate the model the way the many-chain samplers do. A sharded
// model evaluates its shards itself (see Shards).
type Density struct {
	c   *Compiled
	acc accel.Compiled // the log density and gradient; nil for a sharded model
	one *cpu.Compiled  // acc when it is the CPU's: called directly, not through the interface
	lp  [1]float64
	f   *ir.Frame        // the whole log density by term, for NonFinite; built on first need
	v   *ir.Frame        // constrained values
	sh  *shard.Evaluator // the blocks' frames, nil when the model is not sharded
}

var _ infer.Density = (*Density)(nil)

// NewDensity returns an evaluator for one goroutine, on the CPU.
func (c *Compiled) NewDensity() infer.Density { return c.newDensity() }

func (c *Compiled) newDensity() *Density {
	d, err := c.newDensityOn(nil)
	if err != nil {
		panic(err) // accel/cpu compiles every finalized program
	}
	return d
}

// oneCPU is the backend of one-chain evaluators: batches of one on the
// caller's goroutine.
var oneCPU = cpu.New(1)

// newDensityOn is an evaluator whose log density runs on b (nil: the
// CPU).
func (c *Compiled) newDensityOn(b accel.Backend) (*Density, error) {
	d := &Density{c: c, v: ir.NewFrame(c.p.Values)}
	if c.p.ShardBlocks != nil {
		if sb, ok := b.(accel.ShardedBackend); ok {
			// The blocks live on the backend's processes: one program
			// for every chain, compiled (the data sent) once.
			acc, err := c.placeShards(sb)
			if err != nil {
				return nil, err
			}
			d.acc = acc
			return d, nil
		}
		d.sh = shard.New(c.p.ShardMain, c.p.ShardBlocks, c.p.Plan.Shards, c.dim)
		return d, nil
	}
	if b == nil {
		b = oneCPU
	}
	acc, err := b.Compile(c.p.Density)
	if err != nil {
		return nil, err
	}
	d.acc = acc
	d.one, _ = acc.(*cpu.Compiled)
	return d, nil
}

// placeShards compiles the sharded log density on b once per backend:
// the blocks' data go to b's processes here, not per chain. A
// ShardedBackend's programs are safe for concurrent use.
func (c *Compiled) placeShards(b accel.ShardedBackend) (accel.Compiled, error) {
	c.placed.Lock()
	defer c.placed.Unlock()
	if c.placed.b != b {
		blocks, err := c.fileBlocks(b) // ranks read their rows of files (table_data.go)
		if err != nil {
			return nil, err
		}
		acc, err := b.CompileSharded(c.p.ShardMain, blocks)
		if err != nil {
			return nil, err
		}
		c.placed.b, c.placed.acc = b, acc
	}
	return c.placed.acc, nil
}

// unplace forgets the program placed on a ShardedBackend (its job has
// ended).
func (c *Compiled) unplace() {
	c.placed.Lock()
	c.placed.b, c.placed.acc = nil, nil
	c.placed.Unlock()
}

// onBackend is a compiled model whose evaluators run on a chosen backend:
// what Sample hands the one-chain samplers.
type onBackend struct {
	*Compiled
	b accel.Backend
}

func (o onBackend) NewDensity() infer.Density {
	d, err := o.newDensityOn(o.b)
	if err != nil {
		panic(&Error{Msg: fmt.Sprintf("the %s backend cannot compile %s: %v", o.b.Name(), o.name, err)})
	}
	return d
}

// full is the frame of the whole log density (every term in one program),
// for NonFinite.
func (d *Density) full() *ir.Frame {
	if d.f == nil {
		d.f = ir.NewFrame(d.c.p.Density)
	}
	return d.f
}

// LogDensity is the log density at x (Jacobians included); -Inf where it
// is not finite.
func (d *Density) LogDensity(x []float64) float64 {
	if d.sh != nil {
		return finite(d.sh.Eval(x, nil))
	}
	d.eval(x, nil)
	return d.lp[0]
}

// LogDensityGrad returns the log density at x and writes its gradient into
// grad. A sharded model evaluates its shards in parallel and sums them.
func (d *Density) LogDensityGrad(x, grad []float64) float64 {
	if d.one != nil {
		// The CPU backend's one-position method, on its concrete type: for
		// the smallest models an interface call, or a batch of one through
		// slices, costs a visible share of a gradient.
		return finite(d.one.Gradient(x, grad))
	}
	if d.sh != nil {
		return finite(d.sh.Eval(x, grad))
	}
	d.eval(x, grad)
	return d.lp[0]
}

// eval is one position through the backend. A backend's failure (a GPU
// worker that died) panics with its error: the samplers turn a panic in a
// chain into that chain's error.
func (d *Density) eval(x, grad []float64) {
	if err := d.acc.LogDensityGrad(x, d.lp[:], grad); err != nil {
		d.fail(err)
	}
}

// fail is eval's cold path, apart so that eval inlines.
//
//go:noinline
func (d *Density) fail(err error) {
	panic(fmt.Errorf("%s backend: %w", d.c.name, err))
}

func finite(lp float64) float64 {
	if math.IsNaN(lp) || math.IsInf(lp, 1) {
		return math.Inf(-1)
	}
	return lp
}

// Batch evaluates B positions laid out row by row in xs [B×Dim], writing
// the log densities into lps [B] and the gradients row by row into grads
// [B×Dim] (nil grads: log densities only).
func (d *Density) Batch(xs, lps, grads []float64) {
	n := d.c.dim
	for i := range lps {
		x := xs[i*n : (i+1)*n]
		if grads == nil {
			lps[i] = d.LogDensity(x)
			continue
		}
		lps[i] = d.LogDensityGrad(x, grads[i*n:(i+1)*n])
	}
}

// Constrained writes every scalar of Vars at x, in order, into out (len
// VarLen).
func (d *Density) Constrained(x []float64, out []float64) {
	d.v.Forward(x)
	k := 0
	for _, id := range d.c.valueIDs {
		k += copy(out[k:], d.v.Val(id))
	}
}

// NonFinite names the log-density terms that are not finite at x: a
// variable's name for its log density, "jacobian(name)" for a bijector's,
// and the names of explicit LogDensity terms.
func (d *Density) NonFinite(x []float64) []string {
	f := d.full()
	f.Forward(x)
	var bad []string
	for i, id := range d.c.p.TermIDs {
		if v := f.Val(id)[0]; math.IsNaN(v) || math.IsInf(v, 0) {
			bad = append(bad, d.c.p.TermNames[i])
		}
	}
	return bad
}

// LogDensityGrad is the log density at the unconstrained position x, its
// gradient written into grad. It borrows a pooled Density: samplers should
// hold their own (NewDensity) instead.
func (c *Compiled) LogDensityGrad(x, grad []float64) float64 {
	d := c.pool.Get().(*Density)
	defer c.pool.Put(d)
	return d.LogDensityGrad(x, grad)
}

// LogDensity is the log density at the unconstrained position x.
func (c *Compiled) LogDensity(x []float64) float64 {
	d := c.pool.Get().(*Density)
	defer c.pool.Put(d)
	return d.LogDensity(x)
}

// Constrain maps the unconstrained position x to the values of every
// recorded variable (parameters and deterministic quantities) by name.
func (c *Compiled) Constrain(x []float64) (map[string][]float64, error) {
	if len(x) != c.dim {
		return nil, fmt.Errorf("ppl: %s: position has %d values; the model has %d", c.name, len(x), c.dim)
	}
	d := c.pool.Get().(*Density)
	defer c.pool.Put(d)
	flat := make([]float64, c.varLen)
	d.Constrained(x, flat)
	out := make(map[string][]float64, len(c.vars))
	k := 0
	for _, v := range c.vars {
		n := ir.ShapeLen(v.Shape)
		out[v.Name] = flat[k : k+n : k+n]
		k += n
	}
	return out, nil
}
