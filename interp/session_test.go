package interp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp"
	"github.com/gobayes/gobayes/interp/internal/enginetest"
)

func newTestSession(t *testing.T) *interp.Session {
	t.Helper()
	s, err := interp.NewSession(interp.Options{Env: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestExecuteState(t *testing.T) {
	enginetest.RunSteps(t, newTestSession(t), []enginetest.Step{
		{Cell: "import \"fmt\"\nx := 1\nfmt.Println(\"hi\", x)\nx+1", Value: "2", Events: "stdout:hi 1\n"},
		{Cell: "var a = 1; fmt.Println(a)", Events: "stdout:1\n"},
		{Cell: "import \"fmt\"\nfmt.Println(\"again\")", Events: "stdout:again\n"},
		{Cell: "func f(n int) int { return n * 2 }\nf(x)", Value: "2"},
		{Cell: "func f(n int) int { return n * 3 }\nf(x)", Value: "3"},
		{Cell: "var a = 5\na", Value: "5"},
		{Cell: "x = 10\nx", Value: "10"},
		{Cell: "type T struct{ A int }\nT{3}", Value: "{A:3}"},
		{Cell: "type T struct{ A, B int }\nT{3, 4}", ErrName: "CompileError", ErrHas: "type T is already defined"},
		{Cell: "type T struct{ A int }\nT{4}", Value: "{A:4}"}, // the same definition again is fine
		{Cell: `"str"`, Value: `"str"`},
		{Cell: "var e error\ne"},
		{Cell: "func h() {}\nh()"},
		{Cell: "name := \"gobayes\"\nname", Value: `"gobayes"`},
		{Cell: "h()"}, // a call without results has no value, whatever yaegi's frame holds
		{Cell: "import \"github.com/gobayes/gobayes/display\"\ndisplay.Clear(false)"},
		{Cell: "import \"strings\"\nvar sb strings.Builder\nsb.Reset()"},
		{Cell: "sb.WriteString(\"abc\")\nsb.Len()", Value: "3"},
		{Cell: "s := []int{1, 2}\ns = append(s, 3)\nlen(s)", Value: "3"},
		{Cell: "s", Value: "[1 2 3]"},
		{Cell: "import \"os\"\nfmt.Fprintln(os.Stdout, \"out\")\nfmt.Fprintln(os.Stderr, \"err\")\nfmt.Println(\"out2\")", Events: "stdout:out\n|stderr:err\n|stdout:out2\n"},
		{Cell: "import \"strings\"\nstrings.ToUpper(\"go\")", Value: `"GO"`},
	})
}

// Forms yaegi mishandles at the top level of a cell work as in Go.
func TestExecuteTopLevelForms(t *testing.T) {
	enginetest.RunSteps(t, newTestSession(t), []enginetest.Step{
		{Cell: "import \"fmt\"\ncounts := map[string]int{\"a\": 2}\nvar x interface{} = 3"},
		{Cell: "if v, ok := counts[\"a\"]; ok {\n\tfmt.Println(\"found\", v)\n}", Events: "stdout:found 2\n"},
		{Cell: "switch y := x.(type) {\ncase int:\n\tfmt.Println(\"int\", y)\n}", Events: "stdout:int 3\n"},
		{Cell: "v, ok := counts[\"a\"]\nfmt.Println(v, ok)", Events: "stdout:2 true\n"},
		{Cell: "v, ok = counts[\"b\"]\nfmt.Println(v, ok)", Events: "stdout:0 false\n"},
		{Cell: "n, isInt := x.(int)\ns, isStr := x.(string)\nfmt.Println(n, isInt, s == \"\", isStr)", Events: "stdout:3 true true false\n"},
		{Cell: "_, has := counts[\"z\"]\nhas", Value: "false"},
		{Cell: "func() {\n\tfmt.Println(\"once\")\n}()", Events: "stdout:once\n"},
		{Cell: "fmt.Println(\"next\")", Events: "stdout:next\n"}, // the literal above does not run again
		{Cell: "ch := make(chan int, 1)\nch <- 1\nr, open := <-ch", ErrName: "UnsupportedSyntax", ErrHas: "inside a function"},
		{Cell: "defer fmt.Println(\"later\")\nfmt.Println(\"now\")", ErrName: "UnsupportedSyntax", ErrHas: "cell:1:1: defer at the top level", Events: "-"},
		{Cell: "func() {\n\tdefer fmt.Println(\"later\")\n\tfmt.Println(\"now\")\n}()", Events: "stdout:now\nlater\n"},
		{Cell: "fmt.Println(\"after\")", Events: "stdout:after\n"},
		{Cell: "import \"strings\"\nfor i := range 3 {\n\t_ = i\n}", ErrName: "UnsupportedSyntax", ErrHas: "cell:2:1: range over an integer"},
	})
}

// Cells whose if and for headers hold composite literals of pointer
// element types run whole; the printed values follow from the Go
// specification.
func TestHeaderCompositeLiteralsRun(t *testing.T) {
	enginetest.RunSteps(t, newTestSession(t), []enginetest.Step{
		{Cell: "import \"fmt\"\ntype T struct{ A int }"},
		{Cell: "if ps := []*T{{A: 1}, {A: 2}}; len(ps) > 1 {\n\tfmt.Println(ps[1].A)\n}\nfmt.Println(\"after\")", Events: "stdout:2\nafter\n"},
		{Cell: "sum := 0\nfor _, p := range []*T{{A: 3}, {A: 4}} {\n\tsum += p.A\n}\nsum", Value: "7"},
		{Cell: "if m := map[string]*T{\"k\": {A: 5}}; m[\"k\"] != nil {\n\tfmt.Println(m[\"k\"].A)\n}", Events: "stdout:5\n"},
		{Cell: "xs := []int{2, 3}\nswitch xs[0] * xs[1] {\ncase 6:\n\tfmt.Println(\"six\")\n}", Events: "stdout:six\n"},
	})
}

func TestExecuteErrors(t *testing.T) {
	enginetest.RunSteps(t, newTestSession(t), []enginetest.Step{
		{Cell: "x := 1"},
		{Cell: "y := undefinedThing + 1", ErrName: "CompileError", ErrHas: "cell:1:6: undefined: undefinedThing"},
		{Cell: "\n\nvar z []int\nz[3] = 1", ErrName: "panic", ErrHas: "cell:4:1"},
		{Cell: "func g() { var p *int; *p = 1 }\n\ng()", ErrName: "panic", ErrHas: "cell:3:1"},
		{Cell: "chains := 0\nn := 10 / chains", ErrName: "panic", ErrHas: "cell:2:1"},
		{Cell: "a := 1\nb := 2\nc := a + b + missing", ErrName: "CompileError", ErrHas: "cell:3:14: undefined: missing"},
		{Cell: "x", Value: "1"}, // state survives the errors
		{Cell: "for i := range 3 {\n\t_ = i\n}", ErrName: "UnsupportedSyntax", ErrHas: "for i := 0; i < n; i++"},
		{Cell: "n := 3\nfor i := range n {\n\t_ = i\n}", ErrName: "UnsupportedSyntax", ErrHas: "for i := 0; i < n; i++"},
		{Cell: "1 +", ErrName: "CompileError", ErrHas: "cell:1:4"},
		{Cell: "w := 1\n\n\nw = \"s\"", ErrName: "CompileError", ErrHas: "cell:4:"},
		{Cell: "import \"example.com/nothing\"", ErrName: "CompileError", ErrHas: "not available"},
		{Cell: "panic(\"boom\")", ErrName: "panic", ErrHas: "boom"},
		{Cell: "min(3, 1)", ErrName: "CompileError", ErrHas: "use math.Min"},
		{Cell: "import \"slices\"\nxs := []int{2, 1}\nslices.Sort(xs)", ErrName: "CompileError", ErrHas: "sort.Ints"},
		{Cell: "func seq(yield func(int) bool) {\n\tyield(1)\n}\nfor v := range seq {\n\t_ = v\n}", ErrName: "UnsupportedSyntax", ErrHas: "callback"},
		{Cell: "func Map[T, U any](xs []T, f func(T) U) []U {\n\tvar out []U\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}\nMap([]int{1}, func(i int) string { return \"a\" })", ErrName: "CompileError", ErrHas: "type arguments explicitly"},
		{Cell: "Map[int, string]([]int{1}, func(i int) string { return \"a\" })", Value: "[a]"},
		{Cell: "import \"os\"\nos.Exit(3)", ErrName: "Exit", ErrHas: "os.Exit(3) was called: the cell was stopped"},
		{Cell: "x + 1", Value: "2"},
		// A failed statement leaves what ran before it, and the variables it
		// would have redefined, intact.
		{Cell: "x := 5\ny := x + undefinedVar", ErrName: "CompileError", ErrHas: "cell:2:10: undefined: undefinedVar"},
		{Cell: "x", Value: "1"}, // nothing ran: an undefined name stops the whole cell
		{Cell: "import \"fmt\"\nx := 5\nfmt.Println(\"ran\")\nfunc later() {}\ny := x + undefinedVar", ErrName: "CompileError", ErrHas: "cell:5:10: undefined: undefinedVar", Events: "-"},
		{Cell: "x := 5\nx = \"s\"", ErrName: "CompileError", ErrHas: "cell:2:5"},
		{Cell: "x", Value: "5"}, // what ran before a type error keeps its effect
		{Cell: "x := 7\nx = \"not an int\"", ErrName: "CompileError", ErrHas: "cell:2:5"},
		{Cell: "x", Value: "7"},
		{Cell: "type P struct{ A int }\np := P{A: 1}\np.A", Value: "1"},
		{Cell: "import . \"math\"\nSqrt(4)", Value: "2"},
	})
}

func TestExecuteInterrupt(t *testing.T) {
	s := newTestSession(t)
	enginetest.RunSteps(t, s, []enginetest.Step{{Cell: "x := 41"}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan interp.Result)
	go func() { done <- s.Execute(ctx, "for {\n}", &enginetest.Recorder{}) }()
	cancel()
	r := <-done
	if r.Err == nil || r.Err.Name != "Interrupted" {
		t.Fatalf("interrupted cell: %+v, want Interrupted", r.Err)
	}
	enginetest.RunSteps(t, s, []enginetest.Step{{Cell: "x + 1", Value: "42"}})
}

// A type defined in a cell renders through its own methods.
func TestCellTypeRenders(t *testing.T) {
	s := newTestSession(t)
	cell := "type Temp float64\nfunc (t Temp) String() string { return \"warm\" }\nfunc (t Temp) HTML() string { return \"<b>warm</b>\" }\nv := Temp(30)\nv"
	r := s.Execute(context.Background(), cell, nil)
	if r.Err != nil || r.Value == nil {
		t.Fatalf("got %+v", r)
	}
	if r.Value.Data[display.MIMEText] != "warm" || r.Value.Data[display.MIMEHTML] != "<b>warm</b>" {
		t.Errorf("bundle %v, want text/plain warm and text/html <b>warm</b>", r.Value.Data)
	}
}

// display.Show renders a type defined in a cell through its methods.
func TestShowCellType(t *testing.T) {
	enginetest.RunSteps(t, newTestSession(t), []enginetest.Step{
		{Cell: "import \"github.com/gobayes/gobayes/display\"\ntype Temp float64\nfunc (t Temp) String() string { return \"warm\" }\nfunc (t Temp) HTML() string { return \"<b>warm</b>\" }"},
		{Cell: "display.Show(Temp(30))\ndisplay.Show(42)", Events: "display::new:warm|display::new:42"},
		{Cell: "d := display.Show\nd(7)", Events: "display::new:7"}, // not rewritten: compiled Show
		{Cell: "display.Show(nil)", Events: "display::new:<nil>"},
	})
}

func TestGeneratedPackages(t *testing.T) {
	enginetest.RunSteps(t, newTestSession(t), []enginetest.Step{
		{Cell: "import \"gonum.org/v1/gonum/floats\"\nfloats.Sum([]float64{1, 2, 3.5})", Value: "6.5"},
		// The mean of 1..4 is 2.5.
		{Cell: "import \"gonum.org/v1/gonum/stat\"\nstat.Mean([]float64{1, 2, 3, 4}, nil)", Value: "2.5"},
		// The standard normal CDF at 0 is 1/2.
		{Cell: "import \"gonum.org/v1/gonum/stat/distuv\"\ndistuv.UnitNormal.CDF(0)", Value: "0.5"},
		// det [[2 1] [1 3]] = 2*3 - 1*1 = 5.
		{Cell: "import (\n\t\"math\"\n\t\"gonum.org/v1/gonum/mat\"\n)\nm := mat.NewDense(2, 2, []float64{2, 1, 1, 3})\nmath.Abs(mat.Det(m)-5) < 1e-12", Value: "true"},
		{Cell: "import \"github.com/gobayes/gobayes/display\"\ndisplay.HTML(\"<b>hi</b>\")", Events: "display::new:hi"},
	})
}

// TestUnsupportedTracebacks: every UnsupportedSyntax error shows its
// message in red and quotes the cell's line, whichever check found it
// (the comma-ok receive is refused by the rewriting, defer and range over
// an integer by CheckSupported).
func TestUnsupportedTracebacks(t *testing.T) {
	s := newTestSession(t)
	for _, cell := range []string{
		"ch := make(chan int, 1)\nch <- 1\nr, open := <-ch",
		"defer println(\"later\")",
		"for i := range 3 {\n\t_ = i\n}",
	} {
		r := s.Execute(t.Context(), cell, nil)
		if r.Err == nil || r.Err.Name != "UnsupportedSyntax" {
			t.Fatalf("%q: error %+v, want UnsupportedSyntax", cell, r.Err)
		}
		tb := r.Err.Traceback
		if len(tb) < 2 || !strings.HasPrefix(tb[0], "\x1b[0;31m") || !strings.Contains(strings.Join(tb[1:], "\n"), " | ") {
			t.Errorf("%q: traceback %q, want the message in red, then the quoted line", cell, tb)
		}
	}
}
