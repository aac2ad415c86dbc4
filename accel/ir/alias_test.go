package ir_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// TestSameInputTwice passes one value as several arguments of an op: the
// reverse sweep must add every contribution into the shared adjoint.
func TestSameInputTwice(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, c := range []struct {
		name string
		op   ir.Op
		ints []int
		pick []int // argument i is value pick[i] of: x [3], s (scalar), t ∈ (0,1)
	}{
		{"mul(x, x)", ir.OpMul, nil, []int{0, 0}},
		{"add(x, x)", ir.OpAdd, nil, []int{0, 0}},
		{"sub(x, x)", ir.OpSub, nil, []int{0, 0}},
		{"div(x, x)", ir.OpDiv, nil, []int{0, 0}},
		{"pow(x, x)", ir.OpPow, nil, []int{0, 0}},
		{"mul(s, s)", ir.OpMul, nil, []int{1, 1}},
		{"div(s, s)", ir.OpDiv, nil, []int{1, 1}},
		{"pow(s, s)", ir.OpPow, nil, []int{1, 1}},
		{"mul(x, s)", ir.OpMul, nil, []int{0, 1}},
		{"log_mix(t, x, x)", ir.OpLogMix, nil, []int{2, 0, 0}},
		{"dot(x, x)", ir.OpDot, nil, []int{0, 0}},
		{"concat(x, s, x)", ir.OpConcat, nil, []int{0, 1, 0}},
		{"addn(s, s, s)", ir.OpAddN, nil, []int{1, 1, 1}},
		{"interval(x, s, s+1)", ir.OpIntervalFwd, nil, []int{0, 1, 3}},
		{"interval_log_jacobian(x, s, s+1)", ir.OpIntervalLogJ, nil, []int{0, 1, 3}},
		{"linear_recurrence(s, x, t)", ir.OpLinearRecurrence, nil, []int{1, 0, 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := []irtest.Arg{P(0.5, 2, 3), P(0.5, 2), P(0.1, 0.9)}
			p, err := irtest.BuildProgram(func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
				vals := append(in[:3:3], emit(b, ir.OpAdd, in[1], b.Scalar(1)))
				ops := make([]ir.ID, len(c.pick))
				for i, k := range c.pick {
					ops[i] = vals[k]
				}
				return b.Emit(c.op, ops, c.ints, -1)
			}, args...)
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				x := irtest.Point(rng, args...)
				irtest.CheckGradient(t, p, x, 1e-6)
			}
		})
	}
}

// TestBijectorTails evaluates the bijectors and their log-Jacobians far out
// in the unconstrained space: values stay finite and in the support, and
// gradients stay right.
func TestBijectorTails(t *testing.T) {
	for _, c := range []struct {
		name      string
		fwd, logJ ir.Op
		args      []irtest.Arg
		x         []float64
	}{
		{"interval at ±30", ir.OpIntervalFwd, ir.OpIntervalLogJ, []irtest.Arg{P(0, 0, 2), C(nil, -1), C(nil, 2)}, []float64{30, -30}},
		{"simplex at ±15", ir.OpSimplexFwd, ir.OpSimplexLogJ, []irtest.Arg{P(0, 0, 3)}, []float64{15, -15, 0}},
		{"cholesky_corr at ±8", ir.OpCholCorrFwd, ir.OpCholCorrLogJ, []irtest.Arg{P(0, 0, 3)}, []float64{8, -8, 3}},
		{"ordered with big gaps", ir.OpOrderedFwd, ir.OpOrderedLogJ, []irtest.Arg{P(0, 0, 3)}, []float64{-50, 5, -20}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, op := range []ir.Op{c.fwd, c.logJ} {
				p, err := irtest.OpProgram(op, nil, nil, c.args...)
				if err != nil {
					t.Fatal(err)
				}
				for i, v := range irtest.Output(p, c.x, irtest.OutputName) {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						t.Errorf("%v output[%d] = %v at %v", op, i, v, c.x)
					}
				}
				irtest.CheckGradient(t, p, c.x, 1e-6)
			}
		})
	}
}
