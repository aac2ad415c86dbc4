package ir_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// randomProgram composes n random ops over a position of a vector x [4]
// and a scalar s, choosing ops that are defined everywhere on what they
// get (log only of a logistic, exp only of a tanh), so that any point is
// in the domain. The target sums the last values built.
func randomProgram(rng *rand.Rand, n int) *ir.Program {
	b := ir.NewBuilder(5)
	vals := []ir.ID{b.ParamSlice(0, []int{4}), b.ParamSlice(4, nil)}
	pick := func() ir.ID { return vals[rng.IntN(len(vals))] }
	length := func(id ir.ID) int { return ir.ShapeLen(b.Shape(id)) }
	// pickLike returns a value with id's length or a scalar.
	pickLike := func(id ir.ID) ir.ID {
		for range 10 {
			c := pick()
			if l := length(c); l == 1 || l == length(id) {
				return c
			}
		}
		return vals[1]
	}
	unary := []ir.Op{ir.OpNeg, ir.OpSquare, ir.OpLogistic, ir.OpSoftplus, ir.OpTanh, ir.OpAbs}
	for range n {
		a := pick()
		var v ir.ID
		switch k := rng.IntN(11); k {
		case 0, 1:
			v = emit(b, unary[rng.IntN(len(unary))], a)
		case 2:
			v = emit(b, ir.OpExp, emit(b, ir.OpTanh, a))
		case 3:
			v = emit(b, ir.OpLog, emit(b, ir.OpLogistic, a))
		case 4, 5:
			ops := []ir.Op{ir.OpAdd, ir.OpSub, ir.OpMul}
			o := pickLike(a)
			if rng.IntN(2) == 0 {
				a, o = o, a
			}
			v = emit(b, ops[rng.IntN(len(ops))], a, o)
		case 6:
			if rng.IntN(2) == 0 {
				v = emit(b, ir.OpSum, a)
			} else {
				v = emit(b, ir.OpLogSumExp, a)
			}
		case 7:
			idx := make([]int, 1+rng.IntN(5))
			for i := range idx {
				idx[i] = rng.IntN(length(a))
			}
			v = must(b.Emit(ir.OpGather, []ir.ID{a}, nil, b.Table(idx)))
		case 8:
			v = must(b.Emit(ir.OpConcat, []ir.ID{a, pick()}, nil, -1))
		case 9:
			l := length(a)
			start := rng.IntN(l)
			v = must(b.Emit(ir.OpSlice, []ir.ID{a}, []int{start, 1 + rng.IntN(l-start)}, -1))
		case 10:
			t := emit(b, ir.OpLogistic, vals[1])
			o := pickLike(a)
			v = emit(b, ir.OpLogMix, t, a, o)
		}
		vals = append(vals, v)
	}
	var sums []ir.ID
	for _, v := range vals[len(vals)-3:] {
		sums = append(sums, emit(b, ir.OpSum, v))
	}
	p, err := b.Finalize(must(b.Emit(ir.OpAddN, sums, nil, -1)))
	if err != nil {
		panic(err)
	}
	return p
}

// TestRandomPrograms checks gradients of random compositions of ops
// against finite differences, and the scalar fast path against the
// registered semantics on the same programs.
func TestRandomPrograms(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	for i := range 200 {
		p := randomProgram(rng, 12)
		x := make([]float64, 5)
		for j := range x {
			x[j] = 2*rng.Float64() - 1
		}
		g1, g2 := make([]float64, 5), make([]float64, 5)
		lp1 := ir.NewFrame(p).Gradient(x, g1)
		lp2 := ir.NewFrame(ir.WithoutFastPath(p)).Gradient(x, g2)
		if lp1 != lp2 || !slices.Equal(g1, g2) {
			t.Errorf("program %d: fast path (%v, %v) and registered (%v, %v) differ\n%v", i, lp1, g1, lp2, g2, p)
		}
		before := t.Failed()
		irtest.CheckGradient(t, p, x, 1e-6)
		if !before && t.Failed() {
			t.Logf("program %d:\n%v", i, p)
		}
	}
}
