package interp_test

import (
	"testing"

	"github.com/gobayes/gobayes/interp/internal/enginetest"
)

// A cell that fails keeps its imports: Go's imports belong to the whole
// file, not to a statement, so the next cell may use what the failed one
// imported (it used to say "undefined: fmt" with no hint).
func TestFailedCellKeepsImports(t *testing.T) {
	enginetest.RunSteps(t, newTestSession(t), []enginetest.Step{
		// an undefined name stops the cell before any of it runs
		{Cell: "import \"fmt\"\nfmt.Println(y)", ErrName: "CompileError", ErrHas: "undefined: y"},
		{Cell: "fmt.Println(\"fmt kept\")", Events: "stdout:fmt kept\n"},
		// a syntax error
		{Cell: "import \"strings\"\nstrings.ToUpper(\"a\"", ErrName: "CompileError"},
		{Cell: "strings.ToUpper(\"b\")", Value: `"B"`},
		// a type error in a statement before the import
		{Cell: "x := 1 + \"a\"\nimport \"sort\"", ErrName: "CompileError"},
		{Cell: "sort.IntsAreSorted([]int{1, 2})", Value: "true"},
		// one unknown path among good ones keeps the good ones
		{Cell: "import (\n\t\"math\"\n\t\"no/such/package\"\n)\nmath.Sqrt(4)", ErrName: "CompileError"},
		{Cell: "math.Sqrt(9)", Value: "3"},
		// a refused form (range over an integer)
		{Cell: "import \"unicode\"\nfor i := range 3 {\n\t_ = i\n}", ErrName: "UnsupportedSyntax"},
		{Cell: "unicode.IsUpper('A')", Value: "true"},
	})
}
