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
		failf(m, exprLabel("LinearRecurrence", ns...), "the initial value has shape %v; want a scalar", ns[0].Dims)
	}
	t := 1
	for _, n := range ns[1:] {
		if l := n.Len(); l != 1 {
			if t != 1 && l != t {
				failf(m, exprLabel("LinearRecurrence", ns...), "a has %d values and b %d; want vectors of the same length (the steps) or scalars", ns[1].Len(), ns[2].Len())
			}
			t = l
		}
	}
	return asExpr(opNode("LinearRecurrence", ir.OpLinearRecurrence, []int{t}, ns, nil, nil))
}
