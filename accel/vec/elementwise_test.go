package vec_test

import (
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/opdef"
	"github.com/gobayes/gobayes/accel/vec"
)

// opNamed is the ir op printed as name.
func opNamed(t *testing.T, name string) ir.Op {
	t.Helper()
	for o := ir.Op(1); o < ir.NumOps; o++ {
		if ir.Def(o).Name == name {
			return o
		}
	}
	t.Fatalf("no ir op named %s", name)
	return ir.OpNop
}

// domain maps a parameter into where op is defined (with a gradient).
func domain(b *ir.Builder, op string, x ir.ID) ir.ID {
	emit := func(o ir.Op, in ...ir.ID) ir.ID { id, _ := b.Emit(o, in, nil, -1); return id }
	switch op {
	case "log", "sqrt", "lgamma", "digamma", "inv", "log1p", "pow":
		return emit(ir.OpExp, x)
	case "logit":
		return emit(ir.OpLogistic, x)
	case "log_diff_exp": // above the second operand (vectors and scalars near 0, data up to 2)
		return emit(ir.OpAdd, emit(ir.OpExp, x), b.Scalar(3))
	}
	return x
}

// TestOpdefElementwise runs the generated lockstep kernel of every
// elementwise op of accel/opdef against ir's frames, chain by chain: on
// a vector, on a per-chain scalar broadcast over the elements, and, for a
// binary op, with either input a scalar or data. No op needs an entry
// here (only its domain, above, when it is not the real line), and none
// may fall back to ir.
func TestOpdefElementwise(t *testing.T) {
	const n = 4
	weights := []float64{0.5, -1, 2, 0.25}
	for _, u := range opdef.Unaries() {
		t.Run(u.Name, func(t *testing.T) {
			op := opNamed(t, u.Name)
			for _, size := range []int{n, 1} {
				b := ir.NewBuilder(n)
				var shape []int
				if size > 1 {
					shape = []int{size}
				}
				y, err := b.Emit(op, []ir.ID{domain(b, u.Name, b.ParamSlice(0, shape))}, nil, -1)
				if err != nil {
					t.Fatal(err)
				}
				p := finalizeWeighted(t, b, y, weights[:size])
				checkNoFallback(t, u.Name, p)
				checkAgainstFrame(t, u.Name, p, 7, 1.5)
			}
		})
	}
	for _, bo := range opdef.Binaries() {
		t.Run(bo.Name, func(t *testing.T) {
			op := opNamed(t, bo.Name)
			// Operands: a vector, a scalar (broadcast), data.
			for _, c := range []struct{ a, b string }{{"v", "v"}, {"v", "s"}, {"s", "v"}, {"v", "d"}, {"d", "v"}} {
				b := ir.NewBuilder(2*n + 2)
				next := 0
				operand := func(kind string, first bool) ir.ID {
					var id ir.ID
					switch kind {
					case "v":
						id = b.ParamSlice(next, []int{n})
						next += n
					case "s":
						id = b.ParamSlice(next, nil)
						next++
					default:
						return b.Const([]float64{1.5, 0.5, 2, 0.75}, []int{n})
					}
					if first {
						return domain(b, bo.Name, id)
					}
					return id
				}
				y, err := b.Emit(op, []ir.ID{operand(c.a, true), operand(c.b, false)}, nil, -1)
				if err != nil {
					t.Fatal(err)
				}
				p := finalizeWeighted(t, b, y, weights)
				name := bo.Name + " " + c.a + c.b
				checkNoFallback(t, name, p)
				checkAgainstFrame(t, name, p, 7, 1.5)
			}
		})
	}
}

// finalizeWeighted ends the program with Σ wᵢyᵢ, so that every element's
// adjoint differs.
func finalizeWeighted(t *testing.T, b *ir.Builder, y ir.ID, w []float64) *ir.Program {
	t.Helper()
	if len(w) == 1 {
		w = []float64{w[0]} // a scalar: no shape
	}
	wy, err := b.Emit(ir.OpMul, []ir.ID{y, b.Const(w, []int{len(w)})}, nil, -1)
	if err != nil {
		t.Fatal(err)
	}
	lp, err := b.Emit(ir.OpSum, []ir.ID{wy}, nil, -1)
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.Finalize(lp)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func checkNoFallback(t *testing.T, name string, p *ir.Program) {
	t.Helper()
	if fb := vec.FallbackOps(vec.New(p, 4)); len(fb) > 0 {
		t.Errorf("%s: ops run by ir, not vec: %v", name, fb)
	}
}
