package accel_test

import (
	"errors"
	"math"
	"testing"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/cpu"
	"github.com/gobayes/gobayes/accel/ir"
)

// ToRows puts slot j of chain c (j·n+c) at c·d+j, and ToColumns undoes it.
func TestTranspose(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {5, 1}, {1, 4}, {3, 4}, {7, 2}} {
		n, d := sz[0], sz[1]
		cols := make([]float64, n*d)
		for j := 0; j < d; j++ {
			for c := 0; c < n; c++ {
				cols[j*n+c] = float64(100*c + j)
			}
		}
		rows, back := make([]float64, n*d), make([]float64, n*d)
		accel.ToRows(rows, cols, n, d)
		for c := 0; c < n; c++ {
			for j := 0; j < d; j++ {
				if got := rows[c*d+j]; got != float64(100*c+j) {
					t.Fatalf("n=%d d=%d: row %d slot %d holds %g", n, d, c, j, got)
				}
			}
		}
		accel.ToColumns(back, rows, n, d)
		for i := range back {
			if back[i] != cols[i] {
				t.Fatalf("n=%d d=%d: ToColumns(ToRows(x))[%d] = %g, want %g", n, d, i, back[i], cols[i])
			}
		}
	}
}

// rowsOnly hides a Compiled's own batches: NewBatch then takes the
// contract's row adapter over LogDensityGrad.
type rowsOnly struct{ accel.Compiled }

// TestRowBatch: the row adapter and accel/cpu's native batch (accel/vec)
// agree on values and gradients of one program, and a backend's error
// panics as a *BatchError.
func TestRowBatch(t *testing.T) {
	b := ir.NewBuilder(3)
	x := b.ParamSlice(0, []int{3})
	y := b.Const([]float64{0.5, -1, 2}, []int{3})
	s, err := b.Emit(ir.OpExp, []ir.ID{x}, nil, -1)
	if err != nil {
		t.Fatal(err)
	}
	lp, err := b.Emit(ir.OpNormalLPDF, []ir.ID{y, x, s}, nil, -1)
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.Finalize(lp)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cpu.New(1).Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const n = 5
	native, rows := accel.NewBatch(c, n), accel.NewBatch(rowsOnly{c}, n)
	if _, ok := rows.(accel.DensityBatch); ok {
		t.Fatal("the row adapter claims the density form")
	}
	for i := range native.X() {
		v := 0.3*float64(i%7) - 0.8
		native.X()[i], rows.X()[i] = v, v
	}
	native.Gradient()
	rows.Gradient()
	for i, v := range native.LPs() {
		if w := rows.LPs()[i]; math.Abs(v-w) > 1e-12*math.Max(1, math.Abs(v)) {
			t.Errorf("chain %d: log density %v (rows) against %v (native)", i, w, v)
		}
	}
	for i, v := range native.Grad() {
		if w := rows.Grad()[i]; math.Abs(v-w) > 1e-12*math.Max(1, math.Abs(v)) {
			t.Errorf("gradient[%d]: %v (rows) against %v (native)", i, w, v)
		}
	}
	c.Close()
	defer func() {
		if _, ok := recover().(*accel.BatchError); !ok {
			t.Error("a failing LogDensityGrad did not panic with a *accel.BatchError")
		}
	}()
	accel.NewBatch(failing{c}, n).Forward()
}

// failing is a Compiled whose evaluations fail.
type failing struct{ accel.Compiled }

func (failing) LogDensityGrad(xs, lps, grads []float64) error {
	return errors.New("the device is gone")
}
