package interp

import "testing"

// os.Exit and log.Fatal stop the cell with an error saying so, the log
// line still written through the cell's logger, and the session goes on.
func TestExecuteExit(t *testing.T) {
	const kept = ": the cell was stopped; your variables are kept"
	runSteps(t, newTestSession(t), []step{
		{cell: "import (\n\t\"log\"\n\t\"os\"\n)\nx := 5\nlog.SetFlags(0)\nlog.SetPrefix(\"p: \")"},
		{cell: "x = 6\nos.Exit(3)\nx = 7", errName: "Exit", errHas: "os.Exit(3) was called" + kept + " (cell:2:1)", events: "-"},
		{cell: "log.Fatal(\"bad \", 1)", errName: "Exit", errHas: `log.Fatal was called with "bad 1"` + kept, events: "stderr:p: bad 1\n"},
		{cell: "log.Fatalf(\"n=%d\", 2)", errName: "Exit", errHas: `log.Fatalf was called with "n=2"` + kept, events: "stderr:p: n=2\n"},
		{cell: "log.Fatalln(\"ln\")", errName: "Exit", errHas: `log.Fatalln was called with "ln"` + kept, events: "stderr:p: ln\n"},
		{cell: "func stop() {\n\tos.Exit(0)\n}\n\nstop()", errName: "Exit", errHas: "os.Exit(0) was called" + kept + " (cell:5:1)"},
		{cell: "log.Panic(\"p\")", errName: "panic", errHas: "p (cell:1:1)", events: "stderr:p: p\n"}, // a panic stays a panic
		{cell: "x", value: "6"}, // what ran before os.Exit kept its effect
	})
}
