package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp"
)

type noEvents struct{}

func (noEvents) Stream(string, string)                {}
func (noEvents) Display(display.Bundle, string, bool) {}
func (noEvents) Clear(bool)                           {}

func TestPendingEngineThatCannotStart(t *testing.T) {
	p := startEngine(func() (interp.Engine, error) {
		return nil, errors.New("interp: no worker binary")
	})
	res := p.Execute(context.Background(), "1+1", noEvents{})
	if res.Err == nil || res.Err.Name != "InterpreterUnavailable" || !strings.Contains(res.Err.Value, "no worker binary") {
		t.Errorf("Execute = %+v, want an InterpreterUnavailable error with the reason", res.Err)
	}
	if c := p.Complete("fmt.Pr", 6); len(c.Matches) != 0 || c.Start != 6 || c.End != 6 {
		t.Errorf("Complete = %+v, want no matches at the cursor", c)
	}
	if err := p.Reset(); err == nil {
		t.Error("Reset of an engine that never started succeeded")
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close = %v, want nil: there is nothing to close", err)
	}
}

func TestPendingEngineDelegates(t *testing.T) {
	s, err := interp.NewSession(interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := startEngine(func() (interp.Engine, error) { return s, nil })
	res := p.Execute(context.Background(), "40 + 2", noEvents{})
	if res.Err != nil || res.Value == nil || res.Value.Data["text/plain"] != "42" {
		t.Errorf("Execute(40 + 2) = %+v, want the value 42", res)
	}
	if status, _ := p.IsComplete("func f() {"); status != "incomplete" {
		t.Errorf("IsComplete = %s, want incomplete", status)
	}
}
