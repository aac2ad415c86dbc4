package interp_test

import (
	"testing"

	"github.com/gobayes/gobayes/interp/internal/enginetest"
)

// Top-level defines of an index that yaegi's global pass cannot type
// (traefik/yaegi#1437) run as in Go, and their variables have the
// element's type.
func TestIndexDefinesAtTopLevel(t *testing.T) {
	enginetest.RunSteps(t, newTestSession(t), []enginetest.Step{
		{Cell: "import (\n\t\"fmt\"\n\t\"strings\"\n)\nw := strings.Fields(\"a b c\")\nsecond := w[1]\nsecond", Value: `"b"`},
		{Cell: "first := strings.Fields(\"x y\")[0]\nfmt.Printf(\"%T %s\\n\", first, first)", Events: "stdout:string x\n"},
		{Cell: "s := \"abc\"\np := s[0]\nfmt.Printf(\"%T %v\\n\", p, p)", Events: "stdout:uint8 97\n"},
		{Cell: "shout := w[1] + \"!\"\nn := len(w[0]) + 2\nfmt.Println(shout, n)", Events: "stdout:b! 3\n"},
		{Cell: "import \"github.com/gobayes/gobayes/ppl\"\nm := ppl.NewModel(\"m\")\nm.Normal(\"a\", 0, 1)\nfit := m.Sample(ppl.Draws(20), ppl.Warmup(20), ppl.Chains(1))"},
		{Cell: "a0 := fit.Flat(\"a\")[0]\nam := fit.Array(\"a\").Mean()[0]\nfmt.Printf(\"%T %T %v\\n\", a0, am, am > -10 && am < 10)", Events: "stdout:float64 float64 true\n"},
		{Cell: "second = \"again\"\nsecond", Value: `"again"`}, // an ordinary variable afterwards
		{Cell: "q := w[7]", ErrName: "panic", ErrHas: "index out of range [7] with length 3"},
		{Cell: "r := nosuch[0]", ErrName: "CompileError", ErrHas: "undefined: nosuch"},
	})
}
