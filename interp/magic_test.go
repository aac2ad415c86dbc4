package interp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp"
	"github.com/gobayes/gobayes/interp/internal/enginetest"
)

func TestMagics(t *testing.T) {
	s := newTestSession(t)
	enginetest.RunSteps(t, s, []enginetest.Step{
		{Cell: "x := 2"},
		{Cell: "%time\nx * 21", Value: "42"},
		{Cell: "%reset"},
		{Cell: "x", ErrName: "CompileError", ErrHas: "undefined: x"},
		{Cell: "%nosuch", ErrName: "MagicError", ErrHas: "%help"},
	})
	rec := &enginetest.Recorder{}
	s.Execute(context.Background(), "%help", rec)
	if !strings.Contains(rec.Joined(), "%doc NAME") {
		t.Errorf("%%help printed %q", rec.Joined())
	}
	rec = &enginetest.Recorder{}
	s.Execute(context.Background(), "%time\nimport \"fmt\"\nfmt.Println(1)", rec)
	if !strings.HasPrefix(rec.Joined(), "stdout:1\nwall time: ") {
		t.Errorf("%%time printed %q", rec.Joined())
	}
}

func TestDocMagics(t *testing.T) {
	s := newTestSession(t)
	for _, cell := range []string{"fmt.Sprintf?", "%doc fmt.Sprintf", "fmt.Sprintf??"} {
		r := s.Execute(context.Background(), cell, nil)
		if r.Pager == nil || !strings.Contains(r.Pager.Data[display.MIMEText].(string), "func Sprintf(format string, a ...any) string") {
			t.Errorf("%q: pager %+v", cell, r.Pager)
		}
	}
	r := s.Execute(context.Background(), "nosuch?", nil)
	if r.Pager == nil || !strings.Contains(r.Pager.Data[display.MIMEText].(string), "no documentation found for nosuch") {
		t.Errorf("nosuch?: pager %+v", r.Pager)
	}
}

// Magic lines are complete; %time's cell is as complete as the Go code it
// times, which rewrite.IsComplete judges (its own test covers Go).
func TestIsComplete(t *testing.T) {
	// Expected answers follow IPython's is_complete semantics applied to Go.
	cases := []struct {
		code, status, indent string
	}{
		{"", "complete", ""},
		{"%time", "complete", ""},
		{"%time\nfor {", "incomplete", "    "},
		{"%time\nx := 1", "complete", ""},
		{"fmt.Println?", "complete", ""},
		{"for i := 0; i < 3; i++ {", "incomplete", "    "},
		{"x := )", "invalid", ""},
	}
	for _, c := range cases {
		status, indent := interp.IsComplete(c.code)
		if status != c.status || indent != c.indent {
			t.Errorf("IsComplete(%q) = %q, %q; want %q, %q", c.code, status, indent, c.status, c.indent)
		}
	}
}
