package interp_test

import (
	"testing"

	"github.com/gobayes/gobayes/interp/internal/enginetest"
)

// os.Exit and log.Fatal stop the cell with an error saying so, the log
// line still written through the cell's logger, and the session goes on.
func TestExecuteExit(t *testing.T) {
	const kept = ": the cell was stopped; your variables are kept"
	enginetest.RunSteps(t, newTestSession(t), []enginetest.Step{
		{Cell: "import (\n\t\"log\"\n\t\"os\"\n)\nx := 5\nlog.SetFlags(0)\nlog.SetPrefix(\"p: \")"},
		{Cell: "x = 6\nos.Exit(3)\nx = 7", ErrName: "Exit", ErrHas: "os.Exit(3) was called" + kept + " (cell:2:1)", Events: "-"},
		{Cell: "log.Fatal(\"bad \", 1)", ErrName: "Exit", ErrHas: `log.Fatal was called with "bad 1"` + kept, Events: "stderr:p: bad 1\n"},
		{Cell: "log.Fatalf(\"n=%d\", 2)", ErrName: "Exit", ErrHas: `log.Fatalf was called with "n=2"` + kept, Events: "stderr:p: n=2\n"},
		{Cell: "log.Fatalln(\"ln\")", ErrName: "Exit", ErrHas: `log.Fatalln was called with "ln"` + kept, Events: "stderr:p: ln\n"},
		{Cell: "func stop() {\n\tos.Exit(0)\n}\n\nstop()", ErrName: "Exit", ErrHas: "os.Exit(0) was called" + kept + " (cell:5:1)"},
		{Cell: "log.Panic(\"p\")", ErrName: "panic", ErrHas: "p (cell:1:1)", Events: "stderr:p: p\n"}, // a panic stays a panic
		{Cell: "x", Value: "6"}, // what ran before os.Exit kept its effect
	})
}
