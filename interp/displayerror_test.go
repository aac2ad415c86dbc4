package interp_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/interp"
	"github.com/gobayes/gobayes/interp/internal/enginetest"
)

// unknownVarFigure stands for a plotting figure of a variable the
// posterior lacks: its PNG fails and Err says why.
type unknownVarFigure struct{}

func (unknownVarFigure) PNG() ([]byte, error) {
	return nil, errors.New(`plotting: Pair: unknown variable "theta1"; the posterior has mu, tau`)
}
func (unknownVarFigure) Err() error {
	return errors.New(`plotting: Pair: unknown variable "theta1"; the posterior has mu, tau`)
}

// brokenPicture has no Err method; only its PNG fails.
type brokenPicture struct{}

func (brokenPicture) PNG() ([]byte, error) { return nil, errors.New("picture: no pixels to draw") }

func displayTestSession(t *testing.T) *interp.Session {
	t.Helper()
	s, err := interp.NewSession(interp.Options{Env: []string{}, Symbols: []map[string]map[string]reflect.Value{{
		"example.com/fig/fig": {
			"Bad":    reflect.ValueOf(func() unknownVarFigure { return unknownVarFigure{} }),
			"Broken": reflect.ValueOf(func() brokenPicture { return brokenPicture{} }),
		},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A final value that cannot be rendered fails the cell with the
// renderer's own message (no Go type name), pointing at its line.
func TestExecuteDisplayError(t *testing.T) {
	const msg = `plotting: Pair: unknown variable "theta1"; the posterior has mu, tau`
	enginetest.RunSteps(t, displayTestSession(t), []enginetest.Step{
		{Cell: "import \"example.com/fig\"\nimport \"github.com/gobayes/gobayes/display\""},
		{Cell: "f := fig.Bad()\n\nf", ErrName: "DisplayError", ErrHas: msg},
		{Cell: "fig.Broken()", ErrName: "DisplayError", ErrHas: "picture: no pixels to draw"},
		{Cell: "display.Show(fig.Bad())\n1", Value: "1", Events: "stderr:display: cannot show the value: " + msg + "\n"},
		{Cell: "display.Show(f)", Events: "stderr:display: cannot show the value: " + msg + "\n"},
		{Cell: "f2 := f\n2", Value: "2"}, // only showing fails; the value is kept
	})
	// The real thing: a figure of no data, through the generated symbols.
	enginetest.RunSteps(t, newTestSession(t), []enginetest.Step{
		{Cell: "import \"github.com/gobayes/gobayes/plotting\"\nplotting.Dist(nil)", ErrName: "DisplayError", ErrHas: "plotting: Dist got 0 numbers"},
	})

	s := displayTestSession(t)
	s.Execute(t.Context(), "import \"example.com/fig\"", nil)
	r := s.Execute(t.Context(), "x := 1\n\n  fig.Bad()", nil)
	if r.Err == nil {
		t.Fatal("no error")
	}
	if r.Err.Value != msg {
		t.Errorf("evalue %q, want only the renderer's message %q", r.Err.Value, msg)
	}
	tb := strings.Join(r.Err.Traceback, "\n")
	// The final expression starts at line 3, column 3 of the cell.
	for _, want := range []string{"cell:3:3", "    3 |   fig.Bad()"} {
		if !strings.Contains(tb, want) {
			t.Errorf("traceback %q lacks %q", tb, want)
		}
	}
	for _, leak := range []string{"unknownVarFigure", "interp.", ".PNG failed"} {
		if strings.Contains(tb+r.Err.Value, leak) {
			t.Errorf("error %q, traceback %q show the Go name %q", r.Err.Value, tb, leak)
		}
	}
}
