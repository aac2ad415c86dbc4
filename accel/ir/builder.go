package ir

import (
	"fmt"
	"slices"
)

// Builder assembles a Program. Its methods check shapes as they go and
// return errors in the user's terms; the first error sticks (Finalize
// returns it).
type Builder struct {
	p       Program
	aliasOf map[ID]ID
	err     error
	// small are the constants copied into each frame (Init, made once in
	// Finalize); shared those the program holds once (Program.Shared),
	// placed by Finalize after the frame's slots.
	small, shared []pendingConst
	// planner adds the kernels of another package (SetPlanner).
	planner Planner
}

// pendingConst is a constant waiting for Finalize.
type pendingConst struct {
	id   ID
	data []float64
}

// SharedMin is the length from which a constant is shared (held once by
// the program, read in place by every frame) rather than copied into each
// frame: small constants sit beside the values that use them, data do not
// multiply with the chains.
const SharedMin = 256

// sharedMin is SharedMin, lowered by tests (SetSharedMin) to run every
// program with its vectors shared.
var sharedMin = SharedMin

// NewBuilder starts a program over a position vector of dim slots. Value 0
// is the whole position.
func NewBuilder(dim int) *Builder {
	b := &Builder{aliasOf: map[ID]ID{}}
	b.p.Dim = dim
	b.p.Target = None
	b.p.Values = []Value{{Off: 0, Len: dim, Shape: []int{dim}, Kind: Param, Name: "position"}}
	b.p.Size = dim
	return b
}

// Shape returns the shape of value id.
func (b *Builder) Shape(id ID) []int { return b.p.Values[id].Shape }

// Name sets the value's name (shown in dumps and errors).
func (b *Builder) Name(id ID, name string) { b.p.Values[id].Name = name }

func (b *Builder) alloc(n int, shape []int, k Kind) ID {
	id := ID(len(b.p.Values))
	b.p.Values = append(b.p.Values, Value{Off: b.p.Size, Len: n, Shape: slices.Clone(shape), Kind: k})
	b.p.Size += n
	return id
}

// ParamSlice is a view of position slots [off, off+ShapeLen(shape)).
func (b *Builder) ParamSlice(off int, shape []int) ID {
	n := ShapeLen(shape)
	if off < 0 || off+n > b.p.Dim {
		panic(fmt.Sprintf("ir: ParamSlice [%d,%d) outside position of %d", off, off+n, b.p.Dim))
	}
	id := ID(len(b.p.Values))
	b.p.Values = append(b.p.Values, Value{Off: off, Len: n, Shape: slices.Clone(shape), Kind: Param})
	return id
}

// Const adds constant data of the given shape (nil shape: a scalar). The
// program keeps a copy: data may change afterwards.
func (b *Builder) Const(data []float64, shape []int) ID {
	if len(data) >= sharedMin {
		data = slices.Clone(data)
	}
	return b.SharedConst(data, shape)
}

// SharedConst is Const without the copy: a constant of SharedMin values
// or more is data itself, which every frame of the program reads in place,
// so the caller must never change data afterwards (a model's data: the
// program and the model then hold one copy between them). A smaller one
// is copied, as Const does.
func (b *Builder) SharedConst(data []float64, shape []int) ID {
	if len(data) != ShapeLen(shape) {
		panic(fmt.Sprintf("ir: Const of %d values with shape %v", len(data), shape))
	}
	if len(data) >= sharedMin {
		id := ID(len(b.p.Values))
		b.p.Values = append(b.p.Values, Value{Off: -1, Len: len(data), Shape: slices.Clone(shape), Kind: Const})
		b.shared = append(b.shared, pendingConst{id, data})
		return id
	}
	id := b.alloc(len(data), shape, Const)
	if len(data) == 1 {
		b.small = append(b.small, pendingConst{id, []float64{data[0]}})
	} else {
		b.small = append(b.small, pendingConst{id, slices.Clone(data)})
	}
	return id
}

// Scalar adds a constant scalar.
func (b *Builder) Scalar(x float64) ID { return b.Const([]float64{x}, nil) }

// Table adds integer data (gather indices, observed categories) and returns
// its index for Instr.Table.
func (b *Builder) Table(idx []int) int {
	b.p.Tables = append(b.p.Tables, slices.Clone(idx))
	return len(b.p.Tables) - 1
}

// Reshape returns a view of id with another shape of the same length.
func (b *Builder) Reshape(id ID, shape []int) (ID, error) {
	v := b.p.Values[id]
	if ShapeLen(shape) != v.Len {
		return None, b.fail(fmt.Errorf("cannot reshape %v (%d values) to %v", v.Shape, v.Len, shape))
	}
	nid := ID(len(b.p.Values))
	v.Shape = slices.Clone(shape)
	v.Name = ""
	b.p.Values = append(b.p.Values, v)
	src := id
	if s, ok := b.aliasOf[id]; ok {
		src = s
	}
	b.aliasOf[nid] = src
	return nid, nil
}

func (b *Builder) fail(err error) error {
	if b.err == nil {
		b.err = err
	}
	return err
}

// Emit appends out = op(in...) and returns out. ints and table are the
// op's immediates (nil and -1 when it has none).
func (b *Builder) Emit(op Op, in []ID, ints []int, table int) (ID, error) {
	return b.EmitBody(op, in, ints, table, nil)
}

// EmitBody is Emit for ops with a sub-program (OpScan).
func (b *Builder) EmitBody(op Op, in []ID, ints []int, table int, body *Program) (ID, error) {
	if op <= OpNop || op >= NumOps {
		return None, b.fail(fmt.Errorf("invalid op %d", op))
	}
	d := &defs[op]
	if d.Forward == nil {
		return None, b.fail(fmt.Errorf("%s is not implemented", op))
	}
	if d.Arity >= 0 && len(in) != d.Arity || d.Arity < 0 && len(in) == 0 {
		return None, b.fail(fmt.Errorf("%s takes %d arguments, got %d", d.Name, d.Arity, len(in)))
	}
	ins := Instr{Op: op, In: slices.Clone(in), Ints: slices.Clone(ints), Table: table, Body: body, Scratch: None}
	args := make([][]int, len(in))
	for i, a := range in {
		if a < 0 || int(a) >= len(b.p.Values) {
			return None, b.fail(fmt.Errorf("%s: argument %d is not a value", d.Name, i))
		}
		args[i] = b.p.Values[a].Shape
	}
	shape, err := d.Shape(&b.p, &ins, args)
	if err != nil {
		return None, b.fail(err)
	}
	ins.Out = b.alloc(ShapeLen(shape), shape, Temp)
	if d.Scratch != nil {
		if n := d.Scratch(&b.p, &ins); n > 0 {
			ins.Scratch = b.alloc(n, []int{n}, Temp)
		}
	}
	b.p.Instrs = append(b.p.Instrs, ins)
	return ins.Out, nil
}

// Input declares a value set from outside before each run (an argument of
// a scan body): it is written by no instruction.
func (b *Builder) Input(shape []int) ID {
	id := b.alloc(ShapeLen(shape), shape, Temp)
	b.p.Inputs = append(b.p.Inputs, id)
	return id
}

// AddOutput names a value to be read after a forward pass.
func (b *Builder) AddOutput(name string, id ID) {
	b.p.Outputs = append(b.p.Outputs, Output{Name: name, ID: id})
}

// Finalize sets the target (a scalar), drops instructions that neither the
// target nor an output needs, marks which values carry gradients, and
// returns the program. The builder must not be used afterwards.
func (b *Builder) Finalize(target ID) (*Program, error) {
	if b.err != nil {
		return nil, b.err
	}
	if target != None && b.p.Values[target].Len != 1 {
		return nil, fmt.Errorf("ir: target has shape %v, want a scalar", b.p.Values[target].Shape)
	}
	p := b.p
	p.Target = target
	root := func(id ID) ID {
		if s, ok := b.aliasOf[id]; ok {
			return s
		}
		return id
	}
	// Liveness, walking backwards from the target and the outputs.
	live := make([]bool, len(p.Values))
	if target != None {
		live[root(target)] = true
	}
	for _, o := range p.Outputs {
		live[root(o.ID)] = true
	}
	keep := make([]bool, len(p.Instrs))
	for i := len(p.Instrs) - 1; i >= 0; i-- {
		in := &p.Instrs[i]
		if !live[in.Out] {
			continue
		}
		keep[i] = true
		for _, a := range in.In {
			live[root(a)] = true
		}
	}
	instrs := p.Instrs[:0:0]
	for i, in := range p.Instrs {
		if keep[i] {
			instrs = append(instrs, in)
		}
	}
	p.Instrs = instrs
	// Gradient flags, in program order.
	for i := range p.Values {
		p.Values[i].Grad = p.Values[i].Kind == Param
	}
	for _, id := range p.Inputs {
		p.Values[id].Grad = true
	}
	for _, in := range p.Instrs {
		g := false
		for _, a := range in.In {
			g = g || p.Values[root(a)].Grad
		}
		p.Values[in.Out].Grad = g
	}
	for a, s := range b.aliasOf {
		p.Values[a].Grad = p.Values[s].Grad
	}
	b.placeConsts(&p)
	if len(p.Inputs) == 0 { // scan bodies are not planned
		p.planner, p.planned = b.planner, b.planner != nil
	}
	p.derive()
	b.p = Program{}
	return &p, nil
}

// placeConsts lays the constants out: the shared ones after the frame's
// slots (in the frame, for a scan body, whose frames move from step to
// step), Init made once at its final size with the small ones in place.
func (b *Builder) placeConsts(p *Program) {
	p.FrameSize = p.Size
	body := len(p.Inputs) > 0
	if body {
		for _, c := range b.shared {
			p.Values[c.id].Off = p.Size
			p.Size += len(c.data)
			b.small = append(b.small, c)
		}
		p.FrameSize = p.Size
	} else {
		p.Shared = make([]SharedConst, 0, len(b.shared))
		for _, c := range b.shared {
			p.Values[c.id].Off = p.Size
			p.Shared = append(p.Shared, SharedConst{Off: p.Size, Data: c.data})
			p.Size += len(c.data)
		}
	}
	for a, s := range b.aliasOf {
		p.Values[a].Off = p.Values[s].Off
	}
	p.Init = make([]float64, p.FrameSize)
	for _, c := range b.small {
		copy(p.Init[p.Values[c.id].Off:], c.data)
	}
	b.small, b.shared = nil, nil
}

// derive computes what the interpreter keeps beside the instructions: the
// scalar fast path and the execution plan (with p's Planner, if any).
func (p *Program) derive() {
	p.transposed = transposedOf(p)
	p.fast = fastInstrs(p)
	p.scalarBody = isScalarBody(p)
	p.plan, p.privSize = buildPlan(p, p.planner)
	p.steps = planOps(p)
	p.rsteps = reverseOps(p.steps)
	if p.kernelsOnly = kernelsOnly(p); p.kernelsOnly {
		p.targetOff = p.Values[p.Target].Off
	}
}
