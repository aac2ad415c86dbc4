// The forms GuardCompositeLits fixes, run in plain yaegi and as cells of a
// session (package interp, which applies the rewrite to every source).
package rewrite_test

import (
	"fmt"
	"strings"
	"testing"

	yaegi "github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/gobayes/gobayes/interp"
	"github.com/gobayes/gobayes/interp/internal/enginetest"
	"github.com/gobayes/gobayes/interp/rewrite"
)

// multiAssignForms are assignments of several values, one a composite
// literal, that yaegi v0.16.1 gets wrong (it zeroes the other values);
// want is what the Go specification says "r" holds afterwards.
var multiAssignForms = []struct {
	name, body, want string
}{
	{"define", `a, b := 1.0, []float64{2}; r = fmt.Sprint(a, b)`, "1 [2]"},
	{"define literal first", `a, b := []float64{2}, 1.5; r = fmt.Sprint(a, b)`, "[2] 1.5"},
	{"define three", `a, b, c := 1.0, []int{2}, "s"; r = fmt.Sprint(a, b, c)`, "1 [2]s"}, // Sprint puts no space next to a string
	{"define variable", `x := 4.0; a, b := x, []float64{2}; r = fmt.Sprint(a, b)`, "4 [2]"},
	{"define map", `a, b := 1, map[string]int{"k": 1}; r = fmt.Sprint(a, b)`, "1 map[k:1]"},
	{"define struct", `a, b := 1, struct{ X int }{3}; r = fmt.Sprint(a, b)`, "1 {3}"},
	{"define array", `a, b := 1, [...]int{3, 4}; r = fmt.Sprint(a, b)`, "1 [3 4]"},
	{"define two literals and a value", `a, b, c := []int{1}, 2, []int{3}; r = fmt.Sprint(a, b, c)`, "[1] 2 [3]"},
	{"var", `var a, b = 1.0, []float64{2}; r = fmt.Sprint(a, b)`, "1 [2]"},
	{"var typed", `var a, b interface{} = 1.0, []float64{2}; r = fmt.Sprint(a, b)`, "1 [2]"},
	{"assign", `var a float64; var b []float64; a, b = 1.0, []float64{2}; r = fmt.Sprint(a, b)`, "1 [2]"},
	{"redeclare", `a := 7; a, b := 1, []int{2}; r = fmt.Sprint(a, b)`, "1 [2]"},
	{"swap with literal", `a, b := 1, []int{2}; a, b = len(b)+a, []int{a}; r = fmt.Sprint(a, b)`, "2 [1]"},
	{"if init", `if a, b := 1.0, []int{2}; len(b) > 0 { r = fmt.Sprint(a, b) }`, "1 [2]"},
	{"for init", `for a, b := 1.0, []int{2}; ; { r = fmt.Sprint(a, b); break }`, "1 [2]"},
	{"switch init", `switch a, b := 1.0, []int{2}; { default: r = fmt.Sprint(a, b) }`, "1 [2]"},
	{"block", `{ a, b := 1.0, []int{2}; r = fmt.Sprint(a, b) }`, "1 [2]"},
	{"function literal", `f := func() string { a, b := 1.0, []int{2}; return fmt.Sprint(a, b) }; r = f()`, "1 [2]"},
	{"nested literal", `a, b := 1, [][]int{{2}}; r = fmt.Sprint(a, b)`, "1 [[2]]"},
}

// TestYaegiMultiAssignBug runs each form in plain yaegi, in main's body and
// in a declared function: rewritten by GuardCompositeLits it must give
// Go's answer. As written it does not on yaegi v0.16.1; when that changes
// (a newer yaegi) the test says so, since the rewrite may then go.
func TestYaegiMultiAssignBug(t *testing.T) {
	wrong := 0
	for _, tc := range multiAssignForms {
		for _, where := range []string{"main", "func"} {
			program := func(body string) string {
				if where == "func" {
					return "package main\nimport \"fmt\"\nvar r string\nfunc f() {" + body + "}\nfunc main() { f() }"
				}
				return "package main\nimport \"fmt\"\nvar r string\nfunc main() {" + body + "}"
			}
			raw, err := runPlainYaegi(program(tc.body))
			if err != nil {
				t.Fatalf("%s in %s: %v", tc.name, where, err)
			}
			if raw != tc.want {
				wrong++
			}
			fixed, err := runPlainYaegi(program(strings.TrimPrefix(rewrite.GuardCompositeLits(rewrite.StmtPrefix+tc.body), rewrite.StmtPrefix)))
			if err != nil {
				t.Fatalf("%s in %s, rewritten: %v", tc.name, where, err)
			}
			if fixed != tc.want {
				t.Errorf("%s in %s, rewritten: r = %q, want %q", tc.name, where, fixed, tc.want)
			}
		}
	}
	if wrong == 0 {
		t.Log("yaegi assigns every form correctly without the rewrite; GuardCompositeLits may no longer be needed")
	}
}

func runPlainYaegi(src string) (string, error) {
	it := yaegi.New(yaegi.Options{})
	if err := it.Use(stdlib.Symbols); err != nil {
		return "", err
	}
	if _, err := it.Eval(src); err != nil {
		return "", err
	}
	v, err := it.Eval("r")
	if err != nil {
		return "", err
	}
	return fmt.Sprint(v.Interface()), nil
}

// TestExecuteMultiAssignComposite runs the forms as cells: at the top level
// (statements and declarations), inside a declared function and inside a
// method, each in a fresh session.
func TestExecuteMultiAssignComposite(t *testing.T) {
	for _, tc := range multiAssignForms {
		cells := map[string]string{
			"top":    "import \"fmt\"\nvar r string\n" + tc.body + "\nr",
			"func":   "import \"fmt\"\nvar r string\nfunc f() {\n" + tc.body + "\n}\nf()\nr",
			"method": "import \"fmt\"\nvar r string\ntype M struct{}\nfunc (M) run() {\n" + tc.body + "\n}\nM{}.run()\nr",
		}
		for where, cell := range cells {
			if where == "top" && strings.HasPrefix(tc.body, "f := func") {
				cell = strings.Replace(cell, "f := func", "g := func", 1)
				cell = strings.Replace(cell, "r = f()", "r = g()", 1)
			}
			s, err := interp.NewSession(interp.Options{Env: []string{}})
			if err != nil {
				t.Fatal(err)
			}
			res := s.Execute(t.Context(), cell, nil)
			if res.Err != nil {
				t.Errorf("%s (%s): %v", tc.name, where, res.Err)
				continue
			}
			if res.Value == nil {
				t.Errorf("%s (%s): no value", tc.name, where)
				continue
			}
			if got, want := res.Value.Data["text/plain"], fmt.Sprintf("%q", tc.want); got != want {
				t.Errorf("%s (%s): r = %v, want %v", tc.name, where, got, want)
			}
		}
	}
}

// A package-level var declaration of several values, the form a cell's
// "var a, b = ..." takes, and one across two cells.
func TestExecuteMultiVarDecl(t *testing.T) {
	s, err := interp.NewSession(interp.Options{Env: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	enginetest.RunSteps(t, s, []enginetest.Step{
		{Cell: "var a, b = 1.5, []float64{2}\na", Value: "1.5"},
		{Cell: "var (\n\tc, d = \"x\", map[string]int{\"k\": 1}\n)\nc", Value: `"x"`},
		{Cell: "d", Value: "map[k:1]"},
		{Cell: "type P struct{ X int }\nu, v := 3, P{4}\nu + v.X", Value: "7"},
		{Cell: "u, w := 5, []P{{6}}\nu + w[0].X", Value: "11"}, // u redeclared at the top level
		// The rewrite keeps the columns of errors after the literal: the
		// operand "s" starts at column 25, and 1 at column 19, as counted
		// in the cells.
		{Cell: "a, b, c := 1, []int{2}, \"s\" + 1", ErrName: "CompileError", ErrHas: "cell:1:25:"},
		{Cell: "a, b := []int{2}, 1 + \"s\"", ErrName: "CompileError", ErrHas: "cell:1:19:"},
	})
}

func TestGuardCompositeLits(t *testing.T) {
	cases := []struct{ in, want string }{
		// The expected texts are the inputs with parentheses put in by
		// hand, in the spaces around each literal where there are any.
		{";a, b := 1, []int{2}", ";a, b := 1,([]int{2})"},
		{";a, b := []int{2}, 1", ";a, b :=([]int{2}),1"},
		{";a, b := []int{1}, []int{2}", ";a, b :=([]int{1}),([]int{2})"}, // the space after the comma is the second literal's
		{";a, b := 1,[]int{2}", ";a, b := 1,([]int{2})"},                 // no space to take
		{";a := []int{2}", ";a := []int{2}"},                             // one value: untouched
		{";a, b := f()", ";a, b := f()"},                                 // no literal
		{"\nvar a, b = T{1}, 2", "\nvar a, b =(T{1}),2"},                 // declaration run
		{";a, b := 1, [][]int{{2}}", ";a, b := 1,([][]int{{2}})"},        // inner elements are no values of the list
		{";f := func() { a, b := 1, T{}; _ = a }", ";f := func() { a, b := 1,(T{}); _ = a }"},
		{";a, b := 1, (T{})", ";a, b := 1, (T{})"},                                                                             // already parenthesized
		{";a, b := 1, []int{", ";a, b := 1, []int{"},                                                                           // does not parse: left to yaegi
		{";x, y := 1, []func(){func() { c, d := 2, T{}; _ = c }}", ";x, y := 1,([]func(){func() { c, d := 2,(T{}); _ = c }})"}, // nested
	}
	for _, tc := range cases {
		if got := rewrite.GuardCompositeLits(tc.in); got != tc.want {
			t.Errorf("GuardCompositeLits(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
