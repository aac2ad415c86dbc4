package ppl

import (
	"slices"

	"github.com/gobayes/gobayes/accel/ir"
)

// scanDef is a traced recurrence: the placeholders the step function was
// called with, what it returned, and the outer values it used (statics).
type scanDef struct {
	steps   int
	nCarry  int
	nSeq    int
	carryPh []*node
	seqPh   []*node
	next    []*node
	emit    *node
	statics []*node
}

// Scan runs a recurrence over steps steps in compiled code: AR, ARMA and
// GARCH volatilities, the forward algorithm of a hidden Markov model.
//
// init holds the carried values' starting values, seqs the sequences
// whose leading axis is the step (seqs[i] of shape [steps …]; step t sees
// row t). step is called ONCE, when the model is built, with placeholders
// of the carried values and of one row of each sequence; it returns the
// next carried values (same shapes as init) and the value emitted at the
// step. It may use any other value of the model (parameters, data). Scan
// returns the emitted values stacked: shape [steps] ++ the emitted shape.
//
//	// GARCH(1,1): s[t]² = α₀ + α₁ (y[t-1]-μ)² + β₁ s[t-1]², carrying
//	// the variance s² and emitting s.
//	s := ppl.Scan(T-1, []any{sigma1 * sigma1}, []any{y[:T-1]},
//		func(c, x []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
//			v := ppl.Add(alpha0, ppl.Add(ppl.Mul(alpha1, ppl.Square(ppl.Sub(x[0], mu))),
//				ppl.Mul(beta1, c[0])))
//			return []ppl.Expr{v}, ppl.Sqrt(v)
//		})
//
// The fast form: when there is one scalar carry, the sequences' rows are
// scalars, and the next carry is affine in the carry — next = A + B·carry
// with A and B built from the rows, parameters, data and constants but
// not the carry — Scan is compiled as elementwise ops over the whole
// sequences and one LinearRecurrence, with no per-step body (3–5 times
// faster per gradient). The emitted value may then be any elementwise
// function (Add, Mul, Sqrt, Exp, …) of the carry, the next carry and the
// rows. So carry GARCH's variance s², as above, rather than s; a step
// next = Sqrt(A + B·carry²) is recognised and carried as its square too.
// Other steps (a vector carry, a Sum or a LogSumExp over a row, the carry
// inside Exp or Tanh) run the general scan, step by step.
//
// The step function must build its result with this package's functions
// only: Go control flow inside it runs once, not once per step.
func Scan(steps int, init []any, seqs []any, step func(carry, x []Expr) ([]Expr, Expr)) Expr {
	in := args("Scan", append(slices.Clone(init), seqs...)...)
	m := modelOf("Scan", in...)
	if steps < 1 {
		m.failf("Scan", "%d steps; want 1 or more", steps)
	}
	if step == nil {
		m.failf("Scan", "no step function")
	}
	d := &scanDef{steps: steps, nCarry: len(init), nSeq: len(seqs)}
	carry := make([]Expr, len(init))
	for i, n := range in[:len(init)] {
		ph := &node{kind: kInput, input: i, shape: slices.Clone(n.shape), fn: "carry"}
		d.carryPh = append(d.carryPh, ph)
		carry[i] = ph
	}
	x := make([]Expr, len(seqs))
	for i, n := range in[len(init):] {
		if len(n.shape) == 0 || n.shape[0] != steps {
			m.failf("Scan", "sequence %d has shape %v; want the steps (%d) along its first axis", i, n.shape, steps)
		}
		ph := &node{kind: kInput, input: len(init) + i, shape: slices.Clone(n.shape[1:]), fn: "sequence"}
		d.seqPh = append(d.seqPh, ph)
		x[i] = ph
	}
	next, emit := step(carry, x)
	if len(next) != len(init) {
		m.failf("Scan", "the step function returned %d carried values for %d initial values", len(next), len(init))
	}
	if emit == nil {
		m.failf("Scan", "the step function emitted nil; return the value of the step (or a carried value)")
	}
	for i, e := range next {
		if e == nil {
			m.failf("Scan", "carried value %d is nil", i)
		}
		n := e.node()
		if n.Len() != in[i].Len() {
			m.failf("Scan", "carried value %d starts with shape %v but the step returns shape %v", i, in[i].shape, n.shape)
		}
		d.next = append(d.next, n)
	}
	d.emit = emit.node()
	// The statics: outer values the body uses, found by walking from its
	// results down to values that depend on no placeholder.
	ph := map[*node]bool{}
	for _, p := range d.carryPh {
		ph[p] = true
	}
	for _, p := range d.seqPh {
		ph[p] = true
	}
	dep := map[*node]bool{}
	var depends func(n *node) bool
	depends = func(n *node) bool {
		if v, ok := dep[n]; ok {
			return v
		}
		v := ph[n]
		for _, a := range n.args {
			if depends(a) {
				v = true
			}
		}
		dep[n] = v
		return v
	}
	seen := map[*node]bool{}
	var walk func(n *node)
	walk = func(n *node) {
		if seen[n] {
			return
		}
		seen[n] = true
		if !depends(n) {
			if n.kind != kConst {
				d.statics = append(d.statics, n)
			}
			return
		}
		for _, a := range n.args {
			walk(a)
		}
	}
	for _, n := range d.next {
		walk(n)
	}
	walk(d.emit)
	all := append(slices.Clone(in), d.statics...)
	if m == nil {
		m = modelOf("Scan", all...)
	}
	for _, s := range d.statics {
		if s.kind == kInput {
			continue // a placeholder of an enclosing scan
		}
		if s.model != nil && m != nil && s.model != m {
			m.failf("Scan", "the step function uses variables of model %q", s.model.name)
		}
	}
	shape := append([]int{steps}, d.emit.shape...)
	return &node{kind: kOp, op: ir.OpScan, fn: "Scan", shape: shape, args: all, scan: d, model: m}
}

// emitScan compiles a scan's body into its own program and emits the
// scan instruction over the outer values.
func (e *emitter) emitScan(n *node) ir.ID {
	d := n.scan
	if r := d.asRecurrence(n.args); r != nil {
		return e.emit(r)
	}
	in := make([]ir.ID, len(n.args))
	for i, a := range n.args {
		in[i] = e.emit(a)
	}
	b := ir.NewBuilder(0)
	be := &emitter{c: e.c, b: b, ids: map[*node]ir.ID{}, latentOf: e.latentOf, inputs: map[*node]ir.ID{}, outer: e, ctx: e.ctx}
	for _, p := range d.carryPh {
		be.inputs[p] = b.Input(p.shape)
	}
	for _, p := range d.seqPh {
		be.inputs[p] = b.Input(p.shape)
	}
	for _, s := range d.statics {
		be.ids[s] = b.Input(s.shape)
	}
	for _, nx := range d.next {
		b.AddOutput("carry", be.emit(nx))
	}
	b.AddOutput("emit", be.emit(d.emit))
	body, err := b.Finalize(ir.None)
	e.check(err)
	id, err := e.b.EmitBody(ir.OpScan, in, []int{d.steps, d.nCarry, d.nSeq}, -1, body)
	e.check(err)
	return id
}
