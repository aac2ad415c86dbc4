package ppl

import (
	"fmt"
	"math"
	"slices"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/dist"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// opNode makes a node computing op over ns with the given output shape.
func opNode(fn string, op ir.Op, shape []int, ns []*graph.Node, ints, table []int) *graph.Node {
	return &graph.Node{Kind: graph.KOp, Op: op, Fn: fn, Dims: shape, Args: ns, Ints: ints, Table: table, Model: modelOf(fn, ns...)}
}

// broadcast returns the output shape of an elementwise function: every
// argument has the same shape or is a scalar (one element).
func broadcast(fn string, ns []*graph.Node) []int {
	var out []int
	for _, n := range ns {
		if n.Len() == 1 {
			continue
		}
		if out == nil {
			out = n.Dims
			continue
		}
		if !slices.Equal(out, n.Dims) {
			failf(modelOf(fn, ns...), exprLabel(fn, ns...), "shapes %v and %v differ; elementwise functions need equal shapes or a scalar", out, n.Dims)
		}
	}
	if out == nil {
		// All scalars: keep a vector of one when one argument is one.
		for _, n := range ns {
			if len(n.Dims) > 0 {
				return slices.Clone(n.Dims)
			}
		}
		return nil
	}
	return slices.Clone(out)
}

func unary(fn string, op ir.Op, x any) Expr {
	ns := args(fn, x)
	return asExpr(opNode(fn, op, slices.Clone(ns[0].Dims), ns, nil, nil))
}

func elementwise(fn string, op ir.Op, xs ...any) Expr {
	ns := args(fn, xs...)
	return asExpr(opNode(fn, op, broadcast(fn, ns), ns, nil, nil))
}

// Add is a + b, elementwise.
func Add(a, b any) Expr { return elementwise("Add", ir.OpAdd, a, b) }

// Sub is a - b, elementwise.
func Sub(a, b any) Expr { return elementwise("Sub", ir.OpSub, a, b) }

// Mul is a · b, elementwise (see MatVec and Dot for products of linear
// algebra).
func Mul(a, b any) Expr { return elementwise("Mul", ir.OpMul, a, b) }

// Div is a / b, elementwise.
func Div(a, b any) Expr { return elementwise("Div", ir.OpDiv, a, b) }

// Pow is a to the power b, elementwise.
func Pow(a, b any) Expr { return elementwise("Pow", ir.OpPow, a, b) }

// Min is the smaller of a and b, elementwise (NaN if either is; the
// gradient goes to the one taken, to a on ties).
func Min(a, b any) Expr { return elementwise("Min", ir.OpMin, a, b) }

// Max is the larger of a and b, elementwise (as Min).
func Max(a, b any) Expr { return elementwise("Max", ir.OpMax, a, b) }

// Clip is x limited to [lo, hi], elementwise: Min(Max(x, lo), hi).
func Clip(x, lo, hi any) Expr { return Min(Max(x, lo), hi) }

// Neg is -x.
func Neg(x any) Expr { return unary("Neg", ir.OpNeg, x) }

// Exp is eˣ, elementwise.
func Exp(x any) Expr { return unary("Exp", ir.OpExp, x) }

// Log is the natural logarithm, elementwise.
func Log(x any) Expr { return unary("Log", ir.OpLog, x) }

// Log1p is log(1+x), accurate for small x.
func Log1p(x any) Expr { return unary("Log1p", ir.OpLog1p, x) }

// Expm1 is eˣ-1, accurate for small x.
func Expm1(x any) Expr { return unary("Expm1", ir.OpExpm1, x) }

// Sqrt is the square root, elementwise.
func Sqrt(x any) Expr { return unary("Sqrt", ir.OpSqrt, x) }

// Square is x², elementwise.
func Square(x any) Expr { return unary("Square", ir.OpSquare, x) }

// Logistic is 1/(1+e⁻ˣ) (Stan's inv_logit), elementwise.
func Logistic(x any) Expr { return unary("Logistic", ir.OpLogistic, x) }

// Logit is log(x/(1-x)), the inverse of Logistic.
func Logit(x any) Expr { return unary("Logit", ir.OpLogit, x) }

// Softplus is log(1+eˣ) (Stan's log1p_exp), elementwise.
func Softplus(x any) Expr { return unary("Softplus", ir.OpSoftplus, x) }

// Lgamma is the log of the absolute gamma function, elementwise.
func Lgamma(x any) Expr { return unary("Lgamma", ir.OpLgamma, x) }

// Abs is |x|, elementwise.
func Abs(x any) Expr { return unary("Abs", ir.OpAbs, x) }

// Tanh is the hyperbolic tangent, elementwise.
func Tanh(x any) Expr { return unary("Tanh", ir.OpTanh, x) }

// Step is 1 where x > 0 and 0 elsewhere, elementwise, with no gradient:
// for data, and for a discrete variable that is enumerated (a
// changepoint's rate: late.Add(early.Sub(late).Mul(ppl.Step(s.Sub(t))))).
func Step(x any) Expr { return unary("Step", ir.OpStep, x) }

// Inv is 1/x, elementwise.
func Inv(x any) Expr { return unary("Inv", ir.OpInv, x) }

// LogMix is log(θ·eᵃ + (1-θ)·eᵇ) (Stan's log_mix), elementwise: the log
// density of a two-component mixture with weight θ from the components'
// log densities a and b.
func LogMix(theta, a, b any) Expr { return elementwise("LogMix", ir.OpLogMix, theta, a, b) }

// Sum adds all elements of x into a scalar.
func Sum(x any) Expr {
	ns := args("Sum", x)
	return asExpr(opNode("Sum", ir.OpSum, nil, ns, nil, nil))
}

// LogSumExp is log Σ exp(xᵢ) over all elements of x, a scalar.
func LogSumExp(x any) Expr {
	ns := args("LogSumExp", x)
	return asExpr(opNode("LogSumExp", ir.OpLogSumExp, nil, ns, nil, nil))
}

// Dot is Σ aᵢbᵢ; a and b have the same number of elements.
func Dot(a, b any) Expr {
	ns := args("Dot", a, b)
	if ns[0].Len() != ns[1].Len() {
		failf(modelOf("Dot", ns...), exprLabel("Dot", ns...), "lengths %d and %d differ", ns[0].Len(), ns[1].Len())
	}
	return asExpr(opNode("Dot", ir.OpDot, nil, ns, nil, nil))
}

// Index gathers elements (or, of a matrix, rows) of x by 0-based Go
// indices: Index(alpha, county) is alpha[county[i]] for every i, the
// varying intercept of a hierarchical model. The indices are a []int, or
// an integer data container (m.Data("county_idx", []int{…})), which
// SetData swaps for new rows to predict at. Note: Stan and R count from
// 1; subtract one from such data.
func Index(x any, idx any) Expr {
	ns := args("Index", x)
	n := ns[0]
	m := modelOf("Index", n)
	ids, of := indices(n, idx)
	if of != nil {
		out := Index(n, ids).node()
		out.TableOf = of
		return asExpr(out)
	}
	return gather(n, m, ids)
}

// indices reads Index's indices: a []int as it is, or a data container's
// values, which must be whole numbers (of is the container, nil for a
// []int).
func indices(n *graph.Node, idx any) (ids []int, of *graph.Node) {
	switch v := idx.(type) {
	case []int:
		return v, nil
	case Expr:
		c := v.node()
		if c != nil && c.Kind == graph.KConst && c.Container != "" {
			ids = make([]int, len(c.Data))
			for i, f := range c.Data {
				if f != math.Trunc(f) {
					failf(modelOf("Index", n), exprLabel("Index", n, c), "index %v at position %d of container %q is not a whole number; indices are 0-based integers", f, i, c.Container)
				}
				ids[i] = int(f)
			}
			return ids, c
		}
	}
	failf(modelOf("Index", n), exprLabel("Index", n), "the indices are a %T; give a []int or an integer data container (m.Data(name, []int{…}))", idx)
	return nil, nil
}

// gather is Index over fixed indices.
func gather(n *graph.Node, m *graph.Model, idx []int) Expr {
	ns := []*graph.Node{n}
	if len(idx) == 0 {
		failf(m, exprLabel("Index", n), "no indices given")
	}
	switch len(n.Dims) {
	case 0, 1:
		l := n.Len()
		for i, j := range idx {
			if j < 0 || j >= l {
				failf(m, exprLabel("Index", n), "index %d at position %d is outside [0, %d); indices are 0-based", j, i, l)
			}
		}
		return asExpr(opNode("Index", ir.OpGather, []int{len(idx)}, ns, nil, slices.Clone(idx)))
	case 2:
		r := n.Dims[0]
		for i, j := range idx {
			if j < 0 || j >= r {
				failf(m, exprLabel("Index", n), "row index %d at position %d is outside [0, %d); indices are 0-based", j, i, r)
			}
		}
		return asExpr(opNode("Index", ir.OpGatherRow, []int{len(idx), n.Dims[1]}, ns, nil, slices.Clone(idx)))
	}
	failf(m, exprLabel("Index", n), "cannot index a value of shape %v", n.Dims)
	return nil
}

// Where is a where cond holds and b elsewhere, elementwise, for a
// condition given as data (a []bool, or numbers where non-zero holds):
// ppl.Where(treated, effect.Add(base), base). a and b are scalars or
// vectors of the condition's length; the gradient reaches only the
// elements taken. The condition may also be a discrete variable (or an
// expression of discrete variables alone): a label z of a two-component
// mixture, summed out when the model compiles (see Take), reads
// ppl.Where(z, mu1, mu0); a and b must then be finite. (A condition on
// continuous parameters has no gradient; write it with Max, Min or
// Logistic instead.)
func Where(cond, a, b any) Expr {
	if v, ok := cond.(bool); ok {
		if v {
			cond = 1.0
		} else {
			cond = 0.0
		}
	}
	c, err := asNode(cond)
	if err != nil {
		failf(nil, "Where", "%s", err.Error())
	}
	if !c.IsConst() {
		if discreteIn(c) {
			return whereVar(c, a, b)
		}
		failf(modelOf("Where", c), "Where", "the condition must be data (a []bool or numbers), known when the model is built, or a discrete variable (a Bernoulli label that enumeration sums out)")
	}
	if c.Container != "" {
		failf(nil, "Where", "the condition is data container %q, which new data (SetData) could not follow; give the condition as Go values", c.Container)
	}
	n := c.Len()
	if len(c.Dims) > 1 {
		failf(nil, "Where", "the condition has shape %v; want a vector or a scalar", c.Dims)
	}
	// Gather from [a..., b...] (each as long as the condition): element i
	// of a where the condition holds, of b (at n+i) elsewhere.
	full := func(x any, which string) Expr {
		e := asExpr(args("Where", x)[0])
		switch {
		case e.node().Len() == n && len(e.Shape()) <= 1:
			if n == 1 {
				return Fill(e, 1)
			}
			return e
		case e.node().Len() == 1:
			return Fill(e, n)
		}
		failf(modelOf("Where", e.node()), exprLabel("Where", e.node()), "%s has shape %v; want a scalar or %d elements, as the condition", which, e.Shape(), n)
		return nil
	}
	idx := make([]int, n)
	for i, v := range c.Data {
		idx[i] = i
		if v == 0 {
			idx[i] = n + i
		}
	}
	out := Index(Concat(full(a, "a"), full(b, "b")), idx)
	out.node().Fn = "Where" // its table holds the condition: SetData refuses a new shape
	if len(c.Dims) == 0 {
		return At(out, 0)
	}
	return out
}

// whereVar is Where over a condition computed from discrete variables:
// a·[c ≠ 0] + b·[c = 0], elementwise. When enumeration puts a value in
// place of the variable, the condition becomes data and Where is made
// again as the gather above (enumerate.go's substitution does so).
func whereVar(c *graph.Node, a, b any) Expr {
	ns := args("Where", c, a, b)
	if len(c.Dims) > 1 {
		failf(modelOf("Where", ns...), exprLabel("Where", ns...), "the condition has shape %v; want a vector or a scalar", c.Dims)
	}
	for i, x := range ns[1:] {
		if x.Len() != 1 && (x.Len() != c.Len() || len(x.Dims) > 1) {
			failf(modelOf("Where", ns...), exprLabel("Where", ns...), "%s has shape %v; want a scalar or %d elements, as the condition", []string{"a", "b"}[i], x.Dims, c.Len())
		}
	}
	on := Step(Abs(c)) // 1 where c ≠ 0
	out := Add(Mul(on, ns[1]), Mul(Sub(1, on), ns[2])).node()
	out.Fn = "Where"
	return asExpr(out)
}

// whereVarArgs are the condition and branches of a Where made by
// whereVar (ok false for any other node).
func whereVarArgs(n *graph.Node) (cond, a, b *graph.Node, ok bool) {
	if n.Fn != "Where" || n.Kind != graph.KOp || n.Op != ir.OpAdd || len(n.Args) != 2 {
		return nil, nil, nil, false
	}
	// n = Add(Mul(Step(Abs(cond)), a), Mul(Sub(1, …), b))
	ta, tb := n.Args[0], n.Args[1]
	return ta.Args[0].Args[0].Args[0], ta.Args[1], tb.Args[1], true
}

// Take is x[idx] elementwise: for every element of idx (data of whole
// numbers 0 … K-1, or a discrete variable), the element of the vector x
// [K] it names, in idx's shape. With data it is Index. With a discrete
// variable it is the value of each observation's component — the way a
// mixture is written with its labels, which the compiler sums out
// (enumeration, as NumPyro's):
//
//	z := m.Categorical("z", w, ppl.Size(n))            // a label per observation
//	m.Normal("y", mu.Take(z), sigma.Take(z), ppl.Observed(y))
//
// The gradient reaches x (a label has none).
func Take(x any, idx any) Expr {
	ns := args("Take", x, idx)
	v, z := ns[0], ns[1]
	if len(v.Dims) != 1 {
		failf(modelOf("Take", ns...), exprLabel("Take", ns...), "takes from a vector [K] of values, not shape %v", v.Dims)
	}
	k := v.Len()
	if z.IsConst() && z.Container != "" && len(z.Dims) == 1 {
		return Index(v, asExpr(z)) // a container of indices: SetData swaps them
	}
	if z.IsConst() && z.Container == "" {
		ids := make([]int, z.Len())
		for i, f := range z.Data {
			if f != math.Trunc(f) || f < 0 || f >= float64(k) {
				failf(modelOf("Take", ns...), exprLabel("Take", ns...), "index %v at position %d is not one of 0 … %d", f, i, k-1)
			}
			ids[i] = int(f)
		}
		out := Index(v, ids)
		if len(z.Dims) == 1 {
			return out
		}
		return Reshape(out, z.Dims...)
	}
	if !discreteIn(z) {
		failf(modelOf("Take", ns...), exprLabel("Take", ns...), "the indices must be data or a discrete variable (an expression of discrete variables alone)")
	}
	// One row per element of idx, a one in the column of its value: the
	// product with x takes that value. Enumeration puts each value in
	// place of the variable and makes Take again over data (enumerate.go).
	n := z.Len()
	flat := &graph.Node{Kind: graph.KReshape, Fn: "Reshape", Dims: []int{n}, Args: []*graph.Node{z}, Model: z.Model}
	rep := make([]int, n*k)
	col := make([]float64, n*k)
	for i := range n {
		for j := range k {
			rep[i*k+j], col[i*k+j] = i, float64(j)
		}
	}
	onehot := Step(Sub(0.5, Abs(Sub(Index(flat, rep), col))))
	prod := MatVec(Reshape(onehot, n, k), v).node()
	return asExpr(&graph.Node{Kind: graph.KReshape, Fn: "Take", Dims: slices.Clone(z.Dims), Args: []*graph.Node{prod}, Model: prod.Model})
}

// takeArgs are the vector and the indices of a Take over a discrete
// variable (ok false for any other node).
func takeArgs(n *graph.Node) (x, idx *graph.Node, ok bool) {
	if n.Fn != "Take" || n.Kind != graph.KReshape || len(n.Args) != 1 || n.Args[0].Op != ir.OpMatVec {
		return nil, nil, false
	}
	prod := n.Args[0]
	// prod = MatVec(Reshape(Step(Sub(0.5, Abs(Sub(Index(flat, rep), col))))), x)
	flat := prod.Args[0].Args[0].Args[0].Args[1].Args[0].Args[0].Args[0]
	return prod.Args[1], flat.Args[0], true
}

// discreteIn reports whether n is computed from discrete variables and
// data alone, one variable at least.
func discreteIn(n *graph.Node) bool {
	seen := map[*graph.Node]bool{}
	some, all := false, true
	var walk func(n *graph.Node)
	walk = func(n *graph.Node) {
		if seen[n] || !all {
			return
		}
		seen[n] = true
		if n.Kind == graph.KRV {
			d := n.RV.Fam != nil && n.RV.Fam.Discrete || n.RV.Mix != nil && n.RV.Mix.Comps[0].Fam.Discrete
			some, all = some || d, all && d
			return
		}
		for _, a := range n.Args {
			walk(a)
		}
	}
	walk(n)
	return some && all
}

// At is the scalar element of x at 0-based position i (row-major: At(A,
// i*cols+j) of a matrix). Index gathers many at once.
func At(x any, i int) Expr {
	ns := args("At", x)
	n := ns[0]
	if i < 0 || i >= n.Len() {
		failf(modelOf("At", n), exprLabel("At", n), "index %d is outside [0, %d); indices are 0-based", i, n.Len())
	}
	g := opNode("At", ir.OpSlice, []int{1}, ns, []int{i, 1}, nil)
	return asExpr(&graph.Node{Kind: graph.KReshape, Fn: "At", Args: []*graph.Node{g}, Model: g.Model})
}

// Slice is the elements [from, to) of x (0-based, flattened row-major).
func Slice(x any, from, to int) Expr {
	ns := args("Slice", x)
	n := ns[0]
	if from < 0 || to > n.Len() || from >= to {
		failf(modelOf("Slice", n), exprLabel("Slice", n), "[%d, %d) is not a non-empty range inside [0, %d)", from, to, n.Len())
	}
	return asExpr(opNode("Slice", ir.OpSlice, []int{to - from}, ns, []int{from, to - from}, nil))
}

// Concat joins the elements of its arguments into one vector.
func Concat(xs ...any) Expr {
	ns := args("Concat", xs...)
	if len(ns) == 0 {
		panic(&Error{Msg: "Concat needs at least one argument"})
	}
	l := 0
	for _, n := range ns {
		l += n.Len()
	}
	return asExpr(opNode("Concat", ir.OpConcat, []int{l}, ns, []int{l}, nil))
}

// Stack puts arguments of one shape side by side along a new first axis:
// Stack(a, b) of two [n] vectors is a [2 n] matrix.
func Stack(xs ...any) Expr {
	ns := args("Stack", xs...)
	if len(ns) == 0 {
		panic(&Error{Msg: "Stack needs at least one argument"})
	}
	for _, n := range ns[1:] {
		if !slices.Equal(n.Dims, ns[0].Dims) {
			failf(modelOf("Stack", ns...), exprLabel("Stack", ns...), "shapes %v and %v differ; Stack needs equal shapes (Concat joins vectors of any length)", ns[0].Dims, n.Dims)
		}
	}
	shape := append([]int{len(ns)}, ns[0].Dims...)
	return asExpr(opNode("Stack", ir.OpConcat, shape, ns, shape, nil))
}

// Fill broadcasts a scalar x to the given shape.
func Fill(x any, shape ...int) Expr {
	ns := args("Fill", x)
	if ns[0].Len() != 1 {
		failf(modelOf("Fill", ns...), exprLabel("Fill", ns...), "Fill needs a scalar, got shape %v", ns[0].Dims)
	}
	checkShape("Fill", shape)
	return asExpr(opNode("Fill", ir.OpFill, slices.Clone(shape), ns, slices.Clone(shape), nil))
}

// Reshape views x with another shape of the same number of elements.
func Reshape(x any, shape ...int) Expr {
	ns := args("Reshape", x)
	checkShape("Reshape", shape)
	if ir.ShapeLen(shape) != ns[0].Len() {
		failf(modelOf("Reshape", ns...), exprLabel("Reshape", ns...), "cannot view %d elements as %v", ns[0].Len(), shape)
	}
	return asExpr(&graph.Node{Kind: graph.KReshape, Fn: "Reshape", Dims: slices.Clone(shape), Args: ns, Model: ns[0].Model})
}

func checkShape(fn string, shape []int) {
	for _, d := range shape {
		if d <= 0 {
			panic(&Error{Var: fn, Msg: fmt.Sprintf("shape %v has a dimension that is not positive", shape)})
		}
	}
}

// LogPDF is the log density (or mass) of a scalar family at y, one term
// per element (Stan's normal_lpdf before the sum; Sum gives the total):
// family is a name ("Normal", "Poisson", …, as the Model methods call
// them) or a *dist.Family, params its parameters in order. Use it in
// LogDensity terms, mixtures written by hand, and scan steps (the HMM
// forward algorithm).
func LogPDF(family any, y any, params ...any) Expr {
	fam := familyOf(family)
	if fam.EventRank != 0 {
		panic(&Error{Var: "LogPDF", Msg: fmt.Sprintf("%s is multivariate; LogPDF takes scalar families", fam.Name)})
	}
	ns := args("LogPDF", append([]any{y}, params...)...)
	if len(params) != len(fam.Params) {
		failf(modelOf("LogPDF", ns...), exprLabel("LogPDF", ns...), "%s takes %d parameters (%v), got %d", fam.Name, len(fam.Params), fam.Params, len(params))
	}
	if fam.Op == ir.OpNop {
		return Mul(0, y)
	}
	return asExpr(opNode("LogPDF", fam.Op, broadcast("LogPDF", ns), ns, []int{1}, nil))
}

func familyOf(f any) *dist.Family {
	switch x := f.(type) {
	case string:
		return family(x)
	case *dist.Family:
		if x != nil {
			return x
		}
	}
	panic(&Error{Var: "LogPDF", Msg: fmt.Sprintf("family %v: want a family name such as \"Normal\" or a *dist.Family", f)})
}

// Digamma is ψ(x), the derivative of Lgamma, elementwise.
func Digamma(x any) Expr { return unary("Digamma", ir.OpDigamma, x) }

// Row is row i (0-based) of the matrix x, a vector.
func Row(x any, i int) Expr {
	ns := args("Row", x)
	n := ns[0]
	if len(n.Dims) != 2 || i < 0 || i >= n.Dims[0] {
		failf(modelOf("Row", n), exprLabel("Row", n), "row %d of shape %v: want a matrix and a 0-based row inside it", i, n.Dims)
	}
	c := n.Dims[1]
	return asExpr(opNode("Row", ir.OpSlice, []int{c}, ns, []int{i * c, c}, nil))
}

// Col is column j (0-based) of the matrix x, a vector.
func Col(x any, j int) Expr {
	ns := args("Col", x)
	n := ns[0]
	if len(n.Dims) != 2 || j < 0 || j >= n.Dims[1] {
		failf(modelOf("Col", n), exprLabel("Col", n), "column %d of shape %v: want a matrix and a 0-based column inside it", j, n.Dims)
	}
	r, c := n.Dims[0], n.Dims[1]
	idx := make([]int, r)
	for i := range idx {
		idx[i] = i*c + j
	}
	flat := &graph.Node{Kind: graph.KReshape, Fn: "Col", Dims: []int{r * c}, Args: ns, Model: n.Model}
	return asExpr(opNode("Col", ir.OpGather, []int{r}, []*graph.Node{flat}, nil, idx))
}

// Mean is the mean of the elements of x, a scalar.
func Mean(x any) Expr {
	ns := args("Mean", x)
	d := Div(Sum(ns[0]), float64(ns[0].Len())).node()
	d.Fn = "Mean" // new data (SetData) make it again with their length
	return asExpr(d)
}

// LogSoftmax is x - LogSumExp(x): log probabilities from logits.
func LogSoftmax(x any) Expr {
	ns := args("LogSoftmax", x)
	return Sub(ns[0], LogSumExp(ns[0]))
}

// Softmax is exp(LogSoftmax(x)): probabilities from logits.
func Softmax(x any) Expr { return Exp(LogSoftmax(x)) }

// CumSum is the running sum of the vector x: out[i] = x[0] + … + x[i] (a
// random walk from its increments), traced as a Scan.
func CumSum(x any) Expr {
	ns := args("CumSum", x)
	n := ns[0]
	if len(n.Dims) != 1 {
		failf(modelOf("CumSum", n), exprLabel("CumSum", n), "shape %v; want a vector", n.Dims)
	}
	return Scan(n.Dims[0], []any{0.0}, []any{n}, func(c, x []Expr) ([]Expr, Expr) {
		s := Add(c[0], x[0])
		return []Expr{s}, s
	})
}
