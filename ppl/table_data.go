package ppl

import (
	"fmt"
	"slices"
	"unsafe"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/filerows"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/internal/graph"
	"github.com/gobayes/gobayes/table"
)

// Data read from files (package table): m.Data("y", t.Col("y")) and
// m.Data("X", t.Matrix("x1", "x2")) use the table's memory as the
// container's data, without a copy; a memory-mapped .npy column stays the
// file's pages. The model remembers which containers came from which
// file, so that the ranks of an MPI job read their own rows of it (see
// fileBlocks) instead of receiving them through the kernel.

// fileData is a container's data read from a file: data is the table's
// memory, which identifies the container as long as its node holds it.
type fileData struct {
	src  table.Source
	data []float64
}

// tableData is value as a container's node when it is a table's column
// or matrix view (ok false for other values); a view read from a file is
// recorded in m.files.
func (m *Model) tableData(name string, value any) (n *graph.Node, ok bool) {
	var (
		d    []float64
		dims []int
		src  table.Source
		has  bool
	)
	switch x := value.(type) {
	case *table.Column:
		if x == nil {
			return nil, false
		}
		d, dims = x.Floats(), []int{x.Len()}
		src, has = x.Source()
	case *table.Matrix:
		if x == nil {
			return nil, false
		}
		d, dims = x.Data(), []int{x.Rows(), x.Cols()}
		src, has = x.Source()
		if x.Cols() == 1 {
			dims = dims[:1]
		}
	case *table.Table:
		m.failf(name, "a data container takes one column (t.Col(name)) or a matrix of columns (t.Matrix(names...)), not the whole table %s", x.Name())
	default:
		return nil, false
	}
	if len(d) == 0 {
		m.failf(name, "the table's column or matrix has no rows")
	}
	if has {
		m.files = append(m.files, fileData{src: src, data: d})
	}
	return graph.Const(d, dims), true
}

// sameMemory reports whether a and b are the same slice of memory.
func sameMemory(a, b []float64) bool {
	return len(a) == len(b) && len(a) > 0 && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// fileBlocks are the blocks of the sharded log density to place on b. On
// an MPI job, a block constant that is the rows of a container read from
// a file (its data still the table's memory) travels without them: the
// rank that runs the block reads its rows from the file (accel/filerows).
// Blocks take rows [j·N/B, (j+1)·N/B) of a variable of N rows (package
// compile's buildShard), and a constant is detached only when its values
// are those rows exactly, so anything else (a constant folded from the
// data, a container given new data since) travels as before.
func (c *Compiled) fileBlocks(b accel.ShardedBackend) ([]*ir.Program, error) {
	if r, ok := b.(accel.FileRowsReader); !ok || !r.ReadsFileRows() {
		return c.p.ShardBlocks, nil
	}
	return c.detachedBlocks()
}

// detachedBlocks are the blocks with their rows of files left out (the
// blocks themselves where there are none).
func (c *Compiled) detachedBlocks() ([]*ir.Program, error) {
	blocks := c.p.ShardBlocks
	if len(c.m.files) == 0 {
		return blocks, nil
	}
	type fileContainer struct {
		fileData
		rows, width int
	}
	var files []fileContainer
	for _, d := range c.m.g.Data {
		for _, f := range c.m.files {
			if sameMemory(d.Data, f.data) && len(d.Dims) > 0 && f.src.Rows == d.Dims[0] {
				files = append(files, fileContainer{f, d.Dims[0], len(d.Data) / d.Dims[0]})
				break
			}
		}
	}
	if len(files) == 0 {
		return blocks, nil
	}
	out := make([]*ir.Program, len(blocks))
	nb := len(blocks)
	for j, p := range blocks {
		var refs []filerows.FileRows
		for _, f := range files {
			lo, hi := j*f.rows/nb, (j+1)*f.rows/nb
			want := f.data[lo*f.width : hi*f.width]
			for id, v := range p.Values {
				if v.Kind != ir.Const || v.Len != len(want) || v.Len == 0 || !p.IsShared(ir.ID(id)) {
					continue
				}
				// A block reads its rows of the container in place (one copy
				// of each constant), so the same memory is the usual answer;
				// the values are compared only when it is not.
				if d := p.ConstData(ir.ID(id)); sameMemory(d, want) || slices.Equal(d, want) {
					refs = append(refs, filerows.FileRows{Value: ir.ID(id), Source: f.src, Lo: lo, Hi: hi})
				}
			}
		}
		q, err := filerows.Detach(p, refs)
		if err != nil {
			return nil, fmt.Errorf("ppl: placing block %d on the ranks: %v", j, err)
		}
		out[j] = q
	}
	return out, nil
}
