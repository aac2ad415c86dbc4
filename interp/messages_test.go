package interp_test

import (
	"testing"

	"github.com/gobayes/gobayes/interp/internal/enginetest"
)

// TestGoMessages: mistakes a student makes read as Go's own messages, not
// the interpreter's internals (issue 13, item 2), and a grouped import of
// a package already imported runs.
func TestGoMessages(t *testing.T) {
	enginetest.RunSteps(t, newTestSession(t), []enginetest.Step{
		{Cell: "import \"fmt\"\nxs := []int{7}"},
		{Cell: "xs[5]", ErrName: "panic", ErrHas: "index out of range [5] with length 1"},
		{Cell: "i := 3\ny := xs[i]\nfmt.Println(y)", ErrName: "panic", ErrHas: "index out of range [3] with length 1"},
		{Cell: "for j := 0; j < 3; j++ {\n\tfmt.Println(xs[j])\n}", ErrName: "panic", ErrHas: "index out of range [1] with length 1"},
		{Cell: "if len(xs) > 0 {\n\tfmt.Println(xs[4])\n}", ErrName: "panic", ErrHas: "index out of range [4] with length 1"},
		{Cell: "var q []posterior.Posterior\nlen(q)", ErrName: "CompileError", ErrHas: "undefined: posterior"},
		{Cell: "type P struct{ A int }\nvar p *P\np.A", ErrName: "panic", ErrHas: "invalid memory address or nil pointer dereference"},
		{Cell: "import (\"fmt\"; \"os\")\nfmt.Fprintln(os.Stdout, \"grouped\")", Events: "stdout:grouped\n"},
		{Cell: "import (\n\t\"fmt\"\n\t\"strings\"\n)\nfmt.Println(strings.ToUpper(\"ok\"))", Events: "stdout:OK\n"},
	})
}
