package interp

import (
	"context"
	"fmt"
	"go/token"
	"runtime"
	"testing"
)

// TestYaegiRootsAreReleased: after each cell yaegi's list of compiled
// trees is empty (a yaegi upgrade that renames the field fails here), and
// what later cells need of earlier ones still works.
func TestYaegiRootsAreReleased(t *testing.T) {
	s, err := NewSession(Options{Env: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if !rootsField(s.it).IsValid() {
		t.Fatal("yaegi's Interpreter has no roots []*node field: see roots.go")
	}
	if len(scopeChildren(s.it)) == 0 {
		t.Fatal("yaegi's Interpreter has no scopes map of *scope with a child list: see roots.go")
	}
	ctx := context.Background()
	cells := []struct{ code, want string }{
		{"import \"fmt\"\ntype T struct{ v int }\nfunc (t T) Twice() int { return 2 * t.v }\nfunc add(a, b int) int { return a + b }\nvar counter = func() func() int { n := 0; return func() int { n++; return n } }()", ""},
		{"counter()", "1"},
		{"fmt.Sprint(add(2, 3), T{4}.Twice())", `"5 8"`},
		{"ch := make(chan int)\ngo func() { ch <- add(1, 1) }()\n<-ch", "2"},
		{"counter()", "2"},
	}
	for _, c := range cells {
		r := s.Execute(ctx, c.code, nil)
		if r.Err != nil {
			t.Fatalf("%q: %+v", c.code, r.Err)
		}
		if got := textOf(r); got != c.want {
			t.Errorf("%q = %q, want %q", c.code, got, c.want)
		}
		if n := rootsField(s.it).Len(); n != 0 {
			t.Errorf("after %q yaegi keeps %d trees", c.code, n)
		}
		for _, f := range scopeChildren(s.it) {
			if f.Len() != 0 {
				t.Errorf("after %q a package scope keeps %d child scopes", c.code, f.Len())
			}
		}
	}
}

func textOf(r Result) string {
	if r.Value == nil {
		return ""
	}
	s, _ := r.Value.Data["text/plain"].(string)
	return s
}

// TestCellsDoNotAccumulate bounds what a small cell leaves on the heap of
// a session that runs thousands (issue 26 item 8: the worker grew by
// 2–14 KB a cell; yaegi's list of compiled trees was most of it). What is
// left is little.
func TestCellsDoNotAccumulate(t *testing.T) {
	s, err := NewSession(Options{Env: []string{}, MemoryLimit: 4 << 30})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s.Execute(ctx, "n := 0", nil)
	heap := func() float64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc)
	}
	for i := 0; i < 300; i++ {
		s.Execute(ctx, "n++\nn", nil)
	}
	before := heap()
	const cells = 2000
	for i := 0; i < cells; i++ {
		s.Execute(ctx, "n++\nn", nil)
	}
	per := (heap() - before) / cells
	t.Logf("%.0f bytes of heap a cell", per)
	if per > 500 {
		t.Errorf("each cell leaves %.0f bytes on the heap, want under 500", per)
	}
	runtime.KeepAlive(s)
}

// TestForgottenCellsKeepEarlierPositions: the files of inert cells are
// removed, and a panic in a function declared before them still names its
// line.
func TestForgottenCellsKeepEarlierPositions(t *testing.T) {
	s, err := NewSession(Options{Env: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want := s.Execute(ctx, "n := 0\nfunc boom() {\n\tpanic(\"boom\")\n}", nil)
	if want.Err != nil {
		t.Fatal(want.Err)
	}
	direct := s.Execute(ctx, "boom()", nil)
	files := func() int {
		n := 0
		s.it.FileSet().Iterate(func(*token.File) bool { n++; return true })
		return n
	}
	before := files()
	for i := 0; i < 50; i++ {
		s.Execute(ctx, "n++\nn", nil)
	}
	if after := files(); after != before {
		t.Errorf("50 inert cells left %d files in yaegi's FileSet, want none", after-before)
	}
	later := s.Execute(ctx, "boom()", nil)
	if direct.Err == nil || later.Err == nil {
		t.Fatalf("boom() did not fail: %+v, %+v", direct.Err, later.Err)
	}
	if fmt.Sprint(later.Err.Traceback) != fmt.Sprint(direct.Err.Traceback) {
		t.Errorf("the traceback changed after inert cells were forgotten:\n%q\nwant\n%q", later.Err.Traceback, direct.Err.Traceback)
	}
	t.Log(direct.Err.Traceback)
}
