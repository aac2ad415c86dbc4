package ppl

import (
	"slices"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

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
		failf(m, "Scan", "%d steps; want 1 or more", steps)
	}
	if step == nil {
		failf(m, "Scan", "no step function")
	}
	d := &graph.Scan{Steps: steps, NCarry: len(init), NSeq: len(seqs)}
	carry := make([]Expr, len(init))
	for i, n := range in[:len(init)] {
		ph := &graph.Node{Kind: graph.KInput, Input: i, Dims: slices.Clone(n.Dims), Fn: "carry"}
		d.CarryPh = append(d.CarryPh, ph)
		carry[i] = asExpr(ph)
	}
	x := make([]Expr, len(seqs))
	for i, n := range in[len(init):] {
		if len(n.Dims) == 0 || n.Dims[0] != steps {
			failf(m, "Scan", "sequence %d has shape %v; want the steps (%d) along its first axis", i, n.Dims, steps)
		}
		ph := &graph.Node{Kind: graph.KInput, Input: len(init) + i, Dims: slices.Clone(n.Dims[1:]), Fn: "sequence"}
		d.SeqPh = append(d.SeqPh, ph)
		x[i] = asExpr(ph)
	}
	next, emit := step(carry, x)
	if len(next) != len(init) {
		failf(m, "Scan", "the step function returned %d carried values for %d initial values", len(next), len(init))
	}
	if emit == nil {
		failf(m, "Scan", "the step function emitted nil; return the value of the step (or a carried value)")
	}
	for i, e := range next {
		if e == nil {
			failf(m, "Scan", "carried value %d is nil", i)
		}
		n := e.node()
		if n.Len() != in[i].Len() {
			failf(m, "Scan", "carried value %d starts with shape %v but the step returns shape %v", i, in[i].Dims, n.Dims)
		}
		d.Next = append(d.Next, n)
	}
	d.Emit = emit.node()
	// The statics: outer values the body uses, found by walking from its
	// results down to values that depend on no placeholder.
	ph := map[*graph.Node]bool{}
	for _, p := range d.CarryPh {
		ph[p] = true
	}
	for _, p := range d.SeqPh {
		ph[p] = true
	}
	dep := map[*graph.Node]bool{}
	var depends func(n *graph.Node) bool
	depends = func(n *graph.Node) bool {
		if v, ok := dep[n]; ok {
			return v
		}
		v := ph[n]
		for _, a := range n.Args {
			if depends(a) {
				v = true
			}
		}
		dep[n] = v
		return v
	}
	seen := map[*graph.Node]bool{}
	var walk func(n *graph.Node)
	walk = func(n *graph.Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		if !depends(n) {
			if n.Kind != graph.KConst {
				d.Statics = append(d.Statics, n)
			}
			return
		}
		for _, a := range n.Args {
			walk(a)
		}
	}
	for _, n := range d.Next {
		walk(n)
	}
	walk(d.Emit)
	all := append(slices.Clone(in), d.Statics...)
	if m == nil {
		m = modelOf("Scan", all...)
	}
	for _, s := range d.Statics {
		if s.Kind == graph.KInput {
			continue // a placeholder of an enclosing scan
		}
		if s.Model != nil && m != nil && s.Model != m {
			failf(m, "Scan", "the step function uses variables of model %q", s.Model.Name)
		}
	}
	shape := append([]int{steps}, d.Emit.Dims...)
	return asExpr(&graph.Node{Kind: graph.KOp, Op: ir.OpScan, Fn: "Scan", Dims: shape, Args: all, Scan: d, Model: m})
}

// emitScan compiles a scan's body into its own program and emits the
// scan instruction over the outer values.
func (e *emitter) emitScan(n *graph.Node) ir.ID {
	d := n.Scan
	if r := asRecurrence(d, n.Args); r != nil {
		return e.emit(r)
	}
	in := make([]ir.ID, len(n.Args))
	for i, a := range n.Args {
		in[i] = e.emit(a)
	}
	b := ir.NewBuilder(0)
	be := &emitter{c: e.c, b: b, ids: map[*graph.Node]ir.ID{}, latentOf: e.latentOf, inputs: map[*graph.Node]ir.ID{}, outer: e, ctx: e.ctx}
	for _, p := range d.CarryPh {
		be.inputs[p] = b.Input(p.Dims)
	}
	for _, p := range d.SeqPh {
		be.inputs[p] = b.Input(p.Dims)
	}
	for _, s := range d.Statics {
		be.ids[s] = b.Input(s.Dims)
	}
	for _, nx := range d.Next {
		b.AddOutput("carry", be.emit(nx))
	}
	b.AddOutput("emit", be.emit(d.Emit))
	body, err := b.Finalize(ir.None)
	e.check(err)
	id, err := e.b.EmitBody(ir.OpScan, in, []int{d.Steps, d.NCarry, d.NSeq}, -1, body)
	e.check(err)
	return id
}
