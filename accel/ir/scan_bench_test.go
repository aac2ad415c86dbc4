package ir_test

import (
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
)

// hmm2Step is one step of a two-state HMM forward algorithm written with
// elementwise ops: concat(lse(prev + r0), lse(prev + r1)) + e_t.
func hmm2Step(b *ir.Builder, prev, e, r0, r1 ir.ID) ir.ID {
	l0 := emit(b, ir.OpLogSumExp, emit(b, ir.OpAdd, prev, r0))
	l1 := emit(b, ir.OpLogSumExp, emit(b, ir.OpAdd, prev, r1))
	return emit(b, ir.OpAdd, must(b.Emit(ir.OpConcat, []ir.ID{l0, l1}, nil, -1)), e)
}

// BenchmarkScanOverhead runs the same 100 steps as a scan and unrolled
// into a flat program: the difference is the scan's per-step cost.
func BenchmarkScanOverhead(b *testing.B) {
	const T = 100
	x := make([]float64, 4+2*T)
	for i := range x {
		x[i] = 0.01 * float64(i%17)
	}
	g := make([]float64, len(x))
	b.Run("scan", func(b *testing.B) {
		bb := ir.NewBuilder(0)
		prev, e, r0, r1 := bb.Input([]int{2}), bb.Input([]int{2}), bb.Input([]int{2}), bb.Input([]int{2})
		next := hmm2Step(bb, prev, e, r0, r1)
		bb.AddOutput("c", next)
		bb.AddOutput("e", next)
		body, _ := bb.Finalize(ir.None)
		ob := ir.NewBuilder(len(x))
		r0p, r1p := ob.ParamSlice(0, []int{2}), ob.ParamSlice(2, []int{2})
		es := ob.ParamSlice(4, []int{T, 2})
		out := must(ob.EmitBody(ir.OpScan, []ir.ID{ob.Const([]float64{0, 0}, []int{2}), es, r0p, r1p}, []int{T, 1, 1}, -1, body))
		p, _ := ob.Finalize(emit(ob, ir.OpSum, out))
		f := ir.NewFrame(p)
		for b.Loop() {
			f.Gradient(x, g)
		}
	})
	b.Run("unrolled", func(b *testing.B) {
		ob := ir.NewBuilder(len(x))
		r0p, r1p := ob.ParamSlice(0, []int{2}), ob.ParamSlice(2, []int{2})
		prev := ob.Const([]float64{0, 0}, []int{2})
		var outs []ir.ID
		for t := range T {
			prev = hmm2Step(ob, prev, ob.ParamSlice(4+2*t, []int{2}), r0p, r1p)
			outs = append(outs, emit(ob, ir.OpSum, prev))
		}
		p, _ := ob.Finalize(must(ob.Emit(ir.OpAddN, outs, nil, -1)))
		f := ir.NewFrame(p)
		for b.Loop() {
			f.Gradient(x, g)
		}
	})
}
