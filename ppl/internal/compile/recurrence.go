package compile

import (
	"slices"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// scanGeneralOnly compiles every scan with the general OpScan path, never
// as a linear recurrence; tests set it to compare the two.
var scanGeneralOnly bool

// liftable are the elementwise ops a step may use for the scan to be
// compiled as a linear recurrence: applied to the stacked per-step values
// they compute every step at once.
var liftable = map[ir.Op]bool{
	ir.OpAdd: true, ir.OpSub: true, ir.OpMul: true, ir.OpDiv: true, ir.OpPow: true,
	ir.OpNeg: true, ir.OpExp: true, ir.OpLog: true, ir.OpLog1p: true, ir.OpExpm1: true,
	ir.OpSqrt: true, ir.OpSquare: true, ir.OpLogistic: true, ir.OpLogit: true,
	ir.OpSoftplus: true, ir.OpLgamma: true, ir.OpAbs: true, ir.OpTanh: true,
	ir.OpInv: true, ir.OpLogMix: true,
}

// recurrenceForm is a scan analysed as a linear recurrence.
type recurrenceForm struct {
	d     *graph.Scan
	init  *graph.Node
	seqs  []*graph.Node               // the outer sequences, as [steps] vectors
	dep   map[*graph.Node]bool        // depends on a placeholder
	depC  map[*graph.Node]bool        // depends on the carry placeholder
	lift  map[*graph.Node]*graph.Node // body node → its values at every step
	steps []int
}

// asRecurrence rewrites a scan whose one scalar carry is updated affinely,
// next = A + B·carry with A and B free of the carry, into elementwise ops
// over the sequences and one OpLinearRecurrence; also next =
// sqrt(A + B·carry²), carried as the square. The emitted value must be an
// elementwise function of the carry, the next carry and the sequences'
// rows. It returns the scan's value, or nil when the scan has another
// form (it then runs as a general scan).
func asRecurrence(d *graph.Scan, args []*graph.Node) *graph.Node {
	if scanGeneralOnly || d.NCarry != 1 || args[0].Len() != 1 || d.Emit.Len() != 1 {
		return nil
	}
	r := &recurrenceForm{d: d, init: args[0], dep: map[*graph.Node]bool{}, depC: map[*graph.Node]bool{}, lift: map[*graph.Node]*graph.Node{}, steps: []int{d.Steps}}
	for _, s := range args[d.NCarry : d.NCarry+d.NSeq] {
		if s.Len() != d.Steps {
			return nil
		}
		if len(s.Dims) != 1 {
			s = &graph.Node{Kind: graph.KReshape, Fn: "Scan", Args: []*graph.Node{s}, Dims: slices.Clone(r.steps), Model: s.Model}
		}
		r.seqs = append(r.seqs, s)
	}
	ph := map[*graph.Node]bool{}
	for _, p := range d.SeqPh {
		ph[p] = true
	}
	carry := d.CarryPh[0]
	ph[carry] = true
	// Every node depending on a placeholder must be a scalar elementwise op.
	ok := true
	var mark func(n *graph.Node) (bool, bool)
	mark = func(n *graph.Node) (bool, bool) {
		if v, seen := r.dep[n]; seen {
			return v, r.depC[n]
		}
		v, c := ph[n], n == carry
		for _, a := range n.Args {
			av, ac := mark(a)
			v, c = v || av, c || ac
		}
		if v && !ph[n] && (n.Kind != graph.KOp || !liftable[n.Op] || n.Len() != 1 || n.Ints != nil || n.Table != nil) {
			ok = false
		}
		r.dep[n], r.depC[n] = v, c
		return v, c
	}
	next := d.Next[0]
	if v, _ := mark(next); !v {
		return nil
	}
	if v, _ := mark(d.Emit); !v || !ok {
		return nil
	}
	// next = A + B·carry, or next = sqrt(A + B·carry²).
	x0, A, B, sqrt := r.init, (*graph.Node)(nil), (*graph.Node)(nil), false
	isCarry := func(n *graph.Node) bool { return n == carry }
	if A, B, ok = r.affine(next, isCarry); !ok {
		if next.Op != ir.OpSqrt {
			return nil
		}
		isSquare := func(n *graph.Node) bool {
			return n.Kind == graph.KOp && (n.Op == ir.OpSquare && n.Args[0] == carry ||
				n.Op == ir.OpMul && n.Args[0] == carry && n.Args[1] == carry)
		}
		if A, B, ok = r.affine(next.Args[0], isSquare); !ok {
			return nil
		}
		x0, sqrt = r.op(ir.OpSquare, nil, r.init), true
	}
	if A == nil {
		A = graph.Scalar(0)
	}
	if B == nil {
		B = graph.Scalar(0)
	}
	a, b := r.lifted(A), r.lifted(B)
	if a.Len() == 1 && b.Len() == 1 && d.Steps > 1 {
		a = r.op(ir.OpAdd, r.steps, a, graph.Const(make([]float64, d.Steps), slices.Clone(r.steps)))
	}
	x := r.op(ir.OpLinearRecurrence, r.steps, x0, a, b)
	if sqrt {
		x = r.op(ir.OpSqrt, r.steps, x)
	}
	// The emitted values: the next carry is x, the carry before the step is
	// x shifted by one behind the initial value.
	r.lift[next] = x
	if r.depC[d.Emit] && d.Emit != next {
		prev := r.init
		if d.Steps > 1 {
			head := r.op(ir.OpSlice, []int{d.Steps - 1}, x)
			head.Ints = []int{0, d.Steps - 1}
			prev = r.op(ir.OpConcat, r.steps, r.init, head)
			prev.Ints = []int{d.Steps}
		} else if len(prev.Dims) != 1 {
			prev = &graph.Node{Kind: graph.KReshape, Fn: "Scan", Args: []*graph.Node{prev}, Dims: []int{1}, Model: prev.Model}
		}
		r.lift[carry] = prev
	}
	out := r.lifted(d.Emit)
	want := append([]int{d.Steps}, d.Emit.Dims...)
	if !slices.Equal(out.Dims, want) {
		out = &graph.Node{Kind: graph.KReshape, Fn: "Scan", Args: []*graph.Node{out}, Dims: want, Model: out.Model}
	}
	return out
}

// op makes a node of the rewritten graph.
func (r *recurrenceForm) op(op ir.Op, shape []int, ns ...*graph.Node) *graph.Node {
	return &graph.Node{Kind: graph.KOp, Op: op, Fn: "Scan", Dims: slices.Clone(shape), Args: ns, Model: modelOf(ns)}
}

// affine splits a step's node n into A + B·v where v is the carry variable
// (the nodes isVar accepts) and A, B are free of the carry; nil stands for
// zero. It fails when n is not affine in v or uses the carry otherwise.
func (r *recurrenceForm) affine(n *graph.Node, isVar func(*graph.Node) bool) (A, B *graph.Node, ok bool) {
	if isVar(n) {
		return nil, graph.Scalar(1), true
	}
	if !r.depC[n] {
		return n, nil, true
	}
	if n.Kind != graph.KOp {
		return nil, nil, false
	}
	add := func(op ir.Op, x, y *graph.Node) *graph.Node {
		switch {
		case y == nil:
			return x
		case x == nil && op == ir.OpSub:
			return r.op(ir.OpNeg, nil, y)
		case x == nil:
			return y
		}
		return r.op(op, nil, x, y)
	}
	scale := func(op ir.Op, x, c *graph.Node) *graph.Node {
		if x == nil {
			return nil
		}
		return r.op(op, nil, x, c)
	}
	switch n.Op {
	case ir.OpAdd, ir.OpSub:
		a1, b1, ok1 := r.affine(n.Args[0], isVar)
		a2, b2, ok2 := r.affine(n.Args[1], isVar)
		if !ok1 || !ok2 {
			return nil, nil, false
		}
		return add(n.Op, a1, a2), add(n.Op, b1, b2), true
	case ir.OpNeg:
		a1, b1, ok1 := r.affine(n.Args[0], isVar)
		if !ok1 {
			return nil, nil, false
		}
		neg := func(x *graph.Node) *graph.Node {
			if x == nil {
				return nil
			}
			return r.op(ir.OpNeg, nil, x)
		}
		return neg(a1), neg(b1), true
	case ir.OpMul:
		x, c := n.Args[0], n.Args[1]
		if r.depC[c] {
			x, c = c, x
		}
		if r.depC[c] {
			return nil, nil, false
		}
		a1, b1, ok1 := r.affine(x, isVar)
		if !ok1 {
			return nil, nil, false
		}
		return scale(ir.OpMul, a1, c), scale(ir.OpMul, b1, c), true
	case ir.OpDiv:
		if r.depC[n.Args[1]] {
			return nil, nil, false
		}
		a1, b1, ok1 := r.affine(n.Args[0], isVar)
		if !ok1 {
			return nil, nil, false
		}
		return scale(ir.OpDiv, a1, n.Args[1]), scale(ir.OpDiv, b1, n.Args[1]), true
	}
	return nil, nil, false
}

// lifted is the value of a step's node n at every step: the node itself
// when it depends on no placeholder (a scalar or a value of the model,
// broadcast), otherwise the same elementwise op over the stacked values.
func (r *recurrenceForm) lifted(n *graph.Node) *graph.Node {
	if l, ok := r.lift[n]; ok {
		return l
	}
	var l *graph.Node
	switch {
	case n.Kind == graph.KInput && slices.Contains(r.d.SeqPh, n):
		l = r.seqs[slices.Index(r.d.SeqPh, n)]
	case n == r.d.CarryPh[0]:
		panic("ppl: internal error: the carry of a scan rewritten as a recurrence was not lifted")
	case !r.dep[n] && !r.depC[n] && !r.isRewritten(n):
		l = n // a value of the model, or a placeholder of an enclosing scan
	default:
		args := make([]*graph.Node, len(n.Args))
		dep := false
		for i, a := range n.Args {
			args[i] = r.lifted(a)
			dep = dep || args[i].Len() != 1
		}
		shape := r.steps
		if !dep {
			shape = nil
		}
		l = r.op(n.Op, shape, args...)
		l.Ints, l.Table = n.Ints, n.Table
	}
	r.lift[n] = l
	return l
}

// isRewritten reports whether n was made by the rewrite (A and B's nodes
// over the body's placeholders are not in dep).
func (r *recurrenceForm) isRewritten(n *graph.Node) bool {
	if _, ok := r.dep[n]; ok {
		return false
	}
	for _, a := range n.Args {
		if a.Kind == graph.KInput || r.dep[a] || r.isRewritten(a) {
			return true
		}
	}
	return false
}

// modelOf is the model of the first node that has one: the nodes of a
// scan's body all belong to one (ppl.Scan checked).
func modelOf(ns []*graph.Node) *graph.Model {
	for _, n := range ns {
		if n.Model != nil {
			return n.Model
		}
	}
	return nil
}
