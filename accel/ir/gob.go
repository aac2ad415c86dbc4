package ir

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"math"
	"unsafe"
)

// programWire is what travels of a Program: its exported fields, with the
// frame's initial contents (the constants: a model's data, often most of
// its bytes) as raw little-endian bytes in InitRaw, since gob writes a
// []float64 element by element, far slower than a []byte (bench/README.md,
// "Programs on the wire"). A program written with Init instead of InitRaw
// (irtest's stored fixtures) is read too. The shared constants travel the
// same way, each as its offset and raw bytes; a program with FrameSize 0
// holds every constant in Init.
type programWire struct {
	Dim       int
	Values    []Value
	Instrs    []Instr
	Size      int
	FrameSize int
	Init      []float64
	InitRaw   []byte
	// A frame mostly of zeros (the slots of temporaries) travels sparse:
	// its length, the indices of its non-zero slots and their values.
	InitLen   int
	InitIdx   []int
	InitNZRaw []byte
	Shared    []sharedWire
	Tables    [][]int
	Target    ID
	Outputs   []Output
	Inputs    []ID
	// Planned is Program.Planned: the receiver plans the program again
	// with a Planner of its choice (Program.NeedsPlanner).
	Planned bool
}

// sharedWire is a SharedConst on the wire: Len is a pending constant's
// length (and Raw empty).
type sharedWire struct {
	Off int
	Raw []byte
	Len int
}

// GobEncode writes p's exported fields (the instructions, values, data
// and outputs; scan bodies nested as Programs).
func (p *Program) GobEncode() ([]byte, error) {
	w := programWire{Dim: p.Dim, Values: p.Values, Instrs: p.Instrs, Size: p.Size, FrameSize: p.FrameSize,
		Tables: p.Tables, Target: p.Target, Outputs: p.Outputs, Inputs: p.Inputs, Planned: p.planned}
	nz := 0
	for _, x := range p.Init {
		if math.Float64bits(x) != 0 { // -0 is kept
			nz++
		}
	}
	if 4*nz < len(p.Init) {
		w.InitLen = len(p.Init)
		vals := make([]float64, 0, nz)
		w.InitIdx = make([]int, 0, nz)
		for i, x := range p.Init {
			if math.Float64bits(x) != 0 {
				w.InitIdx = append(w.InitIdx, i)
				vals = append(vals, x)
			}
		}
		w.InitNZRaw = floatBytes(vals)
	} else {
		w.InitRaw = floatBytes(p.Init)
	}
	n := len(w.InitRaw) + len(w.InitNZRaw) + 4*len(w.InitIdx)
	for _, s := range p.Shared {
		if s.Data == nil {
			w.Shared = append(w.Shared, sharedWire{Off: s.Off, Len: s.Pending})
			continue
		}
		w.Shared = append(w.Shared, sharedWire{Off: s.Off, Raw: floatBytes(s.Data)})
		n += 8 * len(s.Data)
	}
	buf := bytes.NewBuffer(make([]byte, 0, n+4096))
	if err := gob.NewEncoder(buf).Encode(&w); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// program is the Program a wire form describes (without what derive adds).
func (w *programWire) program() (Program, error) {
	p := Program{Dim: w.Dim, Values: w.Values, Instrs: w.Instrs, Size: w.Size, Init: w.Init,
		Tables: w.Tables, Target: w.Target, Outputs: w.Outputs, Inputs: w.Inputs, planned: w.Planned}
	if w.InitRaw != nil {
		if len(w.InitRaw)%8 != 0 {
			return Program{}, fmt.Errorf("ir: a program's constants are %d bytes, not whole float64s", len(w.InitRaw))
		}
		p.Init = bytesFloats(w.InitRaw)
	}
	if w.InitLen > 0 {
		if len(w.InitNZRaw) != 8*len(w.InitIdx) {
			return Program{}, fmt.Errorf("ir: a program's sparse constants have %d indices and %d bytes of values", len(w.InitIdx), len(w.InitNZRaw))
		}
		p.Init = make([]float64, w.InitLen)
		for k, x := range bytesFloats(w.InitNZRaw) {
			i := w.InitIdx[k]
			if i < 0 || i >= w.InitLen {
				return Program{}, fmt.Errorf("ir: a program's constant at slot %d is outside its frame of %d", i, w.InitLen)
			}
			p.Init[i] = x
		}
	}
	p.FrameSize = w.FrameSize
	if p.FrameSize == 0 {
		p.FrameSize = p.Size
	}
	if len(p.Init) != p.FrameSize {
		return Program{}, fmt.Errorf("ir: a program's frame is %d slots but its initial contents %d", p.FrameSize, len(p.Init))
	}
	end := p.FrameSize
	for _, s := range w.Shared {
		if len(s.Raw)%8 != 0 || s.Off != end {
			return Program{}, fmt.Errorf("ir: a shared constant at slot %d of %d bytes does not follow slot %d in whole float64s", s.Off, len(s.Raw), end)
		}
		if len(s.Raw) == 0 && s.Len > 0 {
			p.Shared = append(p.Shared, SharedConst{Off: s.Off, Pending: s.Len})
			end += s.Len
			continue
		}
		d := bytesFloats(s.Raw)
		p.Shared = append(p.Shared, SharedConst{Off: s.Off, Data: d})
		end += len(d)
	}
	if end != p.Size {
		return Program{}, fmt.Errorf("ir: a program's frame and shared constants end at slot %d, its size is %d", end, p.Size)
	}
	return p, nil
}

// GobDecode reads a Program written by GobEncode and derives again what the
// interpreter keeps beside the instructions (the scalar fast path, the
// execution plan with this package's kernels), so that a program sent to
// another process (accel/remote's worker) or stored (accel/ir/irtest's
// fixtures) runs without being built again. A program that was planned
// where it was built (Planned) needs its Planner again here
// (NeedsPlanner, WithPlanner): a function does not travel, and which one
// runs is the receiver's choice. The two processes must agree on the op numbering; a program
// whose ops were numbered by another build (irtest's fixtures, which
// renumber them by name after reading and then build the program again)
// may not derive: it is then returned underived, without its plan,
// rather than panicking inside the decoder.
func (p *Program) GobDecode(b []byte) error {
	var w programWire
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&w); err != nil {
		return err
	}
	q, err := w.program()
	if err != nil {
		return err
	}
	*p = q
	defer func() {
		if recover() != nil {
			*p = q
		}
	}()
	p.derive()
	return nil
}

// littleEndian is whether this machine stores a float64 as the wire does.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// floatBytes is x as little-endian bytes: x's own memory where the machine
// is little-endian (no copy of a model's data), a converted copy elsewhere.
func floatBytes(x []float64) []byte {
	if len(x) == 0 {
		return []byte{}
	}
	if littleEndian {
		return unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), 8*len(x))
	}
	b := make([]byte, 8*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	return b
}

// bytesFloats reads little-endian float64s: b's own memory where the
// machine is little-endian and b is 8-byte aligned (gob's allocations of
// a []byte are), a copy otherwise. b must not be used afterwards.
func bytesFloats(b []byte) []float64 {
	n := len(b) / 8
	if n == 0 {
		return []float64{}
	}
	if littleEndian && uintptr(unsafe.Pointer(&b[0]))%8 == 0 {
		return unsafe.Slice((*float64)(unsafe.Pointer(&b[0])), n)
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return x
}
