package ppl

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// Expr is a value of a model: a random variable, a deterministic quantity,
// or an expression built from them with the functions of this package
// (Add, Exp, MatVec, …). Every function taking a value accepts an Expr or
// plain Go data: float64, int, []float64, []int, [][]float64.
//
// Shapes are row-major: nil (or empty) is a scalar, [n] a vector, [r c] a
// matrix. Elementwise functions broadcast a scalar against any shape;
// otherwise their arguments must have equal shapes.
//
// The arithmetic is also a method of every expression, so that a formula
// reads left to right as it is written: theta := mu.Add(tau.Mul(z)) is
// Add(mu, Mul(tau, z)). The methods take what the functions take.
type Expr interface {
	// Shape is the expression's shape (nil for a scalar).
	Shape() []int
	node() *graph.Node

	Add(b any) Expr // Add(x, b)
	Sub(b any) Expr // Sub(x, b)
	Mul(b any) Expr // Mul(x, b)
	Div(b any) Expr // Div(x, b)
	Pow(b any) Expr // Pow(x, b)
	Neg() Expr      // Neg(x)
	Exp() Expr      // Exp(x)
	Log() Expr      // Log(x)
	Sqrt() Expr     // Sqrt(x)
	Square() Expr   // Square(x)
	Logistic() Expr // Logistic(x)
	Sum() Expr      // Sum(x)
	Dot(b any) Expr // Dot(x, b)
	// Index is Index(x, idx): elements (rows of a matrix) by 0-based
	// indices, theta.Index(school) for a group's value per observation.
	Index(idx []int) Expr
	At(i int) Expr // At(x, i)
	// Take is Take(x, idx): the element named by each index, which may be
	// a discrete variable, mu.Take(z) for each observation's component.
	Take(idx any) Expr
}

// node is an expression as a user holds it: the graph's node with the
// methods of Expr. The conversions (*node)(n) and (*graph.Node)(e) copy
// nothing, so an expression keeps its identity in the graph.
type node graph.Node

// asExpr is n as an Expr.
func asExpr(n *graph.Node) Expr { return (*node)(n) }

// node is the graph's node the expression stands for now: one made
// before new data (SetData) stands for its node made again over them.
func (n *node) node() *graph.Node {
	g := (*graph.Node)(n)
	return g.Model.Current(g)
}

// Shape returns the expression's shape (nil for a scalar).
func (n *node) Shape() []int { return slices.Clone(n.node().Dims) }

// Len is the number of elements.
func (n *node) Len() int { return ir.ShapeLen(n.node().Dims) }

// String describes the expression: a variable's name, a constant, or an
// expression's function and shape.
func (n *node) String() string { return n.node().String() }

// asNode converts a value a user passed (an Expr or Go data) into a node.
// The error message says what was passed and what is accepted.
func asNode(v any) (*graph.Node, error) {
	switch x := v.(type) {
	case nil:
		return nil, fmt.Errorf("got nil; pass a number, a slice or an expression")
	case Expr:
		n := x.node()
		if n == nil {
			return nil, fmt.Errorf("got a nil expression")
		}
		return n, nil
	case *graph.Node: // this package's own functions pass nodes on
		return x, nil
	case float64:
		return graph.Scalar(x), nil
	case float32:
		return graph.Scalar(float64(x)), nil
	case int:
		return graph.Scalar(float64(x)), nil
	case int64:
		return graph.Scalar(float64(x)), nil
	case []float64:
		// Read in place, not copied (see the package doc, "Data").
		if len(x) == 0 {
			return nil, fmt.Errorf("got an empty slice")
		}
		return graph.Const(x[:len(x):len(x)], []int{len(x)}), nil
	case *mat.Dense:
		return denseNode(x)
	case []int:
		if len(x) == 0 {
			return nil, fmt.Errorf("got an empty slice")
		}
		d := make([]float64, len(x))
		for i, v := range x {
			d[i] = float64(v)
		}
		return graph.Const(d, []int{len(x)}), nil
	case []bool:
		if len(x) == 0 {
			return nil, fmt.Errorf("got an empty slice")
		}
		d := make([]float64, len(x))
		for i, v := range x {
			if v {
				d[i] = 1
			}
		}
		return graph.Const(d, []int{len(x)}), nil
	case [][]float64:
		if len(x) == 0 || len(x[0]) == 0 {
			return nil, fmt.Errorf("got an empty matrix")
		}
		c := len(x[0])
		for i, row := range x {
			if len(row) != c {
				return nil, fmt.Errorf("matrix row %d has %d values, row 0 has %d: rows must have equal lengths", i, len(row), c)
			}
		}
		// The one copy: rows into one row-major slice, allocated once.
		d := make([]float64, len(x)*c)
		for i, row := range x {
			copy(d[i*c:], row)
		}
		return graph.Const(d, []int{len(x), c}), nil
	case [][]int:
		if len(x) == 0 || len(x[0]) == 0 {
			return nil, fmt.Errorf("got an empty matrix")
		}
		c := len(x[0])
		d := make([]float64, 0, len(x)*c)
		for i, row := range x {
			if len(row) != c {
				return nil, fmt.Errorf("matrix row %d has %d values, row 0 has %d: rows must have equal lengths", i, len(row), c)
			}
			for _, v := range row {
				d = append(d, float64(v))
			}
		}
		return graph.Const(d, []int{len(x), c}), nil
	}
	return nil, fmt.Errorf("got a %T; pass a number, []float64, []int, [][]float64, *mat.Dense or an expression", v)
}

// denseNode is a gonum matrix as a constant: its own memory when its rows
// are contiguous (a matrix made by mat.NewDense), else one copy.
func denseNode(x *mat.Dense) (*graph.Node, error) {
	if x == nil || x.IsEmpty() {
		return nil, fmt.Errorf("got an empty matrix")
	}
	raw := x.RawMatrix()
	r, c := raw.Rows, raw.Cols
	if raw.Stride == c {
		return graph.Const(raw.Data[:r*c:r*c], []int{r, c}), nil
	}
	d := make([]float64, r*c)
	for i := range r {
		copy(d[i*c:(i+1)*c], raw.Data[i*raw.Stride:])
	}
	return graph.Const(d, []int{r, c}), nil
}

// firstNonFinite returns the index of the first NaN or infinite value, or -1.
func firstNonFinite(d []float64) int {
	for i, v := range d {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return i
		}
	}
	return -1
}

// modelOf returns the one model the nodes belong to (nil for constants
// only), failing when they mix two models.
func modelOf(fn string, ns ...*graph.Node) *graph.Model {
	var m *graph.Model
	for _, n := range ns {
		if n.Model == nil {
			continue
		}
		if m == nil {
			m = n.Model
		} else if m != n.Model {
			failf(m, exprLabel(fn, ns...), "mixes variables of models %q and %q; an expression can only use one model's variables", m.Name, n.Model.Name)
		}
	}
	return m
}

// args converts the user's arguments of function fn, failing with an
// *Error naming the function and the argument when one is not a value or
// holds NaN.
func args(fn string, vs ...any) []*graph.Node {
	var m *graph.Model
	for _, w := range vs {
		if e, ok := w.(Expr); ok && e != nil && e.node() != nil && e.node().Model != nil {
			m = e.node().Model
			break
		}
	}
	ns := make([]*graph.Node, len(vs))
	for i, v := range vs {
		n, err := asNode(v)
		if err != nil {
			failf(m, fn, "argument %d: %v", i+1, err)
		}
		if n.Kind == graph.KConst {
			if j := firstNonFinite(n.Data); j >= 0 {
				failf(m, fn, "argument %d holds %v at index %d; data must be finite (remove or impute missing values)", i+1, n.Data[j], j)
			}
		}
		ns[i] = n
	}
	return ns
}
