package graph

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/gobayes/gobayes/accel/ir"
)

// Kind says what a Node is.
type Kind uint8

const (
	KConst   Kind = iota // data fixed when the model is built
	KRV                  // a random variable's value
	KOp                  // an ir instruction over the arguments
	KReshape             // a view of Args[0] with another shape
	KInput               // a placeholder inside a scan body
	KSlots               // slots [Ints[0], Ints[0]+Len) of the unconstrained position (shard programs only)
)

// Node is one vertex of the model graph. The graph is immutable once a
// node is made: functions make new nodes, so a node can be shared by many
// expressions (and its pointer identifies it to the compiler's caches).
type Node struct {
	Kind  Kind
	Op    ir.Op
	Args  []*Node
	Ints  []int     // integer immediates of Op
	Table []int     // table immediates (gather indices), nil for none
	Dims  []int     // the shape, row-major; nil for a scalar
	Data  []float64 // KConst
	RV    *RV       // KRV
	Det   string    // name of the deterministic quantity it was recorded as
	Scan  *Scan     // Op == ir.OpScan
	Input int       // KInput: index among the scan body's placeholders
	Fn    string    // the function that made it, for messages
	// Container names the data container a KConst node is the current
	// value of (Model.Data), "" for other data.
	Container string
	Model     *Model // nil when the node depends on no random variable
	// TableOf is the data container Table was read from (Index over
	// m.Data's indices), nil for indices given as they are: new data for
	// the container make the node again.
	TableOf *Node
	// Label names a constant where the user named it (a formula's Using
	// name, pi), for listings; "" shows its value or shape.
	Label string
}

// Const wraps data of a shape.
func Const(data []float64, dims []int) *Node {
	return &Node{Kind: KConst, Data: data, Dims: dims}
}

// Scalar is the constant x.
func Scalar(x float64) *Node { return Const([]float64{x}, nil) }

// Len is the number of elements.
func (n *Node) Len() int { return ir.ShapeLen(n.Dims) }

// IsConst reports whether n is data, known when the model is built.
func (n *Node) IsConst() bool { return n.Kind == KConst }

// String describes the node for messages: a variable's name, a
// deterministic quantity's, a constant, or the function that made it and
// its shape.
func (n *Node) String() string {
	switch {
	case n.Kind == KRV:
		return n.RV.Name
	case n.Det != "":
		return n.Det
	case n.Container != "":
		return n.Container
	case n.Kind == KConst && n.Label != "":
		return n.Label
	case n.Kind == KConst && len(n.Data) == 1:
		return strconv.FormatFloat(n.Data[0], 'g', 6, 64)
	case n.Kind == KConst:
		return fmt.Sprintf("data%v", n.Dims)
	case n.Kind == KInput:
		return fmt.Sprintf("scan argument %d", n.Input)
	}
	return fmt.Sprintf("%s%v", n.Fn, n.Dims)
}

// FnName names the function that made n, or its instruction.
func (n *Node) FnName() string {
	if n.Fn != "" {
		return n.Fn
	}
	return n.Op.String()
}

// Same reports whether a and b compute the same thing: the same node, or
// nodes of the same kind, op, immediates, shape and data over the same
// arguments (variables and scan bodies by identity). It lets a notebook
// cell run again recognise what it made the first time.
func Same(a, b *Node) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Kind != b.Kind || a.Op != b.Op || a.RV != b.RV || a.Scan != b.Scan ||
		a.Det != b.Det || a.Container != b.Container || a.Input != b.Input || a.Model != b.Model || len(a.Args) != len(b.Args) ||
		!slices.Equal(a.Ints, b.Ints) || !slices.Equal(a.Table, b.Table) || !slices.Equal(a.Dims, b.Dims) ||
		!slices.Equal(a.Data, b.Data) || (a.TableOf == nil) != (b.TableOf == nil) ||
		a.TableOf != nil && a.TableOf.Container != b.TableOf.Container {
		return false
	}
	for i := range a.Args {
		if !Same(a.Args[i], b.Args[i]) {
			return false
		}
	}
	return true
}
