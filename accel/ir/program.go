package ir

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// ID names a value of a program: an index into Program.Values.
type ID int32

// None is the ID of no value.
const None ID = -1

// Kind says where a value's contents come from.
type Kind uint8

const (
	// Param values alias a slice of the position vector (slots [0, Dim)).
	Param Kind = iota
	// Const values are data fixed when the program is built: small ones
	// in Init, copied into each frame; large ones (SharedMin values or
	// more) in Program.Shared, held once and read in place by every frame.
	Const
	// Temp values are written by exactly one instruction.
	Temp
)

// Value is a buffer of float64 slots [Off, Off+Len) of the program's
// address space: inside a frame below Program.FrameSize, in one of
// Program.Shared at or above it. Shape is row-major; a nil or empty shape
// is a scalar (Len 1).
type Value struct {
	Off, Len int
	Shape    []int
	Kind     Kind
	// Grad is true when the value depends on the position, so reverse
	// sweeps must propagate into it. Set by Builder.Finalize.
	Grad bool
	// Name is optional, for error messages and dumps.
	Name string
}

// Instr is one instruction: Out = Op(In...). Ints carries integer
// immediates whose meaning each op documents; Table indexes
// Program.Tables (integer data such as gather indices), -1 for none; Body is
// the sub-program of a scan.
type Instr struct {
	Op    Op
	Out   ID
	In    []ID
	Ints  []int
	Table int
	Body  *Program
	// Scratch is a hidden value of OpDef.Scratch slots that the op may use
	// freely (forward and reverse), None when the op asks for none.
	Scratch ID
}

// Output names a value that callers read after a forward pass (constrained
// parameters, deterministic quantities, pointwise log-likelihoods).
type Output struct {
	Name string
	ID   ID
}

// Program is a model's log density as a flat list of instructions over one
// float64 buffer (a frame). Slots [0, Dim) hold the unconstrained position.
// A Program is immutable once finalized and safe to share between
// goroutines; each goroutine evaluates it with its own Frame. Build a new
// program rather than editing one (Finalize derives private tables from it).
type Program struct {
	Dim    int
	Values []Value
	Instrs []Instr
	// Size is the length of the address space: every value lies below it.
	// A frame holds the slots [0, FrameSize); the shared constants lie in
	// [FrameSize, Size), outside every frame.
	Size, FrameSize int
	// Init is a frame's initial contents (FrameSize slots): the small
	// constants in place, zeros elsewhere.
	Init []float64
	// Shared are the large constants (a model's data), by increasing Off:
	// the program holds each once and every frame reads it in place, so
	// that chains cost no copy of the data. A scan body keeps all its
	// constants in its frames (its frames move from step to step).
	Shared  []SharedConst
	Tables  [][]int
	Target  ID // scalar log density
	Outputs []Output
	// Inputs are values set from outside before each run, in order: the
	// arguments of a scan body (see OpScan). Empty for a model program.
	Inputs []ID

	// fast holds, per instruction, its scalar form when it is an
	// elementwise op on scalars (see fast.go); set by Builder.Finalize.
	fast []fastInstr
	// scalarBody is set when every instruction is on the fast path and
	// every input and output is a scalar: a scan runs such a body through
	// a dedicated loop (scanScalar).
	scalarBody bool
	// plan is the interpreter's execution plan (see plan.go), nil when no
	// instruction is fused; privSize is the per-frame memory its kernels
	// need. Set by Builder.Finalize; Instrs are never changed by it.
	plan     []Step
	privSize int
	// planner is the Planner the plan was made with (Builder.SetPlanner,
	// WithPlanner); planned says one was given where p was built, also
	// for a program read by GobDecode, whose planner is nil.
	planner Planner
	planned bool
	// steps is the plan as a compact list, in program order, of what a
	// planned run executes (absorbed instructions left out).
	steps []planOp
	// rsteps are the steps the reverse sweep visits (those with a
	// gradient to pass on), last first.
	rsteps []planOp
	// kernelsOnly is set when every step runs a kernel (see
	// gradientKernels); targetOff is the target's slot.
	kernelsOnly bool
	targetOff   int
	// transposed holds, per matvec worked by columns, its constant
	// matrix transposed (see Transposed); set by derive.
	transposed map[*Instr]*transposed
}

// SharedConst is a constant held by the program, not by its frames: the
// slots [Off, Off+len(Data)) of the address space. Data is read-only.
//
// A constant whose values the process that runs the program reads itself
// (accel/mpi's ranks read their rows of a file) has Data nil and its
// length in Pending until then; it travels as its offset and length only.
type SharedConst struct {
	Off     int
	Data    []float64
	Pending int
}

// Len is the number of slots s covers.
func (s SharedConst) Len() int {
	if s.Data == nil {
		return s.Pending
	}
	return len(s.Data)
}

// Val returns the slots of value id inside the frame buffer buf, or the
// program's own memory for a shared constant (never to be written).
func (p *Program) Val(buf []float64, id ID) []float64 {
	v := &p.Values[id]
	if v.Off >= p.FrameSize && v.Len > 0 {
		return p.sharedVal(v)
	}
	return buf[v.Off : v.Off+v.Len : v.Off+v.Len]
}

// sharedVal is the memory of v, a value over a shared constant.
func (p *Program) sharedVal(v *Value) []float64 {
	i, _ := slices.BinarySearchFunc(p.Shared, v.Off, func(s SharedConst, off int) int {
		return cmp.Compare(s.Off+s.Len(), off+1)
	})
	if i == len(p.Shared) || p.Shared[i].Off > v.Off || v.Off+v.Len > p.Shared[i].Off+len(p.Shared[i].Data) {
		if i < len(p.Shared) && p.Shared[i].Data == nil && p.Shared[i].Pending > 0 {
			panic(fmt.Sprintf("ir: the constant at slot %d is to be read by the process that runs the program, and was not", p.Shared[i].Off))
		}
		panic(fmt.Sprintf("ir: value [%d,%d) is outside the frame (%d slots) and every shared constant", v.Off, v.Off+v.Len, p.FrameSize))
	}
	s := &p.Shared[i]
	from := v.Off - s.Off
	return s.Data[from : from+v.Len : from+v.Len]
}

// IsShared reports whether value id is a shared constant: held once by
// the program, outside every frame (see Program.Shared).
func (p *Program) IsShared(id ID) bool {
	v := &p.Values[id]
	return v.Off >= p.FrameSize && v.Len > 0
}

// ConstData is the data of constant id, wherever it is held: in Init or
// in Shared. It panics when id is not a constant.
func (p *Program) ConstData(id ID) []float64 {
	if p.Values[id].Kind != Const {
		panic(fmt.Sprintf("ir: value %d is not a constant", id))
	}
	return p.Val(p.Init, id)
}

// ConstImage is the whole address space's initial contents, Size slots:
// Init followed by the shared constants in place. It is a new slice, for
// backends that hand all the constants over in one array (a device's
// memory); frames never use it.
func (p *Program) ConstImage() []float64 {
	img := make([]float64, p.Size)
	copy(img, p.Init)
	for _, s := range p.Shared {
		copy(img[s.Off:], s.Data)
	}
	return img
}

// Output returns the ID of the named output, or None.
func (p *Program) Output(name string) ID {
	for _, o := range p.Outputs {
		if o.Name == name {
			return o.ID
		}
	}
	return None
}

// String dumps the program, one instruction per line, for debugging; scan
// bodies follow their instruction, indented.
func (p *Program) String() string {
	var sb strings.Builder
	p.dump(&sb, "")
	return sb.String()
}

func (p *Program) dump(sb *strings.Builder, indent string) {
	fmt.Fprintf(sb, "%sprogram dim=%d size=%d target=%%%d", indent, p.Dim, p.Size, p.Target)
	if p.FrameSize != p.Size {
		fmt.Fprintf(sb, " frame=%d", p.FrameSize)
	}
	if len(p.Inputs) > 0 {
		fmt.Fprintf(sb, " inputs=%v", p.Inputs)
	}
	for _, o := range p.Outputs {
		fmt.Fprintf(sb, " %s=%%%d", o.Name, o.ID)
	}
	sb.WriteByte('\n')
	for _, in := range p.Instrs {
		fmt.Fprintf(sb, "%s  %%%d%v = %s", indent, in.Out, p.Values[in.Out].Shape, in.Op)
		for _, a := range in.In {
			fmt.Fprintf(sb, " %%%d", a)
		}
		if len(in.Ints) > 0 {
			fmt.Fprintf(sb, " ints=%v", in.Ints)
		}
		if in.Table >= 0 {
			fmt.Fprintf(sb, " table=%d", in.Table)
		}
		if in.Scratch != None {
			fmt.Fprintf(sb, " scratch=%d", p.Values[in.Scratch].Len)
		}
		sb.WriteByte('\n')
		if in.Body != nil {
			in.Body.dump(sb, indent+"    ")
		}
	}
}

// ShapeLen is the number of elements of a shape (1 for a scalar).
func ShapeLen(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}
