package interp

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/gobayes/gobayes/display"
)

// recorder is an Events that keeps everything a cell produced, in order.
type recorder struct {
	mu     sync.Mutex
	events []string // "stdout:text", "stderr:text", "display:<id>:<update>:<text/plain>", "clear"
}

func (r *recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	// Adjacent writes to one stream may arrive split or joined depending on
	// timing; join them so tests compare content and order only.
	if n := len(r.events); n > 0 && strings.HasPrefix(r.events[n-1], name+":") {
		r.events[n-1] += text
		return
	}
	r.events = append(r.events, name+":"+text)
}

func (r *recorder) Display(b display.Bundle, id string, update bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	u := "new"
	if update {
		u = "update"
	}
	r.events = append(r.events, "display:"+id+":"+u+":"+b.Data[display.MIMEText].(string))
}

func (r *recorder) Clear(wait bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "clear")
}

func (r *recorder) joined() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.events, "|")
}

func newTestSession(t *testing.T) *Session {
	t.Helper()
	s, err := NewSession(Options{Env: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// step is one cell and what it must produce. The expected values are what
// the Go specification says the cell computes.
type step struct {
	cell    string
	value   string // text/plain of the result, "" for none
	events  string // recorder.joined(), checked when non-empty; "-" for none
	errName string // ename, "" for success
	errHas  string // substring of evalue
}

func runSteps(t *testing.T, s Engine, steps []step) {
	t.Helper()
	for i, st := range steps {
		rec := &recorder{}
		r := s.Execute(context.Background(), st.cell, rec)
		got := ""
		if r.Value != nil {
			got, _ = r.Value.Data[display.MIMEText].(string)
		}
		if got != st.value {
			t.Errorf("step %d %q: value %q, want %q", i, st.cell, got, st.value)
		}
		if st.events == "-" && rec.joined() != "" || st.events != "" && st.events != "-" && rec.joined() != st.events {
			t.Errorf("step %d %q: events %q, want %q", i, st.cell, rec.joined(), st.events)
		}
		switch {
		case st.errName == "" && r.Err != nil:
			t.Errorf("step %d %q: unexpected error %v", i, st.cell, r.Err)
		case st.errName != "" && r.Err == nil:
			t.Errorf("step %d %q: no error, want %s", i, st.cell, st.errName)
		case st.errName != "" && (r.Err.Name != st.errName || !strings.Contains(r.Err.Value, st.errHas)):
			t.Errorf("step %d %q: error %s: %s, want %s containing %q", i, st.cell, r.Err.Name, r.Err.Value, st.errName, st.errHas)
		}
	}
}

func TestExecuteState(t *testing.T) {
	runSteps(t, newTestSession(t), []step{
		{cell: "import \"fmt\"\nx := 1\nfmt.Println(\"hi\", x)\nx+1", value: "2", events: "stdout:hi 1\n"},
		{cell: "var a = 1; fmt.Println(a)", events: "stdout:1\n"},
		{cell: "import \"fmt\"\nfmt.Println(\"again\")", events: "stdout:again\n"},
		{cell: "func f(n int) int { return n * 2 }\nf(x)", value: "2"},
		{cell: "func f(n int) int { return n * 3 }\nf(x)", value: "3"},
		{cell: "var a = 5\na", value: "5"},
		{cell: "x = 10\nx", value: "10"},
		{cell: "type T struct{ A int }\nT{3}", value: "{A:3}"},
		{cell: "type T struct{ A, B int }\nT{3, 4}", errName: "CompileError", errHas: "type T is already defined"},
		{cell: "type T struct{ A int }\nT{4}", value: "{A:4}"}, // the same definition again is fine
		{cell: `"str"`, value: `"str"`},
		{cell: "var e error\ne"},
		{cell: "func h() {}\nh()"},
		{cell: "name := \"gobayes\"\nname", value: `"gobayes"`},
		{cell: "h()"}, // a call without results has no value, whatever yaegi's frame holds
		{cell: "import \"github.com/gobayes/gobayes/display\"\ndisplay.Clear(false)"},
		{cell: "import \"strings\"\nvar sb strings.Builder\nsb.Reset()"},
		{cell: "sb.WriteString(\"abc\")\nsb.Len()", value: "3"},
		{cell: "s := []int{1, 2}\ns = append(s, 3)\nlen(s)", value: "3"},
		{cell: "s", value: "[1 2 3]"},
		{cell: "import \"os\"\nfmt.Fprintln(os.Stdout, \"out\")\nfmt.Fprintln(os.Stderr, \"err\")\nfmt.Println(\"out2\")", events: "stdout:out\n|stderr:err\n|stdout:out2\n"},
		{cell: "import \"strings\"\nstrings.ToUpper(\"go\")", value: `"GO"`},
	})
}

// Forms yaegi mishandles at the top level of a cell work as in Go.
func TestExecuteTopLevelForms(t *testing.T) {
	runSteps(t, newTestSession(t), []step{
		{cell: "import \"fmt\"\ncounts := map[string]int{\"a\": 2}\nvar x interface{} = 3"},
		{cell: "if v, ok := counts[\"a\"]; ok {\n\tfmt.Println(\"found\", v)\n}", events: "stdout:found 2\n"},
		{cell: "switch y := x.(type) {\ncase int:\n\tfmt.Println(\"int\", y)\n}", events: "stdout:int 3\n"},
		{cell: "v, ok := counts[\"a\"]\nfmt.Println(v, ok)", events: "stdout:2 true\n"},
		{cell: "v, ok = counts[\"b\"]\nfmt.Println(v, ok)", events: "stdout:0 false\n"},
		{cell: "n, isInt := x.(int)\ns, isStr := x.(string)\nfmt.Println(n, isInt, s == \"\", isStr)", events: "stdout:3 true true false\n"},
		{cell: "_, has := counts[\"z\"]\nhas", value: "false"},
		{cell: "func() {\n\tfmt.Println(\"once\")\n}()", events: "stdout:once\n"},
		{cell: "fmt.Println(\"next\")", events: "stdout:next\n"}, // the literal above does not run again
		{cell: "ch := make(chan int, 1)\nch <- 1\nr, open := <-ch", errName: "UnsupportedSyntax", errHas: "inside a function"},
		{cell: "defer fmt.Println(\"later\")\nfmt.Println(\"now\")", errName: "UnsupportedSyntax", errHas: "cell:1:1: defer at the top level", events: "-"},
		{cell: "func() {\n\tdefer fmt.Println(\"later\")\n\tfmt.Println(\"now\")\n}()", events: "stdout:now\nlater\n"},
		{cell: "fmt.Println(\"after\")", events: "stdout:after\n"},
		{cell: "import \"strings\"\nfor i := range 3 {\n\t_ = i\n}", errName: "UnsupportedSyntax", errHas: "cell:2:1: range over an integer"},
	})
}

func TestExecuteErrors(t *testing.T) {
	runSteps(t, newTestSession(t), []step{
		{cell: "x := 1"},
		{cell: "y := undefinedThing + 1", errName: "CompileError", errHas: "cell:1:6: undefined: undefinedThing"},
		{cell: "\n\nvar z []int\nz[3] = 1", errName: "panic", errHas: "cell:4:1"},
		{cell: "func g() { var p *int; *p = 1 }\n\ng()", errName: "panic", errHas: "cell:3:1"},
		{cell: "chains := 0\nn := 10 / chains", errName: "panic", errHas: "cell:2:1"},
		{cell: "a := 1\nb := 2\nc := a + b + missing", errName: "CompileError", errHas: "cell:3:14: undefined: missing"},
		{cell: "x", value: "1"}, // state survives the errors
		{cell: "for i := range 3 {\n\t_ = i\n}", errName: "UnsupportedSyntax", errHas: "for i := 0; i < n; i++"},
		{cell: "n := 3\nfor i := range n {\n\t_ = i\n}", errName: "UnsupportedSyntax", errHas: "for i := 0; i < n; i++"},
		{cell: "1 +", errName: "CompileError", errHas: "cell:1:4"},
		{cell: "w := 1\n\n\nw = \"s\"", errName: "CompileError", errHas: "cell:4:"},
		{cell: "import \"example.com/nothing\"", errName: "CompileError", errHas: "not available"},
		{cell: "panic(\"boom\")", errName: "panic", errHas: "boom"},
		{cell: "min(3, 1)", errName: "CompileError", errHas: "use math.Min"},
		{cell: "import \"slices\"\nxs := []int{2, 1}\nslices.Sort(xs)", errName: "CompileError", errHas: "sort.Ints"},
		{cell: "func seq(yield func(int) bool) {\n\tyield(1)\n}\nfor v := range seq {\n\t_ = v\n}", errName: "UnsupportedSyntax", errHas: "callback"},
		{cell: "func Map[T, U any](xs []T, f func(T) U) []U {\n\tvar out []U\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}\nMap([]int{1}, func(i int) string { return \"a\" })", errName: "CompileError", errHas: "type arguments explicitly"},
		{cell: "Map[int, string]([]int{1}, func(i int) string { return \"a\" })", value: "[a]"},
		{cell: "import \"os\"\nos.Exit(3)", errName: "Exit", errHas: "os.Exit(3) was called: the cell was stopped"},
		{cell: "x + 1", value: "2"},
		// A failed statement leaves what ran before it, and the variables it
		// would have redefined, intact.
		{cell: "x := 5\ny := x + undefinedVar", errName: "CompileError", errHas: "cell:2:10: undefined: undefinedVar"},
		{cell: "x", value: "1"}, // nothing ran: an undefined name stops the whole cell
		{cell: "import \"fmt\"\nx := 5\nfmt.Println(\"ran\")\nfunc later() {}\ny := x + undefinedVar", errName: "CompileError", errHas: "cell:5:10: undefined: undefinedVar", events: "-"},
		{cell: "x := 5\nx = \"s\"", errName: "CompileError", errHas: "cell:2:5"},
		{cell: "x", value: "5"}, // what ran before a type error keeps its effect
		{cell: "x := 7\nx = \"not an int\"", errName: "CompileError", errHas: "cell:2:5"},
		{cell: "x", value: "7"},
		{cell: "type P struct{ A int }\np := P{A: 1}\np.A", value: "1"},
		{cell: "import . \"math\"\nSqrt(4)", value: "2"},
	})
}

func TestExecuteInterrupt(t *testing.T) {
	s := newTestSession(t)
	runSteps(t, s, []step{{cell: "x := 41"}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Result)
	go func() { done <- s.Execute(ctx, "for {\n}", &recorder{}) }()
	cancel()
	r := <-done
	if r.Err == nil || r.Err.Name != "Interrupted" {
		t.Fatalf("interrupted cell: %+v, want Interrupted", r.Err)
	}
	runSteps(t, s, []step{{cell: "x + 1", value: "42"}})
}

func TestMagics(t *testing.T) {
	s := newTestSession(t)
	runSteps(t, s, []step{
		{cell: "x := 2"},
		{cell: "%time\nx * 21", value: "42"},
		{cell: "%reset"},
		{cell: "x", errName: "CompileError", errHas: "undefined: x"},
		{cell: "%nosuch", errName: "MagicError", errHas: "%help"},
	})
	rec := &recorder{}
	s.Execute(context.Background(), "%help", rec)
	if !strings.Contains(rec.joined(), "%doc NAME") {
		t.Errorf("%%help printed %q", rec.joined())
	}
	rec = &recorder{}
	s.Execute(context.Background(), "%time\nimport \"fmt\"\nfmt.Println(1)", rec)
	if !strings.HasPrefix(rec.joined(), "stdout:1\nwall time: ") {
		t.Errorf("%%time printed %q", rec.joined())
	}
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
	runSteps(t, newTestSession(t), []step{
		{cell: "import \"github.com/gobayes/gobayes/display\"\ntype Temp float64\nfunc (t Temp) String() string { return \"warm\" }\nfunc (t Temp) HTML() string { return \"<b>warm</b>\" }"},
		{cell: "display.Show(Temp(30))\ndisplay.Show(42)", events: "display::new:warm|display::new:42"},
		{cell: "d := display.Show\nd(7)", events: "display::new:7"}, // not rewritten: compiled Show
		{cell: "display.Show(nil)", events: "display::new:<nil>"},
	})
}

func TestGeneratedPackages(t *testing.T) {
	runSteps(t, newTestSession(t), []step{
		{cell: "import \"gonum.org/v1/gonum/floats\"\nfloats.Sum([]float64{1, 2, 3.5})", value: "6.5"},
		// The mean of 1..4 is 2.5.
		{cell: "import \"gonum.org/v1/gonum/stat\"\nstat.Mean([]float64{1, 2, 3, 4}, nil)", value: "2.5"},
		// The standard normal CDF at 0 is 1/2.
		{cell: "import \"gonum.org/v1/gonum/stat/distuv\"\ndistuv.UnitNormal.CDF(0)", value: "0.5"},
		// det [[2 1] [1 3]] = 2*3 - 1*1 = 5.
		{cell: "import (\n\t\"math\"\n\t\"gonum.org/v1/gonum/mat\"\n)\nm := mat.NewDense(2, 2, []float64{2, 1, 1, 3})\nmath.Abs(mat.Det(m)-5) < 1e-12", value: "true"},
		{cell: "import \"github.com/gobayes/gobayes/display\"\ndisplay.HTML(\"<b>hi</b>\")", events: "display::new:hi"},
	})
}
