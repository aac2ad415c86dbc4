package interp_test

import (
	"testing"

	"github.com/gobayes/gobayes/interp/internal/enginetest"
)

// A multi-value define (n, err := strconv.Atoi(s); v, ok := m[k]) inside
// a loop or if at the top level of a cell runs as in Go: yaegi alone says
// "undefined: n" there; the statement runs as a function literal's body.
// A name that is really undefined is still reported, and a panic inside
// still ends the cell with the panic.
func TestMultiValueDefineInBlocks(t *testing.T) {
	enginetest.RunSteps(t, newTestSession(t), []enginetest.Step{
		{Cell: "import (\n\"fmt\"\n\"strconv\"\n)\nfunc two(x int) (int, int) { return x, 2*x }"},
		{Cell: "for i := 0; i < 1; i++ {\n    n, err := strconv.Atoi(\"7\")\n    fmt.Println(n, err)\n}", Events: "stdout:7 <nil>\n"},
		{Cell: "total := 0\nfor j := 0; j <= 2; j++ {\n    if j > 0 {\n        lo, hi := two(j)\n        total += lo + hi\n    }\n}\nfmt.Println(total)", Events: "stdout:9\n"},
		{Cell: "mm := map[string]int{\"a\": 1}\nfor k := range mm {\n    v, ok := mm[k]\n    fmt.Println(v, ok)\n}", Events: "stdout:1 true\n"},
		{Cell: "for i := 0; i < 1; i++ {\n    q, err := strconv.Atoi(nosuch)\n    fmt.Println(q, err)\n}", ErrName: "CompileError", ErrHas: "undefined: nosuch"},
		{Cell: "for i := 0; i < 1; i++ {\n    q, err := strconv.Atoi(\"x\")\n    fmt.Println(q, err != nil)\n    var z []int\n    _ = z[3]\n}", ErrName: "panic", ErrHas: "index out of range"},
		{Cell: "fmt.Println(total)", Events: "stdout:9\n"},
	})
}
