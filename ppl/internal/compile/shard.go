package compile

import (
	"fmt"
	"math"
	"runtime"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// Data sharding: the log-likelihood of a large observed variable is a sum
// over its rows, so it can be split into K shards over contiguous rows,
// evaluated in parallel and summed (values and gradients), as TensorFlow
// Probability's Sharded distributions do.
//
// Compile builds, when it shards, one main program (priors, Jacobians,
// and the terms left whole) and one program per block of rows: each shard
// is a few blocks of about a megabyte of data (package ppl/internal/shard
// runs them). Each block program takes the whole position and computes
// only its rows of every sharded log density: the variable's data and every
// per-observation expression its parameters are made of (X·β from a data
// matrix, μ[group] gathered from a hierarchical mean, elementwise
// arithmetic, a parameter with one element per row) are sliced along the
// observation axis when the program is built; what does not depend on the
// rows (β, σ, μ) is computed whole in every block. A parameter whose rows
// come out of an operation that mixes rows (a Scan, a Cholesky solve, a
// concatenation) cannot be split this way: the variable stays in the main
// program and ShardPlan says why. LogDensity terms of the form Sum(x),
// such as Sum(LogPDF(…)) of a hand-written likelihood, split the same way
// over x's leading axis.

// Sharding is how Compile splits the observed data: Shards is
// ppl.Shards's setting (0 automatic, 1 none, or the number of shards) and
// AutoVolume is ppl.AutoShardVolume, the data volume below which the
// automatic choice adds no shard.
type Sharding struct {
	Shards     int
	AutoVolume int
}

// ShardPlan is ppl.ShardPlan (the same fields, documented there): how
// the observed data are split.
type ShardPlan struct {
	Shards int
	Blocks int
	Vars   []ShardVar
}

// ShardVar is ppl.ShardVar: one observed variable or LogDensity term
// of a ShardPlan.
type ShardVar struct {
	Name    string
	Rows    int
	Volume  int
	Sharded bool
	Reason  string
	Term    bool
}

// planShards decides which observed variables are split and into how
// many shards, then builds the programs.
func (c *Programs) planShards(sh Sharding) error {
	want, auto := sh.Shards, sh.AutoVolume
	m := c.m
	if want == 1 {
		return nil
	}
	folds := map[*graph.Node][]float64{}
	shared := map[string]int{}
	vars := make([]ShardVar, len(c.Observed))
	total := 0
	for i, r := range c.Observed {
		sv := ShardVar{Name: r.Name}
		rows, err := obsRows(r)
		if m.Marginal[r] {
			err = fmt.Errorf("its density is summed over an enumerated variable")
		}
		sv.Rows = rows
		if err == nil {
			s := newRowSlicer(c, rows, 0, rows, folds)
			if _, err = s.observedTerm(r); err == nil {
				sv.Volume = s.volume
				shared[r.Name] = s.shared
			}
		}
		if err != nil {
			sv.Reason = err.Error()
		} else {
			sv.Sharded = true
			total += sv.Volume
		}
		vars[i] = sv
	}
	// LogDensity terms that sum over rows (Sum(LogPDF(…)) of a
	// hand-written likelihood) split like observed variables.
	for _, t := range m.Terms {
		x, rows, ok := termRows(t)
		if !ok {
			continue
		}
		sv := ShardVar{Name: t.Name, Rows: rows, Term: true}
		s := newRowSlicer(c, rows, 0, rows, folds)
		if _, err := s.slice(x, x.Len()/rows); err != nil {
			sv.Reason = err.Error()
		} else {
			sv.Sharded, sv.Volume = true, s.volume
			shared[t.Name] = s.shared
			total += sv.Volume
		}
		vars = append(vars, sv)
	}
	k := want
	if k == 0 {
		k = min(runtime.GOMAXPROCS(0), total/auto)
	}
	// A variable with fewer rows than shards stays whole, and so does a
	// small one when the choice is automatic.
	n := 0
	for i := range vars {
		sv := &vars[i]
		switch {
		case !sv.Sharded:
		case sv.Rows < k:
			sv.Sharded, sv.Reason = false, fmt.Sprintf("%d rows, fewer than the %d shards", sv.Rows, k)
		case want == 0 && sv.Volume < auto:
			sv.Sharded, sv.Reason = false, fmt.Sprintf("data volume %d is below AutoShardVolume (%d); force it with Shards(n)", sv.Volume, auto)
		default:
			n++
		}
	}
	c.Plan = ShardPlan{Vars: vars}
	if k < 2 || n == 0 {
		for i := range vars {
			if vars[i].Sharded {
				vars[i].Sharded = false
				if want == 0 {
					vars[i].Reason = fmt.Sprintf("total data volume %d is below 2×AutoShardVolume (%d) or one core is available; force it with Shards(n)", total, 2*auto)
				} else {
					vars[i].Reason = "fewer than 2 shards"
				}
			}
		}
		return nil
	}
	sharded := map[string]bool{}
	for _, v := range vars {
		if v.Sharded {
			sharded[v.Name] = true
		}
	}
	main, _, _, err := c.buildProgram(true, false, sharded)
	if err != nil {
		return err
	}
	// Each shard is evaluated in blocks of about blockVolume values of
	// data: a block's rows stay in cache from the forward sweep to the
	// reverse one, and a worker that finds its partner busy (the machine
	// is shared, or other chains hold the cores) takes over the blocks
	// left rather than waiting for a whole shard.
	// What every block computes whole (a large gathered group mean) is
	// recomputed per block: blocks are fewer when that would cost more
	// than a quarter of the data's work.
	vol, rows, whole := 0, math.MaxInt, 0
	for i := range vars {
		if vars[i].Sharded {
			vol += vars[i].Volume
			rows = min(rows, vars[i].Rows)
			whole += shared[vars[i].Name]
		}
	}
	blocks := k * max(1, (vol/k+blockVolume-1)/blockVolume)
	if whole > 0 {
		blocks = min(blocks, max(k, vol/(4*whole)))
	}
	blocks = min(rows, blocks)
	progs := make([]*ir.Program, blocks)
	for j := range blocks {
		if progs[j], err = c.buildShard(j, blocks, sharded, folds); err != nil {
			return err
		}
	}
	c.Plan.Shards, c.Plan.Blocks = k, blocks
	c.ShardMain, c.ShardBlocks = main, progs
	return nil
}

// blockVolume is the data volume of one block of a shard (1 MiB of
// float64: a block's data and adjoints fit a core's L2 cache); a variable
// for tests.
var blockVolume = 1 << 17

// buildShard compiles shard j of k: rows [j·N/k, (j+1)·N/k) of every
// sharded variable's log density.
func (c *Programs) buildShard(j, k int, sharded map[string]bool, folds map[*graph.Node][]float64) (p *ir.Program, err error) {
	defer catch(&err)
	b := c.newBuilder(c.Dim)
	e := newEmitter(c, b)
	var terms []ir.ID
	for _, r := range c.Observed {
		if !sharded[r.Name] {
			continue
		}
		rows, _ := obsRows(r)
		s := newRowSlicer(c, rows, j*rows/k, (j+1)*rows/k, folds)
		fr, err := s.observedTerm(r)
		if err != nil {
			// The plan's pass over all rows succeeded, so every block
			// slices the same way.
			panic(fmt.Sprintf("ppl: shard %d of %s: %v", j, r.Name, err))
		}
		id, ok := e.logDensity(fr, false)
		if ok {
			terms = append(terms, id)
		}
	}
	for _, t := range c.m.Terms {
		if !sharded[t.Name] {
			continue
		}
		x, rows, _ := termRows(t)
		s := newRowSlicer(c, rows, j*rows/k, (j+1)*rows/k, folds)
		sx, err := s.slice(x, x.Len()/rows)
		if err != nil {
			panic(fmt.Sprintf("ppl: shard %d of %s: %v", j, t.Name, err))
		}
		e.ctx = t.Name
		terms = append(terms, e.emit(&graph.Node{Kind: graph.KOp, Op: ir.OpSum, Args: []*graph.Node{sx}, Fn: "Sum", Model: c.m}))
	}
	target := b.Scalar(0)
	if len(terms) > 0 {
		target = e.emitOp(ir.OpAddN, terms, nil)
	}
	p, err = b.Finalize(target)
	if err != nil {
		return nil, &Error{Var: c.Name, Msg: err.Error()}
	}
	return p, nil
}

// termRows returns the summand x of a LogDensity term Sum(x) and its
// number of rows (x's leading axis); ok is false for other terms.
func termRows(t graph.Term) (x *graph.Node, rows int, ok bool) {
	n := t.Value
	if n.Kind != graph.KOp || n.Op != ir.OpSum || len(n.Args[0].Dims) == 0 {
		return nil, 0, false
	}
	x = n.Args[0]
	return x, x.Dims[0], x.Dims[0] > 1
}

// obsRows is the number of observations of an observed variable: the
// leading axis of its value, which its log density sums over.
func obsRows(r *graph.RV) (int, error) {
	shape := r.Value.Dims
	if len(shape) == 0 {
		return 1, fmt.Errorf("a single observation")
	}
	if r.Censor != nil || r.Truncated {
		return 1, fmt.Errorf("censored and truncated variables are not split into shards yet")
	}
	if r.Pointwise != nil {
		return 1, fmt.Errorf("%s's log density is built from other ops and is not split into shards yet", r.Name)
	}
	if r.Fam != nil && r.Fam.Op == ir.OpCategoricalLogitLPMF {
		return shape[0], nil // one category per row
	}
	if r.Fam != nil && r.Fam.EventRank == 1 && len(shape) < 2 {
		return 1, fmt.Errorf("a single %s event of shape %v", r.Fam.Name, shape)
	}
	if r.Fam != nil && r.Fam.EventRank > 1 {
		return 1, fmt.Errorf("%s events do not split by rows", r.Fam.Name)
	}
	if r.Fam != nil && r.Fam.Op == ir.OpNop {
		return 1, fmt.Errorf("%s has no log density to split", r.Fam.Name)
	}
	return shape[0], nil
}

// rowSlicer rewrites expressions into their rows [lo, hi) of n
// observations: a value of length n·r (r elements per observation, in
// row-major order) becomes its elements [lo·r, hi·r).
type rowSlicer struct {
	c      *Programs
	n      int
	lo, hi int
	ce     *emitter // for constTree and fold
	folds  map[*graph.Node][]float64
	memo   map[[2]any]*graph.Node
	volume int // data elements read by the sliced expressions
	// shared counts the elements that every block computes whole (a
	// gathered group mean, the coefficients of X·β), each node once.
	shared     int
	sharedSeen map[*graph.Node]bool
}

func newRowSlicer(c *Programs, n, lo, hi int, folds map[*graph.Node][]float64) *rowSlicer {
	return &rowSlicer{c: c, n: n, lo: lo, hi: hi, folds: folds, memo: map[[2]any]*graph.Node{}, sharedSeen: map[*graph.Node]bool{},
		ce: &emitter{c: c, ids: map[*graph.Node]ir.ID{}, ctx: c.Name}}
}

// observedTerm returns a stand-in variable whose log density is the rows
// [lo, hi) of r's.
func (s *rowSlicer) observedTerm(r *graph.RV) (*graph.RV, error) {
	yr := r.Value.Len() / s.n
	fr := &graph.RV{Name: r.Name, Fam: r.Fam, Observed: true}
	fr.Data = r.Data[s.lo*yr : s.hi*yr]
	s.volume += len(fr.Data)
	fr.Value = &graph.Node{Kind: graph.KRV, RV: fr, Dims: s.shape(r.Value.Dims, yr), Model: r.Value.Model}
	// args slices one parameter: those of length 1 are shared, those
	// with a row per observation are sliced; event is the length of one
	// event for multivariate families (a [K] parameter is shared).
	arg := func(what string, p *graph.Node, event int) (*graph.Node, error) {
		switch l := p.Len(); {
		case l == 1 || event > 1 && len(p.Dims) == 1 && l == event:
			s.share(p)
			return p, nil
		case l == r.Value.Len() || event > 1 && l == s.n*event:
			q, err := s.slice(p, l/s.n)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", what, err)
			}
			return q, nil
		default:
			return nil, fmt.Errorf("%s has shape %v, not one row per observation", what, p.Dims)
		}
	}
	if r.Mix != nil {
		s.share(r.Mix.Weights)
		mix := &graph.Mixture{Weights: r.Mix.Weights}
		for _, comp := range r.Mix.Comps {
			mc := graph.MixComp{Fam: comp.Fam}
			for i, p := range comp.Params {
				q, err := arg(fmt.Sprintf("the %s %s of a component", comp.Fam.Name, graph.ParamName(comp.Fam, i)), p, 0)
				if err != nil {
					return nil, err
				}
				mc.Params = append(mc.Params, q)
			}
			mix.Comps = append(mix.Comps, mc)
		}
		fr.Mix = mix
		return fr, nil
	}
	event := 0
	switch r.Fam.Op {
	case ir.OpCategoricalLogitLPMF:
		event = r.Params[0].Dims[len(r.Params[0].Dims)-1]
	case ir.OpDirichletLPDF, ir.OpMultiNormalCholLPDF:
		event = r.Value.Dims[1]
	}
	for i, p := range r.Params {
		var q *graph.Node
		var err error
		if r.Fam.Op == ir.OpMultiNormalCholLPDF && i == 1 {
			q = p // the Cholesky factor is shared by every row
			s.share(p)
			if p.Len() != event*event {
				err = fmt.Errorf("L has shape %v", p.Dims)
			}
		} else {
			q, err = arg(graph.ParamName(r.Fam, i), p, event)
		}
		if err != nil {
			return nil, err
		}
		fr.Params = append(fr.Params, q)
	}
	return fr, nil
}

// shape is the shape of rows [lo, hi) of a value of the given shape with
// r elements per observation: the leading axis shortened when it is the
// observation axis, otherwise a flat vector.
func (s *rowSlicer) shape(shape []int, r int) []int {
	rows := s.hi - s.lo
	if len(shape) > 0 && shape[0] == s.n && ir.ShapeLen(shape[1:]) == r {
		return append([]int{rows}, shape[1:]...)
	}
	return []int{rows * r}
}

// slice returns the rows [lo, hi) of n, which has r elements per
// observation, or says why n's rows cannot be computed apart from the
// others.
func (s *rowSlicer) slice(n *graph.Node, r int) (*graph.Node, error) {
	key := [2]any{n, r}
	if q, ok := s.memo[key]; ok {
		return q, nil
	}
	q, err := s.sliceNew(n, r)
	if err != nil {
		return nil, err
	}
	s.memo[key] = q
	return q, nil
}

func (s *rowSlicer) sliceNew(n *graph.Node, r int) (*graph.Node, error) {
	if n.Len() != s.n*r {
		return nil, fmt.Errorf("%s has %d elements, not %d per observation", n.String(), n.Len(), r)
	}
	from, to := s.lo*r, s.hi*r
	shape := s.shape(n.Dims, r)
	if n.Kind == graph.KConst || n.Kind != graph.KInput && s.ce.constTree(n) {
		d := n.Data
		if n.Kind != graph.KConst {
			var ok bool
			if d, ok = s.folds[n]; !ok {
				d = s.ce.fold(n)
				s.folds[n] = d
			}
		}
		s.volume += to - from
		return graph.Const(d[from:to], shape), nil
	}
	switch n.Kind {
	case graph.KRV:
		return s.latentRows(n, r, from, to, shape)
	case graph.KReshape:
		a, err := s.slice(n.Args[0], r)
		if err != nil {
			return nil, err
		}
		return &graph.Node{Kind: graph.KReshape, Args: []*graph.Node{a}, Dims: shape, Fn: n.Fn, Model: n.Model}, nil
	case graph.KInput:
		return nil, fmt.Errorf("%s is a scan placeholder", n.String())
	}
	op := n.Op
	q := &graph.Node{Kind: graph.KOp, Op: op, Ints: n.Ints, Table: n.Table, Dims: shape, Fn: n.Fn, Model: n.Model}
	elementwise := op >= ir.OpNeg && op <= ir.OpLogMix ||
		op >= ir.OpNormalLPDF && op <= ir.OpNegBinomialLPMF && len(n.Ints) > 0 && n.Ints[0] == 1
	switch {
	case elementwise:
		for _, a := range n.Args {
			if a.Len() == 1 {
				q.Args = append(q.Args, a)
				continue
			}
			sa, err := s.slice(a, r)
			if err != nil {
				return nil, err
			}
			q.Args = append(q.Args, sa)
		}
		return q, nil
	case op == ir.OpMatVec || op == ir.OpMatMul || op == ir.OpLogMatMulExp && len(n.Args[0].Dims) == 2:
		// A [rows×k] · B: each output row is one row of A times B.
		a, b := n.Args[0], n.Args[1]
		cols := 1
		if op != ir.OpMatVec {
			cols = b.Dims[1]
		}
		if r%cols != 0 {
			break
		}
		sa, err := s.slice(a, r/cols*a.Dims[1])
		if err != nil {
			return nil, err
		}
		s.share(b)
		q.Args = []*graph.Node{sa, b}
		return q, nil
	case op == ir.OpGather:
		s.share(n.Args[0])
		q.Args, q.Table = n.Args, n.Table[from:to]
		s.volume += to - from
		return q, nil
	case op == ir.OpGatherRow:
		k := n.Args[0].Dims[1]
		if r%k != 0 {
			break
		}
		s.share(n.Args[0])
		q.Args, q.Table = n.Args, n.Table[from/k:to/k]
		s.volume += (to - from) / k
		return q, nil
	case op == ir.OpSlice:
		// Rows of a slice are a slice of its source.
		return s.cut(n.Args[0], n.Ints[0]+from, n.Ints[0]+to, shape), nil
	}
	return nil, fmt.Errorf("%s is computed over all rows at once (by %s), which does not split by rows", n.String(), opName(n))
}

// latentRows is elements [from, to) of a parameter with r elements per
// observation (random effects, per-row scales). Its unconstrained slots
// are cut first and an elementwise bijector applied to the cut alone (the
// log-Jacobian stays in the main program), so each block maps only its
// rows; other bijectors (ordered, simplex) run whole, then are cut.
func (s *rowSlicer) latentRows(n *graph.Node, r, from, to int, shape []int) (*graph.Node, error) {
	var l *Latent
	for i := range s.c.Latents {
		if s.c.Latents[i].RV == n.RV {
			l = &s.c.Latents[i]
		}
	}
	if l == nil {
		return nil, fmt.Errorf("%s is not a parameter of the model", n.String())
	}
	slots := &graph.Node{Kind: graph.KSlots, Ints: []int{l.Offset + from}, Dims: shape, Fn: n.RV.Name, Model: n.Model}
	var op ir.Op
	var bounds []*graph.Node
	switch l.Transform {
	case Identity:
		return slots, nil
	case Lower:
		op, bounds = ir.OpLowerFwd, []*graph.Node{l.Lower}
	case Upper:
		op, bounds = ir.OpUpperFwd, []*graph.Node{l.Upper}
	case Interval:
		op, bounds = ir.OpIntervalFwd, []*graph.Node{l.Lower, l.Upper}
	default:
		return s.cut(n, from, to, shape), nil
	}
	q := &graph.Node{Kind: graph.KOp, Op: op, Args: []*graph.Node{slots}, Dims: shape, Fn: n.RV.Name, Model: n.Model}
	for _, b := range bounds {
		if b.Len() == 1 {
			q.Args = append(q.Args, b)
			continue
		}
		sb, err := s.slice(b, r)
		if err != nil {
			return nil, fmt.Errorf("bound of %s: %w", n.RV.Name, err)
		}
		q.Args = append(q.Args, sb)
	}
	return q, nil
}

// share counts the work of n, which every block computes whole: the
// elements of the parameters and instructions it is made of.
func (s *rowSlicer) share(n *graph.Node) {
	if s.sharedSeen[n] || n.Kind == graph.KConst || s.ce.constTree(n) {
		return
	}
	s.sharedSeen[n] = true
	if n.Kind == graph.KRV || n.Kind == graph.KOp {
		s.shared += n.Len()
	}
	for _, a := range n.Args {
		s.share(a)
	}
}

// cut is elements [from, to) of n (read flat), with the given shape.
func (s *rowSlicer) cut(n *graph.Node, from, to int, shape []int) *graph.Node {
	q := &graph.Node{Kind: graph.KOp, Op: ir.OpSlice, Args: []*graph.Node{n}, Ints: []int{from, to - from}, Dims: []int{to - from}, Fn: "rows", Model: n.Model}
	if len(shape) == 1 {
		return q
	}
	return &graph.Node{Kind: graph.KReshape, Args: []*graph.Node{q}, Dims: shape, Fn: "rows", Model: n.Model}
}

// opName names the function that made n, for reasons.
func opName(n *graph.Node) string {
	if n.Fn != "" {
		return n.Fn
	}
	return n.Op.String()
}
