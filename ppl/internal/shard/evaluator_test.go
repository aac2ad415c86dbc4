package shard

import (
	"math"
	"runtime"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
)

// program is Σ c·x² + Σ d·x over a position of len(c) values.
func program(t *testing.T, c, d []float64) *ir.Program {
	t.Helper()
	b := ir.NewBuilder(len(c))
	x := b.ParamSlice(0, []int{len(c)})
	emit := func(op ir.Op, in ...ir.ID) ir.ID {
		id, err := b.Emit(op, in, nil, -1)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	sq := emit(ir.OpMul, b.Const(c, []int{len(c)}), emit(ir.OpSquare, x))
	lin := emit(ir.OpMul, b.Const(d, []int{len(d)}), x)
	p, err := b.Finalize(emit(ir.OpAdd, emit(ir.OpSum, sq), emit(ir.OpSum, lin)))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestEval checks the sum of a main program and blocks, value and
// gradient, against the closed form Σ (c·x² + d·x) and its derivative
// 2c·x + d, for any number of workers and blocks.
func TestEval(t *testing.T) {
	const dim = 3
	main := program(t, []float64{-0.5, -0.5, -0.5}, []float64{0, 0, 0})
	x := []float64{0.3, -1.2, 2}
	for _, tc := range []struct{ workers, blocks int }{{1, 1}, {2, 2}, {2, 7}, {runtime.GOMAXPROCS(0) + 1, 5}} {
		c, d := []float64{-0.5, -0.5, -0.5}, make([]float64, dim)
		blocks := make([]*ir.Program, tc.blocks)
		for j := range blocks {
			cj := []float64{0.1 * float64(j), 0, -0.2}
			dj := []float64{1, float64(j), -1}
			for i := range dim {
				c[i] += cj[i]
				d[i] += dj[i]
			}
			blocks[j] = program(t, cj, dj)
		}
		ev := New(main, blocks, tc.workers, dim)
		for range 3 { // a call must leave nothing behind for the next
			grad := make([]float64, dim)
			lp := ev.Eval(x, grad)
			want := 0.0
			for i := range dim {
				want += c[i]*x[i]*x[i] + d[i]*x[i]
				if g := 2*c[i]*x[i] + d[i]; math.Abs(grad[i]-g) > 1e-12 {
					t.Errorf("%d workers, %d blocks: grad[%d] = %v, want %v", tc.workers, tc.blocks, i, grad[i], g)
				}
			}
			if math.Abs(lp-want) > 1e-12 {
				t.Errorf("%d workers, %d blocks: log density %v, want %v", tc.workers, tc.blocks, lp, want)
			}
			if v := ev.Eval(x, nil); v != lp {
				t.Errorf("%d workers, %d blocks: without gradient %v, with %v", tc.workers, tc.blocks, v, lp)
			}
		}
	}
}
