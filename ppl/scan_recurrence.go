package ppl

import (
	"slices"

	"github.com/gobayes/gobayes/accel/ir"
)

// scanGeneralOnly compiles every scan with the general OpScan path, never
// as a linear recurrence; tests set it to compare the two.
var scanGeneralOnly bool

// LinearRecurrence is the sequence x[t] = a[t] + b[t]·x[t-1], t = 0…T-1,
// starting from the scalar x0 (x[-1] = x0): an AR(1) process, an ARMA
// error recursion, a GARCH variance. a and b are vectors of T values or
// scalars (the same value at every step); when both are scalars there is
// one step. It returns the T values x[0…T-1] (not x0), computed in one
// pass, several times faster than the same recurrence written with Scan.
//
//	// ARMA(1,1) errors: err[t] = (y[t] - mu - phi·y[t-1]) - theta·err[t-1]
//	a := ppl.Sub(ppl.Sub(y[1:], mu), ppl.Mul(phi, y[:T-1]))
//	errs := ppl.LinearRecurrence(err1, a, ppl.Neg(theta))
func LinearRecurrence(x0, a, b any) Expr {
	ns := args("LinearRecurrence", x0, a, b)
	m := modelOf("LinearRecurrence", ns...)
	if ns[0].Len() != 1 {
		m.failf(exprLabel("LinearRecurrence", ns...), "the initial value has shape %v; want a scalar", ns[0].shape)
	}
	t := 1
	for _, n := range ns[1:] {
		if l := n.Len(); l != 1 {
			if t != 1 && l != t {
				m.failf(exprLabel("LinearRecurrence", ns...), "a has %d values and b %d; want vectors of the same length (the steps) or scalars", ns[1].Len(), ns[2].Len())
			}
			t = l
		}
	}
	return opNode("LinearRecurrence", ir.OpLinearRecurrence, []int{t}, ns, nil, nil)
}

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
	d     *scanDef
	init  *node
	seqs  []*node         // the outer sequences, as [steps] vectors
	dep   map[*node]bool  // depends on a placeholder
	depC  map[*node]bool  // depends on the carry placeholder
	lift  map[*node]*node // body node → its values at every step
	steps []int
}

// asRecurrence rewrites a scan whose one scalar carry is updated affinely,
// next = A + B·carry with A and B free of the carry, into elementwise ops
// over the sequences and one OpLinearRecurrence; also next =
// sqrt(A + B·carry²), carried as the square. The emitted value must be an
// elementwise function of the carry, the next carry and the sequences'
// rows. It returns the scan's value, or nil when the scan has another
// form (it then runs as a general scan).
func (d *scanDef) asRecurrence(args []*node) *node {
	if scanGeneralOnly || d.nCarry != 1 || args[0].Len() != 1 || d.emit.Len() != 1 {
		return nil
	}
	r := &recurrenceForm{d: d, init: args[0], dep: map[*node]bool{}, depC: map[*node]bool{}, lift: map[*node]*node{}, steps: []int{d.steps}}
	for _, s := range args[d.nCarry : d.nCarry+d.nSeq] {
		if s.Len() != d.steps {
			return nil
		}
		if len(s.shape) != 1 {
			s = &node{kind: kReshape, fn: "Scan", args: []*node{s}, shape: slices.Clone(r.steps), model: s.model}
		}
		r.seqs = append(r.seqs, s)
	}
	ph := map[*node]bool{}
	for _, p := range d.seqPh {
		ph[p] = true
	}
	carry := d.carryPh[0]
	ph[carry] = true
	// Every node depending on a placeholder must be a scalar elementwise op.
	ok := true
	var mark func(n *node) (bool, bool)
	mark = func(n *node) (bool, bool) {
		if v, seen := r.dep[n]; seen {
			return v, r.depC[n]
		}
		v, c := ph[n], n == carry
		for _, a := range n.args {
			av, ac := mark(a)
			v, c = v || av, c || ac
		}
		if v && !ph[n] && (n.kind != kOp || !liftable[n.op] || n.Len() != 1 || n.ints != nil || n.table != nil) {
			ok = false
		}
		r.dep[n], r.depC[n] = v, c
		return v, c
	}
	next := d.next[0]
	if v, _ := mark(next); !v {
		return nil
	}
	if v, _ := mark(d.emit); !v || !ok {
		return nil
	}
	// next = A + B·carry, or next = sqrt(A + B·carry²).
	x0, A, B, sqrt := r.init, (*node)(nil), (*node)(nil), false
	isCarry := func(n *node) bool { return n == carry }
	if A, B, ok = r.affine(next, isCarry); !ok {
		if next.op != ir.OpSqrt {
			return nil
		}
		isSquare := func(n *node) bool {
			return n.kind == kOp && (n.op == ir.OpSquare && n.args[0] == carry ||
				n.op == ir.OpMul && n.args[0] == carry && n.args[1] == carry)
		}
		if A, B, ok = r.affine(next.args[0], isSquare); !ok {
			return nil
		}
		x0, sqrt = r.op(ir.OpSquare, nil, r.init), true
	}
	if A == nil {
		A = scalarNode(0)
	}
	if B == nil {
		B = scalarNode(0)
	}
	a, b := r.lifted(A), r.lifted(B)
	if a.Len() == 1 && b.Len() == 1 && d.steps > 1 {
		a = r.op(ir.OpAdd, r.steps, a, constNode(make([]float64, d.steps), slices.Clone(r.steps)))
	}
	x := r.op(ir.OpLinearRecurrence, r.steps, x0, a, b)
	if sqrt {
		x = r.op(ir.OpSqrt, r.steps, x)
	}
	// The emitted values: the next carry is x, the carry before the step is
	// x shifted by one behind the initial value.
	r.lift[next] = x
	if r.depC[d.emit] && d.emit != next {
		prev := r.init
		if d.steps > 1 {
			prev = r.op(ir.OpConcat, r.steps, r.init, r.op(ir.OpSlice, []int{d.steps - 1}, x).withInts(0, d.steps-1))
			prev.ints = []int{d.steps}
		} else if len(prev.shape) != 1 {
			prev = &node{kind: kReshape, fn: "Scan", args: []*node{prev}, shape: []int{1}, model: prev.model}
		}
		r.lift[carry] = prev
	}
	out := r.lifted(d.emit)
	want := append([]int{d.steps}, d.emit.shape...)
	if !slices.Equal(out.shape, want) {
		out = &node{kind: kReshape, fn: "Scan", args: []*node{out}, shape: want, model: out.model}
	}
	return out
}

// withInts sets a node's immediates (for OpSlice: from, length).
func (n *node) withInts(ints ...int) *node {
	n.ints = ints
	return n
}

// op makes a node of the rewritten graph.
func (r *recurrenceForm) op(op ir.Op, shape []int, ns ...*node) *node {
	return &node{kind: kOp, op: op, fn: "Scan", shape: slices.Clone(shape), args: ns, model: modelOf("Scan", ns...)}
}

// affine splits a step's node n into A + B·v where v is the carry variable
// (the nodes isVar accepts) and A, B are free of the carry; nil stands for
// zero. It fails when n is not affine in v or uses the carry otherwise.
func (r *recurrenceForm) affine(n *node, isVar func(*node) bool) (A, B *node, ok bool) {
	if isVar(n) {
		return nil, scalarNode(1), true
	}
	if !r.depC[n] {
		return n, nil, true
	}
	if n.kind != kOp {
		return nil, nil, false
	}
	add := func(op ir.Op, x, y *node) *node {
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
	scale := func(op ir.Op, x, c *node) *node {
		if x == nil {
			return nil
		}
		return r.op(op, nil, x, c)
	}
	switch n.op {
	case ir.OpAdd, ir.OpSub:
		a1, b1, ok1 := r.affine(n.args[0], isVar)
		a2, b2, ok2 := r.affine(n.args[1], isVar)
		if !ok1 || !ok2 {
			return nil, nil, false
		}
		return add(n.op, a1, a2), add(n.op, b1, b2), true
	case ir.OpNeg:
		a1, b1, ok1 := r.affine(n.args[0], isVar)
		if !ok1 {
			return nil, nil, false
		}
		neg := func(x *node) *node {
			if x == nil {
				return nil
			}
			return r.op(ir.OpNeg, nil, x)
		}
		return neg(a1), neg(b1), true
	case ir.OpMul:
		x, c := n.args[0], n.args[1]
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
		if r.depC[n.args[1]] {
			return nil, nil, false
		}
		a1, b1, ok1 := r.affine(n.args[0], isVar)
		if !ok1 {
			return nil, nil, false
		}
		return scale(ir.OpDiv, a1, n.args[1]), scale(ir.OpDiv, b1, n.args[1]), true
	}
	return nil, nil, false
}

// lifted is the value of a step's node n at every step: the node itself
// when it depends on no placeholder (a scalar or a value of the model,
// broadcast), otherwise the same elementwise op over the stacked values.
func (r *recurrenceForm) lifted(n *node) *node {
	if l, ok := r.lift[n]; ok {
		return l
	}
	var l *node
	switch {
	case n.kind == kInput && slices.Contains(r.d.seqPh, n):
		l = r.seqs[slices.Index(r.d.seqPh, n)]
	case n == r.d.carryPh[0]:
		panic("ppl: internal error: the carry of a scan rewritten as a recurrence was not lifted")
	case !r.dep[n] && !r.depC[n] && !r.isRewritten(n):
		l = n // a value of the model, or a placeholder of an enclosing scan
	default:
		args := make([]*node, len(n.args))
		dep := false
		for i, a := range n.args {
			args[i] = r.lifted(a)
			dep = dep || args[i].Len() != 1
		}
		shape := r.steps
		if !dep {
			shape = nil
		}
		l = r.op(n.op, shape, args...)
		l.ints, l.table = n.ints, n.table
	}
	r.lift[n] = l
	return l
}

// isRewritten reports whether n was made by the rewrite (A and B's nodes
// over the body's placeholders are not in dep).
func (r *recurrenceForm) isRewritten(n *node) bool {
	if _, ok := r.dep[n]; ok {
		return false
	}
	for _, a := range n.args {
		if a.kind == kInput || r.dep[a] || r.isRewritten(a) {
			return true
		}
	}
	return false
}
