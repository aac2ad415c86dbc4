package ir

import (
	"bytes"
	"encoding/gob"
)

// programWire is a Program's exported fields: what travels.
type programWire Program

// GobEncode writes p's exported fields (the instructions, values, data
// and outputs; scan bodies nested as Programs).
func (p *Program) GobEncode() ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode((*programWire)(p)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
	*p = Program(w)
	defer func() {
		if recover() != nil {
			*p = Program(w)
		}
	}()
	p.derive()
	return nil
}
