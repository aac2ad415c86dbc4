package interp_test

import (
	"testing"

	"github.com/gobayes/gobayes/interp"
	"github.com/gobayes/gobayes/interp/internal/enginetest"
)

// With a memory limit, cells' allocations go through the checks of
// alloc.go; what they compute must still be what Go says.
func TestAllocChecksKeepGo(t *testing.T) {
	s, err := interp.NewSession(interp.Options{Env: []string{}, MemoryLimit: 256 << 20})
	if err != nil {
		t.Fatal(err)
	}
	enginetest.RunSteps(t, s, []enginetest.Step{
		{Cell: "var n64 int64 = 3\nxs := make([]int, n64)\nlen(xs)", Value: "3"},
		{Cell: "func mk64(n int64) []int { return make([]int, n) }\nlen(mk64(4))", Value: "4"},
		{Cell: "type Grid struct{ cells []float64 }\nfunc (g *Grid) Resize(n int64) { g.cells = make([]float64, n) }\nvar gr Grid\ngr.Resize(5)\nlen(gr.cells)", Value: "5"},
		// Go refuses a length that is not an integer when it compiles; the
		// checks, when the cell runs.
		{Cell: "f := 2.5\nys := make([]int, f)", ErrName: "panic", ErrHas: "make: size 2.5 is not an int"},
		{Cell: "zs := make([]int, \"3\")", ErrName: "panic", ErrHas: "is not an integer"},
		{Cell: "var u8 uint8 = 200\nlen(make([]int, u8))", Value: "200"},
		{Cell: "n := -1\nzs := make([]int, n)", ErrName: "panic", ErrHas: "negative len"},
		{Cell: "type Floats []float64\nfs := make(Floats, 2, 100000)\nfs = append(fs, 1)\nlen(fs)", Value: "3"},
		{Cell: "b := []byte(\"ab\")\nb = append(b, \"cd\"...)\nstring(b)", Value: `"abcd"`},
		{Cell: "m := make(map[string]int, 100000)\nm[\"a\"] = 1\nlen(m)", Value: "1"},
		{Cell: "p := new([3]int)\np[2] = 7\n*p", Value: "[0 0 7]"},
		{Cell: "var acc []int\nfor i := 0; i < 5; acc = append(acc, i) {\n\ti++\n}\nlen(append(acc, 9))", Value: "6"},
		{Cell: "func grow(k int) []int {\n\tvar r []int\n\tfor i := 0; i < k; i++ {\n\t\tr = append(r, i)\n\t}\n\treturn r\n}\nlen(grow(1000))", Value: "1000"},
		{Cell: "type P struct{ S []int }\nvar q P\nq.S = append(q.S, 1, 2)\nq.S", Value: "[1 2]"},
		{Cell: "import \"strings\"\nimport \"bytes\"\nstrings.Repeat(\"ab\", 2) + strings.ToUpper(\"c\") + string(bytes.Repeat([]byte(\"d\"), 2))", Value: `"ababCdd"`},
		{Cell: "import \"gonum.org/v1/gonum/mat\"\nmat.NewDense(1, 2, []float64{3, 4}).At(0, 1) + mat.NewVecDense(2, nil).AtVec(1)", Value: "4"},
		{Cell: "type Pt struct{ X, Y float64 }\nk := 100000\npts := make([]Pt, k)\nbyName := make(map[string]Pt, k)\npts = append(pts, Pt{1, 2})\nbyName[\"a\"] = pts[k]\nbyName[\"a\"].Y", Value: "2"},
		// 120 MiB twice under a limit of 256 MiB: the first is garbage when
		// the second is made. (In a function: yaegi keeps the values of a
		// cell's top-level expressions in its global frame.)
		{Cell: "func mk() int {\n\tb := make([]byte, 120<<20)\n\treturn len(b)\n}\nn1 := mk()\nn2 := mk()\nn1 + n2", Value: "251658240"},
		{Cell: "huge := make([]float64, 1<<40)", ErrName: "MemoryLimit", ErrHas: "cell:1:1: make([]float64, 1099511627776) would allocate 8192.0 GiB"},
		{Cell: "len(xs)", Value: "3"},
		// A fresh interpreter has the checks too.
		{Cell: "%reset"},
		{Cell: "again := make([]float64, 1<<40)", ErrName: "MemoryLimit", ErrHas: "8192.0 GiB"},
	})
}

// TestSmallAllocationLoopIsStopped: a loop of small makes is stopped with
// a MemoryLimit error once the heap passes the allowance, every time, and
// the session keeps its variables (issue 26 item 9: the worker's polling
// guard kept the state once and crashed twice in three runs).
func TestSmallAllocationLoopIsStopped(t *testing.T) {
	s, err := interp.NewSession(interp.Options{Env: []string{}, MemoryLimit: 512 << 20})
	if err != nil {
		t.Fatal(err)
	}
	enginetest.RunSteps(t, s, []enginetest.Step{{Cell: "x := 41\nvar kept [][]byte"}})
	for run := 0; run < 3; run++ {
		enginetest.RunSteps(t, s, []enginetest.Step{
			{Cell: "for {\n\tkept = append(kept, make([]byte, 64<<10))\n}", ErrName: "MemoryLimit",
				ErrHas: "the cell's allocations took the heap to"},
			{Cell: "len(kept) > 1000", Value: "true"},
			{Cell: "kept = nil\nx + 1", Value: "42"},
		})
	}
}
