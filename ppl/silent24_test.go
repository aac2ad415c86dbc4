package ppl

import (
	"strings"
	"testing"
)

// The silent wrong answers of issue 24: each call below once ran and gave
// a plausible but wrong result; now it is an error that says what to do,
// a notice in the cell, or the right result.

// TestUsingShadowsVariable: Using("a", 100.0) in m.Let used to replace
// the model's variable a in the formula.
func TestUsingShadowsVariable(t *testing.T) {
	m := NewModel("m")
	m.Normal("a", 0, 1)
	m.Data("x", []float64{1, 2})
	for what, f := range map[string]func(){
		"variable": func() { m.Let("mu", "a * 2", Using("a", 100.0)) },
		"data":     func() { m.Formula("x * 2", Using("x", []float64{3, 4})) },
	} {
		err := mustFail(t, what, f)
		name := map[string]string{"variable": "a", "data": "x"}[what]
		if !strings.Contains(err.Error(), "Using(\""+name+"\"") || !strings.Contains(err.Error(), "rename") {
			t.Errorf("%s: %v", what, err)
		}
	}
	if e := m.Let("mu", "a * k", Using("k", 2.0)); e == nil {
		t.Error("Using of a new name")
	}
}

// TestTargetAcceptZero: TargetAccept(0) used to run with 0.8.
func TestTargetAcceptZero(t *testing.T) {
	m := NewModel("m")
	m.Normal("mu", 0, 1)
	for _, a := range []float64{0, 1, -0.5, 1.5} {
		err := mustFail(t, "TargetAccept", func() { m.Sample(TargetAccept(a), LiveProgress(false)) })
		if !strings.Contains(err.Error(), "TargetAccept") || !strings.Contains(err.Error(), "(0, 1)") {
			t.Errorf("TargetAccept(%v): %v", a, err)
		}
	}
}
