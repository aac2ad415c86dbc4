package irtest_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed bool
	msgs   []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

func TestCheckGradientPasses(t *testing.T) {
	args := []irtest.Arg{irtest.Param(-2, 2, 3), irtest.Param(-2, 2, 3)}
	p, err := irtest.OpProgram(ir.OpMul, nil, nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	x := irtest.Point(rand.New(rand.NewPCG(1, 1)), args...)
	r := &recorder{TB: t}
	irtest.CheckGradient(r, p, x, 1e-6)
	if r.failed {
		t.Errorf("a correct gradient fails: %v", r.msgs)
	}
}

// TestCheckGradientFails feeds the checker abs(x - 1e-5) at x = 0: the
// reverse sweep gives -1, central differences straddle the kink and give
// about -0.8, so the check must fail.
func TestCheckGradientFails(t *testing.T) {
	b := ir.NewBuilder(1)
	x := b.ParamSlice(0, nil)
	s, _ := b.Emit(ir.OpSub, []ir.ID{x, b.Scalar(1e-5)}, nil, -1)
	a, _ := b.Emit(ir.OpAbs, []ir.ID{s}, nil, -1)
	p, err := b.Finalize(a)
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	irtest.CheckGradient(r, p, []float64{0}, 1e-6)
	if !r.failed {
		t.Error("a gradient at a kink passes the finite-difference check")
	}
}

func TestFDJacobian(t *testing.T) {
	// y = (x0·x1, 2x0²); J = [[x1, x0], [4x0, 0]].
	jac := irtest.FDJacobian(func(x, y []float64) {
		y[0] = x[0] * x[1]
		y[1] = 2 * x[0] * x[0]
	}, []float64{0.5, 3}, 2)
	want := [][]float64{{3, 0.5}, {2, 0}}
	for i := range want {
		for j := range want[i] {
			if d := jac[i][j] - want[i][j]; d > 1e-9 || d < -1e-9 {
				t.Errorf("J[%d][%d] = %v, want %v", i, j, jac[i][j], want[i][j])
			}
		}
	}
}
