package ppl

import (
	"strings"
	"testing"
)

// The silent wrong answers of issue 24: each call below once ran and gave
// a plausible but wrong result; now it is an error that says what to do,
// a notice in the cell, or the right result.

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
