package ir_test

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/internal/pairbench"
)

// regression builds Σ normal_lpdf(y | X·β, exp(s)) over n rows and k
// predictors, X and y simulated, given to the program with SharedConst;
// the position is β then s.
func regression(t *testing.T, n, k int) (p *ir.Program, x, y []float64, xID, yID ir.ID) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	x, y = make([]float64, n*k), make([]float64, n)
	for i := range y {
		for j := range k {
			x[i*k+j] = rng.NormFloat64()
		}
		y[i] = x[i*k] + rng.NormFloat64()
	}
	b := ir.NewBuilder(k + 1)
	beta, s := b.ParamSlice(0, []int{k}), b.ParamSlice(k, nil)
	xID, yID = b.SharedConst(x, []int{n, k}), b.SharedConst(y, []int{n})
	mu := emit(b, ir.OpMatVec, xID, beta)
	lp := emit(b, ir.OpNormalLPDF, yID, mu, emit(b, ir.OpExp, s))
	p, err := b.Finalize(lp)
	if err != nil {
		t.Fatal(err)
	}
	return p, x, y, xID, yID
}

// TestFramesShareConstants: a program's large constants are the memory
// the builder was given, and every frame reads that memory in place: no
// frame copies them, nor holds adjoints for them. A frame's allocation is
// bounded by a generous multiple of the program's temporaries, far below
// the data's size (a frame that copied X and gave it adjoints would take
// twice the data).
//
// With few predictors (k below dense.KernelMin) matvec works X by columns,
// over Xᵀ: a constant too, made once by the program for all frames.
func TestFramesShareConstants(t *testing.T) {
	for _, k := range []int{20, 4} {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) { framesShareConstants(t, 4000, k) })
	}
}

func framesShareConstants(t *testing.T, n, k int) {
	p, x, y, xID, yID := regression(t, n, k)
	if !p.IsShared(xID) || !p.IsShared(yID) || len(p.Shared) != 2 {
		t.Fatalf("X and y should be shared constants; %d shared in\n%v", len(p.Shared), p)
	}
	if &p.ConstData(xID)[0] != &x[0] || &p.ConstData(yID)[0] != &y[0] {
		t.Fatal("the program copied the data it was given with SharedConst")
	}
	if p.FrameSize >= len(x)/2 || len(p.Init) != p.FrameSize {
		t.Fatalf("frame of %d slots (Init %d) for %d values of X: it should hold the temporaries only", p.FrameSize, len(p.Init), len(x))
	}
	f1, f2 := ir.NewFrame(p), ir.NewFrame(p)
	for _, f := range []*ir.Frame{f1, f2} {
		if &f.Val(xID)[0] != &x[0] || &f.Val(yID)[0] != &y[0] {
			t.Fatal("a frame reads a copy of the data, not the program's")
		}
		if f.AdjOf(xID) != nil || len(f.V) != p.FrameSize || len(f.Adj) != p.FrameSize {
			t.Fatalf("a frame of %d values and %d adjoints (frame size %d), X's adjoint %d: want no slots for the data",
				len(f.V), len(f.Adj), p.FrameSize, len(f.AdjOf(xID)))
		}
	}
	// The gradient is still right (the data are read, not only pointed to).
	irtest.CheckGradient(t, p, append(make([]float64, k), 0.3), 1e-6)
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if in.Op != ir.OpMatVec || in.Scratch == ir.None {
			continue
		}
		if k >= 16 {
			t.Fatalf("k=%d: matvec works by columns", k)
		}
		f1.Gradient(append(make([]float64, k), 0.1), make([]float64, p.Dim))
		f2.Gradient(append(make([]float64, k), 0.2), make([]float64, p.Dim))
		a1, a2 := ir.Transposed(f1, in), ir.Transposed(f2, in)
		if &a1[0] != &a2[0] || len(a1) != len(x) || a1[1] != x[k] {
			t.Fatalf("two frames read Xᵀ at %p and %p (%d values, Xᵀ[1] %v, want X[1,0] %v): want one Xᵀ of the program",
				&a1[0], &a2[0], len(a1), a1[1], x[k])
		}
	}

	const frames = 8
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	keep := make([]*ir.Frame, frames)
	for i := range keep {
		keep[i] = ir.NewFrame(p)
	}
	runtime.ReadMemStats(&m1)
	runtime.KeepAlive(keep)
	per := float64(m1.TotalAlloc-m0.TotalAlloc) / frames
	temps := 8 * float64(p.FrameSize+ir.PrivateSize(p))
	if limit := 4*temps + 64*float64(len(p.Values)) + 4096; per > limit {
		t.Errorf("NewFrame allocates %.0f bytes, more than %.0f (4× the %.0f bytes of temporaries): it copies the %d bytes of data again?",
			per, limit, temps, 8*(n*k+n))
	}
}

// TestSharedLayoutSameValues lays every posteriordb program and the
// simulated regression out again with every vector constant shared (ir's
// SharedMin lowered to 2), and checks that the log density and gradient
// are those of the program as ppl lays it out, bit for bit, through the
// execution plan and instruction by instruction: the kernels that read
// data by slot find them wherever they are.
func TestSharedLayoutSameValues(t *testing.T) {
	models := append(irtest.Fixtures(t, irtest.Posteriordb), irtest.Fixtures(t, irtest.Simulated)...)
	restore := ir.SetSharedMin(2)
	relaid := make([]*ir.Program, len(models))
	for i, m := range models {
		q, err := irtest.Rebuild(m.Program)
		if err != nil {
			restore()
			t.Fatalf("%s: %v", m.Name, err)
		}
		relaid[i] = q
	}
	restore()
	rng := rand.New(rand.NewPCG(3, 4))
	shared := 0
	for i, m := range models {
		p, q := m.Program, relaid[i]
		if len(q.Shared) > len(p.Shared) {
			shared++
		}
		if q.Fused() != p.Fused() {
			t.Errorf("%s: %d fused kernels with the constants shared, %d as laid out by ppl", m.Name, q.Fused(), p.Fused())
		}
		for _, unfused := range []bool{false, true} {
			fp, fq := ir.NewFrame(p), ir.NewFrame(q)
			fp.Unfused, fq.Unfused = unfused, unfused
			for range 3 {
				x := make([]float64, p.Dim)
				for j := range x {
					x[j] = rng.Float64()*2 - 1
				}
				gp, gq := make([]float64, p.Dim), make([]float64, p.Dim)
				lp, lq := fp.Gradient(x, gp), fq.Gradient(x, gq)
				if math.Float64bits(lp) != math.Float64bits(lq) {
					t.Fatalf("%s (unfused %v): log density %v with the constants shared, %v as ppl lays them out", m.Name, unfused, lq, lp)
				}
				for j := range gp {
					if math.Float64bits(gp[j]) != math.Float64bits(gq[j]) {
						t.Fatalf("%s (unfused %v): gradient[%d] %v with the constants shared, %v as ppl lays them out", m.Name, unfused, j, gq[j], gp[j])
					}
				}
			}
		}
	}
	if shared < len(models)/2 {
		t.Errorf("only %d of %d programs got more shared constants: the test does not test much", shared, len(models))
	}
}

// TestGobSharedConstants: shared constants travel as raw bytes beside
// the program (a copy of the data, not a float-by-float encoding), come
// back bit for bit and shared, and the decoded program computes the same
// values.
func TestGobSharedConstants(t *testing.T) {
	p, x, y, xID, _ := regression(t, 1000, 20)
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(p); err != nil {
		t.Fatal(err)
	}
	// The shared constants 8 bytes a value; the frame's slots at most as
	// much (mostly zeros, it may travel sparse).
	if n := 8 * (len(x) + len(y)); buf.Len() < n || buf.Len() > n+8*len(p.Init)+4096 {
		t.Errorf("%d bytes of shared constants (and a frame of %d slots) encoded in %d bytes: want 8 a value plus the program", n, len(p.Init), buf.Len())
	}
	var q ir.Program
	if err := gob.NewDecoder(&buf).Decode(&q); err != nil {
		t.Fatal(err)
	}
	if q.FrameSize != p.FrameSize || q.Size != p.Size || len(q.Shared) != len(p.Shared) || !q.IsShared(xID) {
		t.Fatalf("decoded: frame %d, size %d, %d shared; want %d, %d, %d", q.FrameSize, q.Size, len(q.Shared), p.FrameSize, p.Size, len(p.Shared))
	}
	for i, s := range p.Shared {
		d := q.Shared[i].Data
		if q.Shared[i].Off != s.Off || len(d) != len(s.Data) {
			t.Fatalf("shared constant %d: [%d, +%d) back, want [%d, +%d)", i, q.Shared[i].Off, len(d), s.Off, len(s.Data))
		}
		for j := range d {
			if math.Float64bits(d[j]) != math.Float64bits(s.Data[j]) {
				t.Fatalf("shared constant %d, value %d: %v back, want %v", i, j, d[j], s.Data[j])
			}
		}
	}
	xs := append(make([]float64, 20), -0.2)
	xs[0] = 0.7
	gp, gq := make([]float64, p.Dim), make([]float64, p.Dim)
	if lp, lq := ir.NewFrame(p).Gradient(xs, gp), ir.NewFrame(&q).Gradient(xs, gq); lp != lq || gp[0] != gq[0] {
		t.Fatalf("decoded: %v, ∂β₀ %v; original %v, %v", lq, gq[0], lp, gp[0])
	}
}

// TestConstCopiesSharedData: Const keeps its own copy of a large
// constant (the caller may change its slice afterwards); SharedConst keeps
// the caller's slice.
func TestConstCopiesSharedData(t *testing.T) {
	d := make([]float64, ir.SharedMin)
	for i := range d {
		d[i] = float64(i)
	}
	b := ir.NewBuilder(1)
	c := b.Const(d, []int{len(d)})
	s := b.SharedConst(d, []int{len(d)})
	sum := emit(b, ir.OpAdd, emit(b, ir.OpSum, c), emit(b, ir.OpSum, s))
	p, err := b.Finalize(emit(b, ir.OpAdd, sum, b.ParamSlice(0, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if &p.ConstData(c)[0] == &d[0] || &p.ConstData(s)[0] != &d[0] {
		t.Fatal("Const should copy its data, SharedConst not")
	}
	d[1] = 1000
	if p.ConstData(c)[1] != 1 || p.ConstData(s)[1] != 1000 {
		t.Fatalf("after a write into the caller's slice: Const's copy %v, SharedConst's %v", p.ConstData(c)[1], p.ConstData(s)[1])
	}
}

// BenchmarkSharedConstants times the gradient of each posteriordb model
// and of the simulated regression laid out two ways in one run: every
// constant in the frame (the layout before shared constants, SharedMin
// raised past every constant) and as the Builder lays them out now (data
// of SharedMin values or more shared). The two run alternately in chunks
// of about 100 µs; the metric ratio is the median of the chunks' time
// ratios (shared/in-frame), steadier on a loaded machine than two
// separate benchmarks.
//
//	go test -run '^$' -bench SharedConstants ./accel/ir
func BenchmarkSharedConstants(b *testing.B) {
	models := append(irtest.Fixtures(b, irtest.Posteriordb), irtest.Fixtures(b, irtest.Simulated)...)
	for _, m := range models {
		if len(m.Program.Shared) == 0 {
			continue // nothing shared: the same program either way
		}
		b.Run(m.Name, func(b *testing.B) {
			restore := ir.SetSharedMin(math.MaxInt)
			inFrame, err := irtest.Rebuild(m.Program)
			restore()
			if err != nil {
				b.Fatal(err)
			}
			p := m.Program
			if len(inFrame.Shared) != 0 || inFrame.Fused() != p.Fused() {
				b.Fatalf("in-frame layout: %d shared, %d fused; want 0 and %d", len(inFrame.Shared), inFrame.Fused(), p.Fused())
			}
			rng := rand.New(rand.NewPCG(3, 5))
			x := make([]float64, p.Dim)
			for i := range x {
				x[i] = rng.Float64() - 0.5
			}
			g := make([]float64, p.Dim)
			fa, fb := ir.NewFrame(inFrame), ir.NewFrame(p)
			pairbench.Run(b, func() { fa.Gradient(x, g) }, func() { fb.Gradient(x, g) }, "inframe-ns/op", "shared-ns/op")
		})
	}
}
