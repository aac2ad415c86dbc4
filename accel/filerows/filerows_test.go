package filerows

import (
	"bytes"
	"encoding/gob"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/table"
)

// TestDetachAttach: a block whose data are rows of a file travels
// without them, and the rank that reads them gets the same constants.
func TestDetachAttach(t *testing.T) {
	const n, k = 10000, 3
	vals := make([]float64, n*k)
	for i := range vals {
		vals[i] = float64(i)*0.25 - 7
	}
	path := filepath.Join(t.TempDir(), "x.npy")
	if err := table.WriteNPY(path, vals, n, k, false); err != nil {
		t.Fatal(err)
	}
	tb, err := table.OpenNPY(path)
	if err != nil {
		t.Fatal(err)
	}
	src, _ := tb.Matrix("c2", "c0").Source()
	// A block of rows [400, 2400) of columns c2, c0: a shared constant,
	// past a frame of two small constants.
	const lo, hi = 400, 2400
	rows := (hi - lo) * 2
	x := make([]float64, rows)
	for i := range hi - lo {
		x[2*i] = vals[(lo+i)*k+2]
		x[2*i+1] = vals[(lo+i)*k]
	}
	init := []float64{1.5, 0, -3, 0}
	p := &ir.Program{Dim: 0, Size: len(init) + rows, FrameSize: len(init), Init: init,
		Shared: []ir.SharedConst{{Off: len(init), Data: x}}, Tables: [][]int{{4, 5}}, Values: []ir.Value{
			{Off: 0, Len: 1, Kind: ir.Const},
			{Off: len(init), Len: rows, Kind: ir.Const, Name: "X"},
			{Off: 2, Len: 2, Kind: ir.Const},
		}}
	d, err := Detach(p, []FileRows{{Value: 1, Source: src, Lo: lo, Hi: hi}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Values[1].Name != "X" || p.Shared[0].Data == nil {
		t.Fatal("Detach changed its argument")
	}
	var whole, small bytes.Buffer
	if err := gob.NewEncoder(&whole).Encode(p); err != nil {
		t.Fatal(err)
	}
	if err := gob.NewEncoder(&small).Encode(d); err != nil {
		t.Fatal(err)
	}
	if small.Len() >= whole.Len()/4 {
		t.Fatalf("the detached block is %d bytes, the whole one %d: the rows still travel", small.Len(), whole.Len())
	}
	var got ir.Program
	if err := gob.NewDecoder(&small).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if err := Fill(&got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Init, init) || !slices.Equal(got.ConstData(1), x) || got.Values[1].Name != "X" || len(got.Tables) != 1 {
		t.Fatalf("attach rebuilt Init %v and X %v… (want %v and %v…), name %q, %d tables", got.Init, got.ConstData(1)[:4], init, x[:4], got.Values[1].Name, len(got.Tables))
	}
	// A small constant stays in the frame: it cannot be detached.
	if _, err := Detach(p, []FileRows{{Value: 2, Source: src, Lo: lo, Hi: lo + 1}}); err == nil {
		t.Fatal("Detach took a constant held in the frame")
	}
	// A value that is not a constant of that many rows is refused.
	if _, err := Detach(p, []FileRows{{Value: 2, Source: src, Lo: lo, Hi: hi}}); err == nil {
		t.Fatal("Detach took a value of the wrong size")
	}
	// A file changed since the kernel read it: the rows differ.
	changed := filepath.Join(t.TempDir(), "changed.npy")
	vals[(lo+5)*k] += 1
	table.WriteNPY(changed, vals, n, k, false)
	src2 := src
	src2.Path = changed
	d, _ = Detach(p, []FileRows{{Value: 1, Source: src2, Lo: lo, Hi: hi}})
	if err := Fill(d); err == nil || !strings.Contains(err.Error(), "the file changed since") {
		t.Fatalf("rows of a changed file: %v", err)
	}
	// A file that went away: the rank says which.
	d, _ = Detach(p, []FileRows{{Value: 1, Source: table.Source{Path: path + ".gone", Format: "npy", Rows: n, Width: k, Cols: []int{0, 1}, DType: "<f8"}, Lo: lo, Hi: hi}})
	if err := Fill(d); err == nil {
		t.Fatal("attach read a missing file")
	}
}
