package compile

import (
	"fmt"
	"math"
	"slices"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/dist"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// Transform is the bijector from a parameter's unconstrained slots to its
// constrained value.
type Transform uint8

const (
	Identity   Transform = iota
	Lower                // (lower, ∞): lower + exp(x)
	Upper                // (-∞, upper): upper - exp(x)
	Interval             // (lower, upper): a scaled logistic
	Ordered              // increasing: cumulative sums of exp after the first
	PosOrdered           // positive and increasing
	Simplex              // stick-breaking, K-1 slots per simplex of K
	CholCorr             // Cholesky factor of a correlation matrix, K(K-1)/2 slots
)

var transformNames = [...]string{"identity", "lower", "upper", "interval", "ordered", "positive_ordered", "simplex", "cholesky_corr"}

// String is the bijector's name as ppl.Param reports it.
func (t Transform) String() string { return transformNames[t] }

// Latent is a free parameter's place in the unconstrained position and
// its bijector.
type Latent struct {
	RV        *graph.RV
	Transform Transform
	// Lower and Upper are the bounds the bijector uses (the bound options,
	// or the family's support), nil when absent.
	Lower, Upper *graph.Node
	// Offset and Len locate its slots.
	Offset, Len int
}

// Programs is a model compiled: the layout of the unconstrained position
// and the ir programs over it.
type Programs struct {
	Name     string
	Dim      int         // length of the unconstrained position
	Latents  []Latent    // the free parameters, in declaration order
	Observed []*graph.RV // the observed variables, in declaration order
	// Density's target is the log density (Jacobians included); its
	// outputs are the latents' constrained values, the deterministic
	// quantities (by name) and every term of the target ("term:"+name).
	// TermIDs are the terms' values in it, TermNames their names: a
	// variable's name for its log density, "jacobian(name)" for a
	// bijector's, a LogDensity term's name.
	Density   *ir.Program
	TermIDs   []ir.ID
	TermNames []string
	// Values computes the outputs of Density without the log density.
	Values *ir.Program
	// Plan says how the observed data are sharded; when they are,
	// ShardMain and ShardBlocks are the programs whose targets sum to
	// Density's (see shard.go).
	Plan        ShardPlan
	ShardMain   *ir.Program
	ShardBlocks []*ir.Program

	m *graph.Model
	// planner plans every program built here (ir.Builder.SetPlanner).
	planner ir.Planner
}

// Compile lays out the unconstrained position of m, picks each free
// parameter's bijector, and compiles the log density (Jacobians included)
// and the constrained values into ir programs, sharding the observed data
// as sh says. Every program is planned with pl (ppl passes accel/fuse's
// Plan; nil runs accel/ir's own kernels only). Errors are *Error naming
// the variable at fault.
func Compile(m *graph.Model, sh Sharding, pl ir.Planner) (c *Programs, err error) {
	defer func() {
		if err != nil {
			c = nil
		}
	}()
	defer catch(&err)
	c = &Programs{m: m, Name: m.Name, planner: pl}
	// Layout of the unconstrained position, in declaration order.
	for _, r := range m.RVs {
		if r.Observed {
			c.Observed = append(c.Observed, r)
			continue
		}
		l := layout(r, c.Dim)
		c.Dim += l.Len
		c.Latents = append(c.Latents, l)
	}
	if c.Density, c.TermIDs, c.TermNames, err = c.buildProgram(true, true, nil); err != nil {
		return nil, err
	}
	if c.Values, _, _, err = c.buildProgram(false, true, nil); err != nil {
		return nil, err
	}
	if err = c.planShards(sh); err != nil {
		return nil, err
	}
	return c, nil
}

// Fold computes n now when it depends on data alone (observed variables
// count as data); ok is false when it depends on a parameter or a scan's
// placeholder. Package ppl folds an expression given as observed data
// (Log(y)) this way; errors name the variable name.
func Fold(name string, n *graph.Node) (data []float64, ok bool, err error) {
	defer catch(&err)
	e := &emitter{c: &Programs{}, ids: map[*graph.Node]ir.ID{}, ctx: name}
	if !e.constTree(n) {
		return nil, false, nil
	}
	return e.fold(n), true, nil
}

// layout picks the bijector of a free parameter at position offset off.
func layout(r *graph.RV, off int) Latent {
	l := Latent{RV: r, Offset: off, Len: r.Value.Len(), Lower: r.Lower, Upper: r.Upper}
	if r.Censor != nil {
		failf(r.Name, "Censored applies to observed variables; observe this one (Observed or Observe), or drop Censored")
	}
	if r.Fam != nil && r.Fam.Discrete || r.Mix != nil && r.Mix.Comps[0].Fam.Discrete {
		failf(r.Name, "%s is discrete and not observed; the samplers need continuous parameters: observe it, or marginalise it (sum its values' probabilities with LogSumExp in a LogDensity term)", r.FamName())
	}
	if r.Mix != nil {
		switch r.Support().Kind {
		case dist.Simplex, dist.CholeskyCorr, dist.Bounded:
			failf(r.Name, "a latent mixture needs components on the real line, the positive reals or (0, 1); observe it, or write its log density with LogMix in a LogDensity term")
		}
	}
	switch r.Order {
	case graph.Ordered:
		l.Transform = Ordered
		if r.Support().Kind == dist.Positive {
			l.Transform = PosOrdered // an ordered vector of a positive family
		}
		return l
	case graph.PositiveOrdered:
		l.Transform = PosOrdered
		return l
	}
	sup := r.Support()
	switch sup.Kind {
	case dist.Positive:
		if l.Lower == nil {
			l.Lower = graph.Scalar(0)
		}
	case dist.UnitInterval:
		if l.Lower == nil {
			l.Lower = graph.Scalar(0)
		}
		if l.Upper == nil {
			l.Upper = graph.Scalar(1)
		}
	case dist.Bounded:
		if l.Lower == nil && sup.Lower >= 0 {
			l.Lower = r.Params[sup.Lower]
		}
		if l.Upper == nil && sup.Upper >= 0 {
			l.Upper = r.Params[sup.Upper]
		}
	case dist.Simplex:
		// One simplex [K], or one per row [N K].
		if len(r.Value.Dims) < 1 || len(r.Value.Dims) > 2 || r.Value.Dims[len(r.Value.Dims)-1] < 2 {
			failf(r.Name, "a simplex parameter is a vector [K] or rows [N K] with K ≥ 2, not shape %v", r.Value.Dims)
		}
		k := r.Value.Dims[len(r.Value.Dims)-1]
		l.Transform, l.Len = Simplex, r.Value.Len()/k*(k-1)
		return l
	case dist.CholeskyCorr:
		k := r.Value.Dims[0]
		l.Transform, l.Len = CholCorr, k*(k-1)/2
		return l
	}
	switch {
	case l.Lower != nil && l.Upper != nil:
		l.Transform = Interval
	case l.Lower != nil:
		l.Transform = Lower
	case l.Upper != nil:
		l.Transform = Upper
	}
	return l
}

// emitter turns model nodes into ir values, each node once.
type emitter struct {
	c   *Programs
	b   *ir.Builder
	ids map[*graph.Node]ir.ID
	// constrained: random variables are slots of a position of
	// constrained values (voff) rather than bijected unconstrained slots.
	constrained bool
	voff        map[*graph.RV]int
	latentOf    map[*graph.RV]*Latent
	// terms collects the log-density terms (and their names) in the order
	// they are emitted; jacobians are added as parameters are.
	terms     []ir.ID
	termNames []string
	// ctx names what is being emitted, for errors.
	ctx string
	// inputs maps the placeholders of a scan body being traced.
	inputs map[*graph.Node]ir.ID
	outer  *emitter
	// noFold turns constant folding off (inside the folder itself);
	// isConst memoises constTree.
	noFold  bool
	isConst map[*graph.Node]bool
	// cse maps an instruction (op, inputs, immediates) to its value.
	cse map[string]ir.ID
}

// constTree reports whether n depends on no random variable and no scan
// placeholder: its value is known when the model is compiled.
func (e *emitter) constTree(n *graph.Node) bool {
	if v, ok := e.isConst[n]; ok {
		return v
	}
	v := true
	switch n.Kind {
	case graph.KRV:
		v = n.RV.Observed && !e.constrained
	case graph.KInput, graph.KSlots:
		v = false
	case graph.KOp:
		if n.Op == ir.OpScan {
			v = false
		}
	}
	for _, a := range n.Args {
		if v && !e.constTree(a) {
			v = false
		}
	}
	if e.isConst == nil {
		e.isConst = map[*graph.Node]bool{}
	}
	e.isConst[n] = v
	return v
}

// fold evaluates a constant expression once, at compile time, so that the
// program carries its value rather than recomputing it at every
// evaluation.
func (e *emitter) fold(n *graph.Node) []float64 {
	b := ir.NewBuilder(0)
	fe := &emitter{c: e.c, b: b, ids: map[*graph.Node]ir.ID{}, noFold: true, ctx: e.ctx}
	id := fe.emit(n)
	b.AddOutput("value", id)
	p, err := b.Finalize(ir.None)
	e.check(err)
	f := ir.NewFrame(p)
	f.Forward(nil)
	return slices.Clone(f.Val(id))
}

func newEmitter(c *Programs, b *ir.Builder) *emitter {
	e := &emitter{c: c, b: b, ids: map[*graph.Node]ir.ID{}, latentOf: map[*graph.RV]*Latent{}}
	for i := range c.Latents {
		e.latentOf[c.Latents[i].RV] = &c.Latents[i]
	}
	return e
}

// check panics with an *Error naming the current variable when err is set.
func (e *emitter) check(err error) {
	if err != nil {
		panic(&Error{Var: e.ctx, Msg: err.Error()})
	}
}

func (e *emitter) emitOp(op ir.Op, in []ir.ID, ints []int) ir.ID {
	id, err := e.b.Emit(op, in, ints, -1)
	e.check(err)
	return id
}

// emit returns the ir value of n, emitting it (and what it depends on)
// once.
func (e *emitter) emit(n *graph.Node) ir.ID {
	if id, ok := e.ids[n]; ok {
		return id
	}
	var id ir.ID
	switch n.Kind {
	case graph.KConst:
		id = e.b.SharedConst(n.Data, n.Dims) // a node's data never change: the program reads them in place
	case graph.KRV:
		id = e.rvValue(n.RV)
	case graph.KReshape:
		src := e.emit(n.Args[0])
		var err error
		id, err = e.b.Reshape(src, n.Dims)
		e.check(err)
	case graph.KSlots:
		id = e.b.ParamSlice(n.Ints[0], n.Dims)
	case graph.KInput:
		var ok bool
		if id, ok = e.inputs[n]; !ok {
			failf(e.ctx, "a scan's placeholder was used outside its step function")
		}
	case graph.KOp:
		if n.Op == ir.OpScan {
			id = e.emitScan(n)
			break
		}
		if !e.noFold && e.constTree(n) {
			id = e.b.SharedConst(e.fold(n), n.Dims)
			break
		}
		src := n
		if n.Op == ir.OpSum && n.Args[0].Fn == "LogPDF" {
			// Sum(LogPDF(…)): the log density op sums its terms itself,
			// without writing them out.
			src = &graph.Node{Kind: graph.KOp, Op: n.Args[0].Op, Fn: "LogPDF", Args: n.Args[0].Args, Model: n.Model}
		}
		in := make([]ir.ID, len(src.Args))
		for i, a := range src.Args {
			in[i] = e.emit(a)
		}
		// Equal instructions over equal inputs are emitted once (two
		// calls of Exp(a) in a model give one value).
		key := fmt.Sprint(src.Op, in, src.Ints, src.Table)
		if prev, ok := e.cse[key]; ok {
			id = prev
			break
		}
		table := -1
		if src.Table != nil {
			table = e.b.Table(src.Table)
		}
		var err error
		id, err = e.b.Emit(src.Op, in, src.Ints, table)
		if e.cse == nil {
			e.cse = map[string]ir.ID{}
		}
		e.cse[key] = id
		if err != nil {
			panic(&Error{Var: e.ctx, Msg: fmt.Sprintf("%s: %v", src.String(), err)})
		}
	}
	e.ids[n] = id
	return id
}

// rvValue is the value of a random variable: a slot of the constrained
// position in constrained mode, data when observed, otherwise its bijector
// applied to its unconstrained slots (adding the log-Jacobian term).
func (e *emitter) rvValue(r *graph.RV) ir.ID {
	if e.constrained {
		return e.b.ParamSlice(e.voff[r], r.Value.Dims)
	}
	if r.Observed {
		return e.b.SharedConst(r.Data, r.Value.Dims)
	}
	l := e.latentOf[r]
	saved := e.ctx
	e.ctx = r.Name
	defer func() { e.ctx = saved }()
	shape := r.Value.Dims
	if l.Transform == Identity {
		return e.b.ParamSlice(l.Offset, shape)
	}
	ushape := shape
	if l.Transform == Simplex || l.Transform == CholCorr {
		ushape = []int{l.Len}
	}
	if l.Transform == Simplex && len(shape) == 2 {
		return e.simplexRows(r, l)
	}
	x := e.b.ParamSlice(l.Offset, ushape)
	var in []ir.ID
	var fwd, logj ir.Op
	switch l.Transform {
	case Lower:
		in, fwd, logj = []ir.ID{x, e.emit(l.Lower)}, ir.OpLowerFwd, ir.OpLowerLogJ
	case Upper:
		in, fwd, logj = []ir.ID{x, e.emit(l.Upper)}, ir.OpUpperFwd, ir.OpUpperLogJ
	case Interval:
		in, fwd, logj = []ir.ID{x, e.emit(l.Lower), e.emit(l.Upper)}, ir.OpIntervalFwd, ir.OpIntervalLogJ
	case Ordered:
		in, fwd, logj = []ir.ID{x}, ir.OpOrderedFwd, ir.OpOrderedLogJ
	case PosOrdered:
		in, fwd, logj = []ir.ID{x}, ir.OpPosOrderedFwd, ir.OpPosOrderedLogJ
	case Simplex:
		in, fwd, logj = []ir.ID{x}, ir.OpSimplexFwd, ir.OpSimplexLogJ
	case CholCorr:
		in, fwd, logj = []ir.ID{x}, ir.OpCholCorrFwd, ir.OpCholCorrLogJ
	}
	v := e.emitOp(fwd, in, nil)
	if !slices.Equal(e.b.Shape(v), shape) {
		var err error
		v, err = e.b.Reshape(v, shape)
		e.check(err)
	}
	e.terms = append(e.terms, e.emitOp(logj, in, nil))
	e.termNames = append(e.termNames, "jacobian("+r.Name+")")
	return v
}

// simplexRows maps N rows of K-1 unconstrained slots to N simplexes [N K].
func (e *emitter) simplexRows(r *graph.RV, l *Latent) ir.ID {
	n, k := r.Value.Dims[0], r.Value.Dims[1]
	rows := make([]ir.ID, n)
	jac := make([]ir.ID, n)
	for i := range n {
		x := e.b.ParamSlice(l.Offset+i*(k-1), []int{k - 1})
		rows[i] = e.emitOp(ir.OpSimplexFwd, []ir.ID{x}, nil)
		jac[i] = e.emitOp(ir.OpSimplexLogJ, []ir.ID{x}, nil)
	}
	e.terms = append(e.terms, e.emitOp(ir.OpAddN, jac, nil))
	e.termNames = append(e.termNames, "jacobian("+r.Name+")")
	return e.emitOp(ir.OpConcat, rows, []int{n, k})
}

// logDensity emits the log density of random variable r at its value:
// the sum (pointwise false) or one term per element (pointwise true).
func (e *emitter) logDensity(r *graph.RV, pointwise bool) (ir.ID, bool) {
	saved := e.ctx
	e.ctx = r.Name
	defer func() { e.ctx = saved }()
	y := e.emit(r.Value)
	var ints []int
	if pointwise {
		ints = []int{1}
	}
	if r.Mix != nil {
		return e.mixtureDensity(r, y, pointwise), true
	}
	if r.Pointwise != nil {
		lp := e.emit(r.Pointwise)
		if !pointwise {
			lp = e.emitOp(ir.OpSum, []ir.ID{lp}, nil)
		}
		return lp, true
	}
	if r.Fam.Op == ir.OpNop {
		return ir.None, false
	}
	in := []ir.ID{y}
	for _, p := range r.Params {
		in = append(in, e.emit(p))
	}
	if r.Censor != nil {
		return e.censoredDensity(r, y, in[1:], pointwise), true
	}
	lp := e.emitOp(r.Fam.Op, in, ints)
	if r.Truncated {
		lp = e.truncate(r, lp, in[1:], pointwise)
	}
	return lp, true
}

// mixtureDensity is log Σₖ wₖ pₖ(y), elementwise, then summed unless
// pointwise.
func (e *emitter) mixtureDensity(r *graph.RV, y ir.ID, pointwise bool) ir.ID {
	mix := r.Mix
	lps := make([]ir.ID, len(mix.Comps))
	for k, c := range mix.Comps {
		in := []ir.ID{y}
		for _, p := range c.Params {
			in = append(in, e.emit(p))
		}
		lps[k] = e.emitOp(c.Fam.Op, in, []int{1})
	}
	w := e.emit(mix.Weights)
	var acc ir.ID
	if mix.Weights.Len() == 1 {
		acc = e.emitOp(ir.OpLogMix, []ir.ID{w, lps[0], lps[1]}, nil)
	} else {
		// Pairwise: log(eᵃ + eᵇ) = log_mix(½, a, b) + log 2.
		half, ln2 := e.b.Scalar(0.5), e.b.Scalar(math.Ln2)
		logw := e.emitOp(ir.OpLog, []ir.ID{w}, nil)
		for k := range lps {
			wk := e.emitOp(ir.OpSlice, []ir.ID{logw}, []int{k, 1})
			t := e.emitOp(ir.OpAdd, []ir.ID{lps[k], wk}, nil)
			if k == 0 {
				acc = t
				continue
			}
			acc = e.emitOp(ir.OpLogMix, []ir.ID{half, acc, t}, nil)
			acc = e.emitOp(ir.OpAdd, []ir.ID{acc, ln2}, nil)
		}
	}
	if pointwise {
		return acc
	}
	return e.emitOp(ir.OpSum, []ir.ID{acc}, nil)
}

// buildProgram compiles a program over the unconstrained position: with
// target, the log density (leaving out the log densities of the observed
// variables and the LogDensity terms named in skip, which shards compute) with, when outputs is set,
// every term's value as an output (named by termNames); with outputs, the
// recorded variables as outputs.
func (c *Programs) buildProgram(withTarget, outputs bool, skip map[string]bool) (p *ir.Program, termIDs []ir.ID, termNames []string, err error) {
	defer catch(&err)
	m := c.m
	b := c.newBuilder(c.Dim)
	e := newEmitter(c, b)
	for _, l := range c.Latents {
		e.emit(l.RV.Value)
	}
	if withTarget {
		for _, r := range m.RVs {
			if skip[r.Name] || m.Marginal[r] {
				continue
			}
			if id, ok := e.logDensity(r, false); ok {
				e.terms = append(e.terms, id)
				e.termNames = append(e.termNames, r.Name)
			}
		}
		for _, t := range m.Terms {
			if skip[t.Name] {
				continue
			}
			e.ctx = t.Name
			e.terms = append(e.terms, e.emit(t.Value))
			e.termNames = append(e.termNames, t.Name)
		}
	}
	if outputs {
		for _, l := range c.Latents {
			b.AddOutput(l.RV.Name, e.emit(l.RV.Value))
		}
		for _, d := range m.Dets {
			if withTarget && m.ValuesOnly[d] {
				continue
			}
			e.ctx = d.Det
			b.AddOutput(d.Det, e.emit(d))
		}
	}
	target := ir.None
	if withTarget {
		for i, id := range e.terms {
			if outputs {
				b.AddOutput("term:"+e.termNames[i], id)
			}
		}
		if len(e.terms) == 0 {
			target = b.Scalar(0)
		} else {
			target = e.emitOp(ir.OpAddN, e.terms, nil)
		}
	}
	p, err = b.Finalize(target)
	if err != nil {
		return nil, nil, nil, &Error{Var: m.Name, Msg: err.Error()}
	}
	return p, e.terms, e.termNames, nil
}

// newBuilder is a builder of a program of c, planned with c's Planner.
func (c *Programs) newBuilder(dim int) *ir.Builder {
	b := ir.NewBuilder(dim)
	b.SetPlanner(c.planner)
	return b
}
