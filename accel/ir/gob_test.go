package ir_test

import (
	"bytes"
	"encoding/gob"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/fuse"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// TestGobKeepsThePlan sends programs through encoding/gob, as accel/remote
// does: the copy has the same fused kernels and scalar fast path as the
// original and computes the same log density and gradient, bit for bit.
func TestGobKeepsThePlan(t *testing.T) {
	args := []irtest.Arg{
		irtest.Param(-1, 1), irtest.Param(-1, 1), irtest.Param(-1, 1, 4),
		irtest.Const([]int{4}, 0.5, -1, 2, 0.3), irtest.Const([]int{4}, 1, 2, 0.5, 1.5),
	}
	build := func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
		// A positive scalar (a bound with its log-Jacobian: accel/ir's own
		// kernel), z's prior and the non-centred likelihood (accel/fuse's),
		// and scalar arithmetic (the fast path).
		lo := b.Scalar(0)
		tau := emit(b, ir.OpLowerFwd, in[1], lo)
		prior := emit(b, ir.OpNormalLPDF, in[2], b.Scalar(0), b.Scalar(1))
		theta := emit(b, ir.OpAdd, in[0], emit(b, ir.OpMul, tau, in[2]))
		s := emit(b, ir.OpLog1p, emit(b, ir.OpSquare, in[0]))
		return b.Emit(ir.OpAddN, []ir.ID{emit(b, ir.OpLowerLogJ, in[1], lo), prior, emit(b, ir.OpNormalLPDF, in[3], theta, in[4]), emit(b, ir.OpNeg, s)}, nil, -1)
	}
	p, err := irtest.BuildProgram(build, args...)
	if err != nil {
		t.Fatal(err)
	}
	if p.Fused() < 2 || ir.FastPathLen(p) == 0 {
		t.Fatalf("the test program should have fused kernels and fast-path instructions: %d, %d in\n%v", p.Fused(), ir.FastPathLen(p), p)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(p); err != nil {
		t.Fatal(err)
	}
	var q *ir.Program
	if err := gob.NewDecoder(&buf).Decode(&q); err != nil {
		t.Fatal(err)
	}
	// A planned program is read back with accel/ir's kernels only; the
	// receiver plans it again with the Planner it chooses.
	if !q.NeedsPlanner() || q.Fused() >= p.Fused() {
		t.Fatalf("decoded: NeedsPlanner %v with %d fused kernels; want true, fewer than the original's %d", q.NeedsPlanner(), q.Fused(), p.Fused())
	}
	q = q.WithPlanner(fuse.Plan)
	if q.Fused() != p.Fused() || q.Leaves() != p.Leaves() || ir.FastPathLen(q) != ir.FastPathLen(p) {
		t.Fatalf("decoded: %d fused, %d leaves, %d fast; original %d, %d, %d",
			q.Fused(), q.Leaves(), ir.FastPathLen(q), p.Fused(), p.Leaves(), ir.FastPathLen(p))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	fp, fq := ir.NewFrame(p), ir.NewFrame(q)
	for range 5 {
		x := irtest.Point(rng, args...)
		gp, gq := make([]float64, p.Dim), make([]float64, q.Dim)
		lp, lq := fp.Gradient(x, gp), fq.Gradient(x, gq)
		if lp != lq {
			t.Fatalf("log density %v after gob, %v before", lq, lp)
		}
		for i := range gp {
			if gp[i] != gq[i] {
				t.Fatalf("gradient[%d] %v after gob, %v before", i, gq[i], gp[i])
			}
		}
	}
}

// TestGobConstantsAsBytes: a program's constants travel as raw bytes (so
// that 800 MB of data take a copy, not a float-by-float encoding), bit for
// bit — negative zero, infinities and NaN included — and a program in the
// older form, its constants as a []float64, is read as well.
func TestGobConstantsAsBytes(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, -1.5, math.MaxFloat64}
	p, err := irtest.BuildProgram(func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
		return b.Emit(ir.OpSum, []ir.ID{emit(b, ir.OpMul, in[0], in[1])}, nil, -1)
	}, irtest.Param(-1, 1), irtest.Const([]int{len(special)}, special...))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(p); err != nil {
		t.Fatal(err)
	}
	if n := 8 * len(p.Init); buf.Len() < n || buf.Len() > n+2048 {
		t.Errorf("%d constants encoded in %d bytes: want 8 each plus the program", len(p.Init), buf.Len())
	}
	var q ir.Program
	if err := gob.NewDecoder(&buf).Decode(&q); err != nil {
		t.Fatal(err)
	}
	same := func(q *ir.Program) {
		t.Helper()
		if len(q.Init) != len(p.Init) {
			t.Fatalf("%d constants back, want %d", len(q.Init), len(p.Init))
		}
		for i := range p.Init {
			if math.Float64bits(q.Init[i]) != math.Float64bits(p.Init[i]) {
				t.Fatalf("constant %d: %v back, want %v (bit for bit)", i, q.Init[i], p.Init[i])
			}
		}
	}
	same(&q)
	// The older form: the exported fields as they are, Init a []float64.
	type older struct {
		Dim     int
		Values  []ir.Value
		Instrs  []ir.Instr
		Size    int
		Init    []float64
		Tables  [][]int
		Target  ir.ID
		Outputs []ir.Output
		Inputs  []ir.ID
	}
	var inner bytes.Buffer
	if err := gob.NewEncoder(&inner).Encode(&older{p.Dim, p.Values, p.Instrs, p.Size, p.Init, p.Tables, p.Target, p.Outputs, p.Inputs}); err != nil {
		t.Fatal(err)
	}
	var r ir.Program
	if err := r.GobDecode(inner.Bytes()); err != nil {
		t.Fatal(err)
	}
	same(&r)
}

// TestGobSparseFrame: a frame mostly of zeros (a block's temporaries)
// travels as its non-zero slots, and comes back bit for bit, -0 and NaN
// included.
func TestGobSparseFrame(t *testing.T) {
	const n = 100_000
	init := make([]float64, n)
	special := []float64{math.Copysign(0, -1), math.Inf(1), math.NaN(), 5e-324, -1.5}
	for k, x := range special {
		init[k*997+3] = x
	}
	p := &ir.Program{Size: n, FrameSize: n, Init: init, Values: []ir.Value{{Off: 0, Len: n, Kind: ir.Const}}}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(p); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > 8*n/10 {
		t.Errorf("a frame of %d slots, %d of them non-zero, encoded in %d bytes: the zeros travel", n, len(special), buf.Len())
	}
	var q ir.Program
	if err := gob.NewDecoder(&buf).Decode(&q); err != nil {
		t.Fatal(err)
	}
	if len(q.Init) != n {
		t.Fatalf("%d slots back, want %d", len(q.Init), n)
	}
	for i := range init {
		if math.Float64bits(q.Init[i]) != math.Float64bits(init[i]) {
			t.Fatalf("slot %d: %v back, want %v (bit for bit)", i, q.Init[i], init[i])
		}
	}
}
