package ir_test

import (
	"math"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// TestShapeErrors: every op rejects arguments of the wrong shape when the
// program is built, with an error.
func TestShapeErrors(t *testing.T) {
	for _, c := range []struct {
		name  string
		op    ir.Op
		ints  []int
		table []int
		args  []irtest.Arg
	}{
		{"add of 2 and 3 values", ir.OpAdd, nil, nil, []irtest.Arg{P(0, 1, 2), P(0, 1, 3)}},
		{"log_mix of 2 and 3 values", ir.OpLogMix, nil, nil, []irtest.Arg{P(0, 1), P(0, 1, 2), P(0, 1, 3)}},
		{"dot of 2 and 3 values", ir.OpDot, nil, nil, []irtest.Arg{P(0, 1, 2), P(0, 1, 3)}},
		{"gather out of range", ir.OpGather, nil, []int{0, 3}, []irtest.Arg{P(0, 1, 3)}},
		{"gather without table", ir.OpGather, nil, nil, []irtest.Arg{P(0, 1, 3)}},
		{"gather_rows of a vector", ir.OpGatherRow, nil, []int{0}, []irtest.Arg{P(0, 1, 3)}},
		{"gather_rows out of range", ir.OpGatherRow, nil, []int{2}, []irtest.Arg{P(0, 1, 2, 2)}},
		{"concat into the wrong shape", ir.OpConcat, []int{2, 2}, nil, []irtest.Arg{P(0, 1, 2), P(0, 1, 3)}},
		{"slice past the end", ir.OpSlice, []int{2, 2}, nil, []irtest.Arg{P(0, 1, 3)}},
		{"slice without bounds", ir.OpSlice, nil, nil, []irtest.Arg{P(0, 1, 3)}},
		{"fill from a vector", ir.OpFill, []int{2}, nil, []irtest.Arg{P(0, 1, 2)}},
		{"matvec mismatch", ir.OpMatVec, nil, nil, []irtest.Arg{P(0, 1, 2, 3), P(0, 1, 2)}},
		{"matmul mismatch", ir.OpMatMul, nil, nil, []irtest.Arg{P(0, 1, 2, 3), P(0, 1, 2, 3)}},
		{"cholesky of a non-square matrix", ir.OpCholesky, nil, nil, []irtest.Arg{P(0, 1, 2, 3)}},
		{"tri_solve mismatch", ir.OpTriSolve, nil, nil, []irtest.Arg{P(0, 1, 2, 2), P(0, 1, 3)}},
		{"cov_exp_quad with a vector alpha", ir.OpCovExpQuad, nil, nil, []irtest.Arg{P(0, 1, 3), P(0, 1, 2), P(0, 1)}},
		{"add_diag with a wrong diagonal", ir.OpAddDiag, nil, nil, []irtest.Arg{P(0, 1, 3, 3), P(0, 1, 2)}},
		{"log_mat_mul_exp mismatch", ir.OpLogMatMulExp, nil, nil, []irtest.Arg{P(0, 1, 3), P(0, 1, 2, 2)}},
		{"lower with a wrong bound", ir.OpLowerFwd, nil, nil, []irtest.Arg{P(0, 1, 3), P(0, 1, 2)}},
		{"interval with a wrong bound", ir.OpIntervalLogJ, nil, nil, []irtest.Arg{P(0, 1, 3), P(0, 1), P(0, 1, 2)}},
		{"simplex of a matrix", ir.OpSimplexFwd, nil, nil, []irtest.Arg{P(0, 1, 2, 2)}},
		{"cholesky_corr of 4 values", ir.OpCholCorrFwd, nil, nil, []irtest.Arg{P(0, 1, 4)}},
	} {
		if _, err := irtest.OpProgram(c.op, c.ints, c.table, c.args...); err == nil {
			t.Errorf("%s: want an error", c.name)
		} else if testing.Verbose() {
			t.Logf("%s: %v", c.name, err)
		}
	}
}

// TestCholeskyNotPositiveDefinite: a matrix that is not positive definite
// gives a log density of -Inf, not a panic or a finite value.
func TestCholeskyNotPositiveDefinite(t *testing.T) {
	args := []irtest.Arg{P(0, 1, 2, 2)}
	p, err := irtest.BuildProgram(func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
		l, err := b.Emit(ir.OpCholesky, in, nil, -1)
		if err != nil {
			return ir.None, err
		}
		return b.Emit(ir.OpSum, []ir.ID{l}, nil, -1)
	}, args...)
	if err != nil {
		t.Fatal(err)
	}
	// Lower triangle [[1, ·], [2, 1]]: eigenvalues of [[1,2],[2,1]] are 3, -1.
	if lp := ir.NewFrame(p).Forward([]float64{1, 0, 2, 1}); !math.IsInf(lp, -1) {
		t.Errorf("log density %v, want -Inf", lp)
	}
}
