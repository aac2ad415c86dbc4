package rewrite

import (
	"reflect"
	"testing"
)

func TestSplitCell(t *testing.T) {
	// Expected kinds and texts are written by hand from the Go grammar: a
	// named func, var, const, type and import are declarations; a func
	// literal called at once is a statement.
	cases := []struct {
		cell  string
		kinds []Kind
		texts []string
	}{
		{"", nil, nil},
		{"x := 1", []Kind{Stmt}, []string{"x := 1"}},
		{"var a = 1; fmt.Println(a)", []Kind{Decl, Stmt}, []string{"var a = 1", "fmt.Println(a)"}},
		{"import \"fmt\"\nfmt.Println(1)", []Kind{Import, Stmt}, []string{`import "fmt"`, "fmt.Println(1)"}},
		{"import (\n\t\"fmt\"\n\t\"os\"\n)\n", []Kind{Import}, []string{"import (\n\t\"fmt\"\n\t\"os\"\n)"}},
		{"func f() int {\n\treturn 1\n}\nf()", []Kind{Decl, Stmt}, []string{"func f() int {\n\treturn 1\n}", "f()"}},
		{"func (t T) M() {}", []Kind{Decl}, []string{"func (t T) M() {}"}},
		{"func() { x = 2 }()", []Kind{Stmt}, []string{"func() { x = 2 }()"}},
		{"func() int { return 2 }()", []Kind{Stmt}, []string{"func() int { return 2 }()"}},
		{"type T struct{ A int }\nv := T{A: 1}\nv", []Kind{Decl, Stmt, Stmt}, []string{"type T struct{ A int }", "v := T{A: 1}", "v"}},
		{"const c = 3 // three\nc", []Kind{Decl, Stmt}, []string{"const c = 3", "c"}},
		{"for i := 0; i < 3; i++ {\n\tx += i\n}", []Kind{Stmt}, []string{"for i := 0; i < 3; i++ {\n\tx += i\n}"}},
		// An unclosed bracket at the end: the scanner's semicolon at the
		// end of the text is not part of the item.
		{"import \"strings\"\nstrings.ToUpper(\"a\"", []Kind{Import, Stmt}, []string{`import "strings"`, `strings.ToUpper("a"`}},
		{"s := `raw\n;string`\ns", []Kind{Stmt, Stmt}, []string{"s := `raw\n;string`", "s"}},
		// Composite literals of slice, map and struct types may sit in a header.
		{"if a, b := 1, []int{2}; len(b) > a { x = 1 }; x", []Kind{Stmt, Stmt}, []string{"if a, b := 1, []int{2}; len(b) > a { x = 1 }", "x"}},
		{"for m := map[string]int{}; len(m) < 2; m[\"k\"]++ {}; x", []Kind{Stmt, Stmt}, []string{"for m := map[string]int{}; len(m) < 2; m[\"k\"]++ {}", "x"}},
		{"switch p := struct{ X int }{1}; p.X { case 1: }; x", []Kind{Stmt, Stmt}, []string{"switch p := struct{ X int }{1}; p.X { case 1: }", "x"}},
		{"for _, v := range []int{1} { x = v }; x", []Kind{Stmt, Stmt}, []string{"for _, v := range []int{1} { x = v }", "x"}},
		{"for _, v := range []struct{}{{}} { _ = v }; x", []Kind{Stmt, Stmt}, []string{"for _, v := range []struct{}{{}} { _ = v }", "x"}},
		{"for _, v := range m[k] { x = v }; x", []Kind{Stmt, Stmt}, []string{"for _, v := range m[k] { x = v }", "x"}},
		// Pointer and channel element types between the brackets and the
		// type name are still composite literals ([]*T{...}), while an index
		// expression times a name opens the body (switch a[i] * b {).
		{"if ps := []*T{{A: 1}}; len(ps) > 0 { x = 1 }; x", []Kind{Stmt, Stmt}, []string{"if ps := []*T{{A: 1}}; len(ps) > 0 { x = 1 }", "x"}},
		{"for _, p := range []*T{a, b} { x += p.A }; x", []Kind{Stmt, Stmt}, []string{"for _, p := range []*T{a, b} { x += p.A }", "x"}},
		{"if ps := []*pkg.T{nil}; ps[0] == nil { x = 1 }; x", []Kind{Stmt, Stmt}, []string{"if ps := []*pkg.T{nil}; ps[0] == nil { x = 1 }", "x"}},
		{"if m := map[string]*T{}; len(m) == 0 { x = 1 }; x", []Kind{Stmt, Stmt}, []string{"if m := map[string]*T{}; len(m) == 0 { x = 1 }", "x"}},
		{"if g := [][]*T{{}}; len(g) == 1 { x = 1 }; x", []Kind{Stmt, Stmt}, []string{"if g := [][]*T{{}}; len(g) == 1 { x = 1 }", "x"}},
		{"if a := [2]**T{}; a[0] == nil { x = 1 }; x", []Kind{Stmt, Stmt}, []string{"if a := [2]**T{}; a[0] == nil { x = 1 }", "x"}},
		{"if cs := []chan int{nil}; cs[0] == nil { x = 1 }; x", []Kind{Stmt, Stmt}, []string{"if cs := []chan int{nil}; cs[0] == nil { x = 1 }", "x"}},
		{"if cs := []<-chan *T{nil}; cs[0] == nil { x = 1 }; x", []Kind{Stmt, Stmt}, []string{"if cs := []<-chan *T{nil}; cs[0] == nil { x = 1 }", "x"}},
		{"switch a[i] * b { case 1: }; x", []Kind{Stmt, Stmt}, []string{"switch a[i] * b { case 1: }", "x"}},
		{"switch a[i][j] * b { case 1: }; x", []Kind{Stmt, Stmt}, []string{"switch a[i][j] * b { case 1: }", "x"}},
		{"switch f()[0] * b { case 1: }; x", []Kind{Stmt, Stmt}, []string{"switch f()[0] * b { case 1: }", "x"}},
	}
	for _, c := range cases {
		items := splitCell(c.cell)
		var kinds []Kind
		var texts []string
		for _, it := range items {
			kinds = append(kinds, it.Kind)
			texts = append(texts, c.cell[it.Start:it.End])
		}
		if !reflect.DeepEqual(kinds, c.kinds) || !reflect.DeepEqual(texts, c.texts) {
			t.Errorf("splitCell(%q) = %v %q, want %v %q", c.cell, kinds, texts, c.kinds, c.texts)
		}
	}
}

func TestRunStartsAtLeadingComment(t *testing.T) {
	cell := "x := 1 // one\n// F is f.\nfunc F() {}\ny := 2 /* two\n*/\nz := 3"
	runs := groupRuns(splitCell(cell))
	// stmt x | decl F with its comment | stmts y, z.
	if len(runs) != 3 {
		t.Fatalf("got %d runs, want 3", len(runs))
	}
	if got, want := cell[runs[1].Start:runs[1].End], "// F is f.\nfunc F() {}"; got != want {
		t.Errorf("decl run = %q, want %q", got, want)
	}
}

func TestGroupRunsAndSource(t *testing.T) {
	cell := "import \"fmt\"\nvar a = 1\nconst b = 2\nfmt.Println(a)\n  x := b"
	runs := groupRuns(splitCell(cell))
	// import | var+const | two statements.
	wantKinds := []Kind{Import, Decl, Stmt}
	if len(runs) != len(wantKinds) {
		t.Fatalf("got %d runs, want %d", len(runs), len(wantKinds))
	}
	for i, r := range runs {
		if r.Kind != wantKinds[i] {
			t.Errorf("run %d kind %v, want %v", i, r.Kind, wantKinds[i])
		}
	}
	// The statement run starts on cell line 4, column 1: three blank lines
	// for cell lines 1-3, plus the line yaegi's wrapper takes.
	if got, want := runs[2].Source(cell), "\n\n\n\nfmt.Println(a)\n  x := b"; got != want {
		t.Errorf("Source = %q, want %q", got, want)
	}
}
