package ir

import (
	"bytes"
	"encoding/binary"
	"encoding/gob"
	"fmt"
	"math"
)

// programWire is what travels of a Program: its exported fields, with the
// frame's initial contents (the constants: a model's data, often most of
// its bytes) as raw little-endian bytes in InitRaw. gob writes a []float64
// element by element, about 50 times slower than a []byte: 10⁸ values of
// data took 11 s to encode and 14 s to decode that way. Programs written
// before InitRaw (irtest's stored fixtures) carry Init, which is read too.
type programWire struct {
	Dim     int
	Values  []Value
	Instrs  []Instr
	Size    int
	Init    []float64
	InitRaw []byte
	Tables  [][]int
	Target  ID
	Outputs []Output
	Inputs  []ID
}

// GobEncode writes p's exported fields (the instructions, values, data
// and outputs; scan bodies nested as Programs).
func (p *Program) GobEncode() ([]byte, error) {
	w := programWire{Dim: p.Dim, Values: p.Values, Instrs: p.Instrs, Size: p.Size,
		Tables: p.Tables, Target: p.Target, Outputs: p.Outputs, Inputs: p.Inputs}
	w.InitRaw = make([]byte, 8*len(p.Init))
	for i, v := range p.Init {
		binary.LittleEndian.PutUint64(w.InitRaw[8*i:], math.Float64bits(v))
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&w); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// program is the Program a wire form describes (without what derive adds).
func (w *programWire) program() (Program, error) {
	p := Program{Dim: w.Dim, Values: w.Values, Instrs: w.Instrs, Size: w.Size, Init: w.Init,
		Tables: w.Tables, Target: w.Target, Outputs: w.Outputs, Inputs: w.Inputs}
	if w.InitRaw != nil {
		if len(w.InitRaw)%8 != 0 {
			return Program{}, fmt.Errorf("ir: a program's constants are %d bytes, not whole float64s", len(w.InitRaw))
		}
		p.Init = make([]float64, len(w.InitRaw)/8)
		for i := range p.Init {
			p.Init[i] = math.Float64frombits(binary.LittleEndian.Uint64(w.InitRaw[8*i:]))
		}
	}
	return p, nil
}

// GobDecode reads a Program written by GobEncode and derives again what the
// interpreter keeps beside the instructions (the scalar fast path, the
// execution plan), so that a program sent to another process (accel/remote's
// worker) or stored (accel/ir/irtest's fixtures) runs as fast as the
// original. The two processes must agree on the op numbering; a program
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
