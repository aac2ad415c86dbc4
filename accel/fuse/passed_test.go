package fuse_test

import (
	"bytes"
	"encoding/gob"
	"testing"

	"github.com/gobayes/gobayes/accel/cpu"
	"github.com/gobayes/gobayes/accel/fuse"
	"github.com/gobayes/gobayes/accel/ir"
)

// nonCentred builds eight schools' non-centred likelihood with z's
// standard-normal prior, normal(y | mu + tau·z, sigma) + normal(z | 0, 1):
// one kAffineNormal when planned by Plan, nothing of this package's
// otherwise. pl is given to the builder, or not at all when nil.
func nonCentred(t *testing.T, pl ir.Planner) *ir.Program {
	t.Helper()
	const n = 8
	b := ir.NewBuilder(2 + n)
	if pl != nil {
		b.SetPlanner(pl)
	}
	mu, tau := b.ParamSlice(0, []int{1}), b.ParamSlice(1, []int{1})
	z := b.ParamSlice(2, []int{n})
	y := b.Const([]float64{28, 8, -3, 7, -1, 1, 18, 12}, []int{n})
	sigma := b.Const([]float64{15, 10, 16, 11, 9, 11, 10, 18}, []int{n})
	theta := emit(b, ir.OpAdd, mu, emit(b, ir.OpMul, tau, z))
	prior := emit(b, ir.OpNormalLPDF, z, b.Scalar(0), b.Scalar(1))
	like := emit(b, ir.OpNormalLPDF, y, theta, sigma)
	target := emit(b, ir.OpAddN, prior, like)
	p, err := b.Finalize(target)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPlannerIsPassedNotImported: this test binary links accel/fuse, yet a
// program whose builder was given no Planner runs none of its kernels, and
// the same program given Plan does; so whether a program is fused is
// decided where it is compiled (ppl passes Plan), not by what a binary
// imports. A program sent over the wire is planned again by the receiving
// backend (accel/cpu) with Plan, and only when it was planned where built.
func TestPlannerIsPassedNotImported(t *testing.T) {
	plain, planned := nonCentred(t, nil), nonCentred(t, fuse.Plan)
	if plain.Planned() || !planned.Planned() {
		t.Fatalf("Planned: %v without a Planner, %v with Plan; want false, true", plain.Planned(), planned.Planned())
	}
	if planned.Fused() <= plain.Fused() {
		t.Fatalf("the program fuses %d instructions with Plan and %d without; want more with it:\n%v", planned.Fused(), plain.Fused(), planned)
	}
	if plain.Fused() != 0 {
		t.Errorf("a program built without a Planner fuses %d instructions (accel/ir has no kernel for this chain): a planner is installed by import:\n%v", plain.Fused(), plain)
	}
	// WithPlanner plans the same instructions as the builder did.
	if again := plain.WithPlanner(fuse.Plan); again.Fused() != planned.Fused() || plain.Fused() != 0 {
		t.Errorf("WithPlanner(Plan) fuses %d (the original then %d), the builder's Plan %d", again.Fused(), plain.Fused(), planned.Fused())
	}
	for _, c := range []struct {
		name string
		p    *ir.Program
	}{{"unplanned", plain}, {"planned", planned}} {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(c.p); err != nil {
			t.Fatal(err)
		}
		var q *ir.Program
		if err := gob.NewDecoder(&buf).Decode(&q); err != nil {
			t.Fatal(err)
		}
		if q.NeedsPlanner() != c.p.Planned() {
			t.Errorf("%s: read back, NeedsPlanner is %v", c.name, q.NeedsPlanner())
		}
		// The CPU backend runs what it compiled: the same log density
		// either way, fused or not, as the sender planned it.
		comp, err := cpu.New(1).Compile(q)
		if err != nil {
			t.Fatal(err)
		}
		x := []float64{1, 2, 0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.7, -0.8}
		lp, want := []float64{0}, ir.NewFrame(c.p).Forward(x)
		if err := comp.LogDensityGrad(x, lp, nil); err != nil {
			t.Fatal(err)
		}
		if d := lp[0] - want; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s: the CPU backend gives %v for the program read back, the original %v", c.name, lp[0], want)
		}
		comp.Close()
	}
}
