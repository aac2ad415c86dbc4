package filerows

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/table"
)

// Where a block's data are rows of a
// file every rank can open (a shared file system on a cluster, the local
// disk here), the kernel sends the block without them, with the file's
// path and layout, and the rank that runs the block reads its rows there.
// The control link and rank 0 then carry the instructions and the small
// constants only, whatever the number of rows.
//
// A detached block travels as an ordinary ir.Program, so that the
// accel/remote protocol and the scatter need no new message: each value
// read from a file is one of the program's shared constants (a model's
// data: ir.SharedMin values or more), left pending (ir.SharedConst's Data
// nil, its length kept), and names its rows in its Name (the fileTag
// prefix and JSON). Fill, where the block runs, reads them before the block runs.
// A smaller constant is held in the frame's Init and travels as before.

// FileRows says that constant Value of a block program is rows [Lo, Hi)
// of the columns Source names, row by row.
type FileRows struct {
	Value  ir.ID
	Source table.Source
	Lo, Hi int
}

const fileTag = "gobayes-file-rows "

// fileRef is what a detached value's Name holds. Sum is a hash of the
// values the kernel had: the rank checks the rows it reads against it, so
// that a file changed since the kernel read it is an error, not another
// model.
type fileRef struct {
	Name   string       // the value's own name
	Source table.Source `json:"source"`
	Lo     int          `json:"lo"`
	Hi     int          `json:"hi"`
	Sum    uint64       `json:"sum"`
}

// sum hashes values by their bits (FNV-1a over 8-byte words).
func sum(values []float64) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range values {
		h ^= math.Float64bits(v)
		h *= 1099511628211
	}
	return h
}

// Detach returns a copy of block p whose values listed in files are left
// for the rank to read (see above); p is not changed. Each listed value
// must be a shared constant of (Hi-Lo)·len(Cols) slots, one of p.Shared
// whole.
func Detach(p *ir.Program, files []FileRows) (*ir.Program, error) {
	if len(files) == 0 {
		return p, nil
	}
	q := *p
	q.Values = append([]ir.Value(nil), p.Values...)
	q.Shared = append([]ir.SharedConst(nil), p.Shared...)
	for _, f := range files {
		if int(f.Value) < 0 || int(f.Value) >= len(p.Values) {
			return nil, fmt.Errorf("mpi: Detach: no value %d in a program of %d", f.Value, len(p.Values))
		}
		v := &q.Values[f.Value]
		if v.Kind != ir.Const || v.Len != (f.Hi-f.Lo)*len(f.Source.Cols) {
			return nil, fmt.Errorf("mpi: Detach: value %d (%d slots) is not a constant of rows [%d, %d) of %d columns", f.Value, v.Len, f.Lo, f.Hi, len(f.Source.Cols))
		}
		i := slices.IndexFunc(q.Shared, func(s ir.SharedConst) bool { return s.Off == v.Off && s.Len() == v.Len })
		if i < 0 {
			return nil, fmt.Errorf("mpi: Detach: value %d is not one of the block's shared constants (under %d values it stays in the frame and travels with it)", f.Value, ir.SharedMin)
		}
		src := f.Source.Trim(f.Lo) // only the index entry the rank starts from travels
		b, err := json.Marshal(fileRef{Name: v.Name, Source: src, Lo: f.Lo, Hi: f.Hi, Sum: sum(p.ConstData(f.Value))})
		if err != nil {
			return nil, err
		}
		v.Name = fileTag + string(b)
		q.Shared[i] = ir.SharedConst{Off: v.Off, Pending: v.Len}
	}
	return &q, nil
}

// detached reports whether p was made by Detach.
func detached(p *ir.Program) bool {
	for _, s := range p.Shared {
		if s.Data == nil && s.Pending > 0 {
			return true
		}
	}
	return false
}

// Fill reads a detached block's rows from their files, on the rank that
// runs it.
func Fill(p *ir.Program) error {
	if !detached(p) {
		return nil
	}
	p.Shared = slices.Clone(p.Shared)
	for i := range p.Values {
		v := &p.Values[i]
		js, ok := strings.CutPrefix(v.Name, fileTag)
		if !ok {
			continue
		}
		var f fileRef
		if err := json.Unmarshal([]byte(js), &f); err != nil {
			return fmt.Errorf("a block's file rows: %v", err)
		}
		j := slices.IndexFunc(p.Shared, func(s ir.SharedConst) bool { return s.Off == v.Off && s.Data == nil && s.Pending == v.Len })
		if j < 0 {
			return fmt.Errorf("a block's value %q names rows of a file but is not a pending constant", f.Name)
		}
		src := f.Source
		rows, err := src.Read(f.Lo, f.Hi)
		if err != nil {
			return fmt.Errorf("reading its rows: %v (every rank reads its rows of the data's file at the same path: put the file where all ranks see it, a shared file system on a cluster, and leave it in place while the job runs)", err)
		}
		if len(rows) != v.Len {
			return fmt.Errorf("%s gave %d values for a constant of %d", src, len(rows), v.Len)
		}
		if sum(rows) != f.Sum {
			return fmt.Errorf("rows [%d, %d) of %s are not the values the kernel read: the file changed since (read it again in the notebook, and leave it as it is while a job uses it)", f.Lo, f.Hi, src.Path)
		}
		p.Shared[j] = ir.SharedConst{Off: v.Off, Data: rows}
		v.Name = f.Name
	}
	if detached(p) {
		return fmt.Errorf("a block has a constant to read that names no file")
	}
	return nil
}

// Attach returns a detached block with its rows read from their files (a
// new program; p is not changed), and p itself when it was not detached:
// what a rank does before it runs a block, and what minibatch inference
// does each time it draws one.
func Attach(p *ir.Program) (*ir.Program, error) {
	if !detached(p) {
		return p, nil
	}
	q := *p
	q.Values = append([]ir.Value(nil), p.Values...)
	if err := Fill(&q); err != nil {
		return nil, err
	}
	return &q, nil
}
