package ppl

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/gobayes/gobayes/accel/ir"
)

// Expr is a value of a model: a random variable, a deterministic quantity,
// or an expression built from them with the functions of this package
// (Add, Exp, MatVec, …). Every function taking a value accepts an Expr or
// plain Go data: float64, int, []float64, []int, [][]float64.
//
// Shapes are row-major: nil (or empty) is a scalar, [n] a vector, [r c] a
// matrix. Elementwise functions broadcast a scalar against any shape;
// otherwise their arguments must have equal shapes.
type Expr interface {
	// Shape is the expression's shape (nil for a scalar).
	Shape() []int
	node() *node
}

type nodeKind uint8

const (
	kConst   nodeKind = iota // data fixed when the model is built
	kRV                      // a random variable's value
	kOp                      // an ir instruction over the arguments
	kReshape                 // a view of args[0] with another shape
	kInput                   // a placeholder inside a scan body
	kSlots                   // slots [ints[0], ints[0]+Len) of the unconstrained position (shard programs only)
)

// node is one vertex of the model graph. The graph is immutable: functions
// make new nodes, so a node can be shared by many expressions.
type node struct {
	kind  nodeKind
	op    ir.Op
	args  []*node
	ints  []int
	table []int // integer immediates (gather indices), nil for none
	shape []int
	data  []float64 // kConst
	rv    *RV       // kRV
	det   string    // name of the deterministic quantity it was recorded as
	scan  *scanDef  // op == ir.OpScan
	input int       // kInput: index among the scan body's placeholders
	fn    string    // the function that made it, for error messages
	model *Model    // nil when the node depends on no random variable
}

func (n *node) node() *node { return n }

// Shape returns the node's shape (nil for a scalar).
func (n *node) Shape() []int { return slices.Clone(n.shape) }

// Len is the number of elements.
func (n *node) Len() int { return ir.ShapeLen(n.shape) }

// String describes the node: a variable's name, a constant, or an
// expression's function and shape.
func (n *node) String() string { return n.describe() }

func (n *node) describe() string {
	switch {
	case n.kind == kRV:
		return n.rv.name
	case n.det != "":
		return n.det
	case n.kind == kConst && len(n.data) == 1:
		return strconv.FormatFloat(n.data[0], 'g', 6, 64)
	case n.kind == kConst:
		return fmt.Sprintf("data%v", n.shape)
	case n.kind == kInput:
		return fmt.Sprintf("scan argument %d", n.input)
	}
	return fmt.Sprintf("%s%v", n.fn, n.shape)
}

// constNode wraps data of a shape.
func constNode(data []float64, shape []int) *node {
	return &node{kind: kConst, data: data, shape: shape}
}

func scalarNode(x float64) *node { return constNode([]float64{x}, nil) }

// isConst reports whether n is known when the model is built.
func (n *node) isConst() bool { return n.kind == kConst }

// asNode converts a value a user passed (an Expr or Go data) into a node.
// The error message says what was passed and what is accepted.
func asNode(v any) (*node, error) {
	switch x := v.(type) {
	case nil:
		return nil, fmt.Errorf("got nil; pass a number, a slice or an expression")
	case Expr:
		n := x.node()
		if n == nil {
			return nil, fmt.Errorf("got a nil expression")
		}
		return n, nil
	case float64:
		return scalarNode(x), nil
	case float32:
		return scalarNode(float64(x)), nil
	case int:
		return scalarNode(float64(x)), nil
	case int64:
		return scalarNode(float64(x)), nil
	case []float64:
		if len(x) == 0 {
			return nil, fmt.Errorf("got an empty slice")
		}
		return constNode(slices.Clone(x), []int{len(x)}), nil
	case []int:
		if len(x) == 0 {
			return nil, fmt.Errorf("got an empty slice")
		}
		d := make([]float64, len(x))
		for i, v := range x {
			d[i] = float64(v)
		}
		return constNode(d, []int{len(x)}), nil
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
		return constNode(d, []int{len(x)}), nil
	case [][]float64:
		if len(x) == 0 || len(x[0]) == 0 {
			return nil, fmt.Errorf("got an empty matrix")
		}
		c := len(x[0])
		d := make([]float64, 0, len(x)*c)
		for i, row := range x {
			if len(row) != c {
				return nil, fmt.Errorf("matrix row %d has %d values, row 0 has %d: rows must have equal lengths", i, len(row), c)
			}
			d = append(d, row...)
		}
		return constNode(d, []int{len(x), c}), nil
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
		return constNode(d, []int{len(x), c}), nil
	}
	return nil, fmt.Errorf("got a %T; pass a number, []float64, []int, [][]float64 or an expression", v)
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
func modelOf(fn string, ns ...*node) *Model {
	var m *Model
	for _, n := range ns {
		if n.model == nil {
			continue
		}
		if m == nil {
			m = n.model
		} else if m != n.model {
			m.failf(exprLabel(fn, ns...), "mixes variables of models %q and %q; an expression can only use one model's variables", m.name, n.model.name)
		}
	}
	return m
}

// args converts the user's arguments of function fn, failing with an
// *Error naming the function and the argument when one is not a value or
// holds NaN.
func args(fn string, vs ...any) []*node {
	var m *Model
	for _, w := range vs {
		if e, ok := w.(Expr); ok && e != nil && e.node() != nil && e.node().model != nil {
			m = e.node().model
			break
		}
	}
	ns := make([]*node, len(vs))
	for i, v := range vs {
		n, err := asNode(v)
		if err != nil {
			m.failf(fn, "argument %d: %v", i+1, err)
		}
		if n.kind == kConst {
			if j := firstNonFinite(n.data); j >= 0 {
				m.failf(fn, "argument %d holds %v at index %d; data must be finite (remove or impute missing values)", i+1, n.data[j], j)
			}
		}
		ns[i] = n
	}
	return ns
}
