package lockstep

import (
	"math"
	"testing"
)

// The persistent slice variable leaves the target invariant: Metropolis
// on two states with the proposal "the other state" (an involution),
// accepted by sliceAccept, spends a fraction π(B) of its steps in B. The
// chain is deterministic given v's start and delta; v's rotation by an
// irrational-looking delta makes it ergodic. Without the rescaling of v on
// acceptance, π = (0.25, 0.75) gives about 0.83 in B instead of 0.75.
func TestSliceAcceptInvariant(t *testing.T) {
	const steps = 1_000_000
	for _, tc := range []struct {
		pB, delta float64
	}{
		{0.75, 0.0137},
		{0.9, 0.0137},
		{0.5, 0.05},
		{0.75, 0.3},
	} {
		energy := [2]float64{-math.Log(1 - tc.pB), -math.Log(tc.pB)}
		state, v, inB := 0, -0.3, 0
		for s := 0; s < steps; s++ {
			take, nv := sliceAccept(v, tc.delta, energy[1-state]-energy[state])
			v = nv
			if take {
				state = 1 - state
			}
			if !(v >= -1 && v < 1) {
				t.Fatalf("π(B) %g, delta %g: v left [-1, 1): %g", tc.pB, tc.delta, v)
			}
			inB += state
		}
		// A deterministic chain has no Monte Carlo error; 0.005 allows for
		// the slow rotation's discrepancy over 10^6 steps.
		if got := float64(inB) / steps; math.Abs(got-tc.pB) > 0.005 {
			t.Errorf("π(B) %g, delta %g: fraction of steps in B %.4f", tc.pB, tc.delta, got)
		}
	}
}
