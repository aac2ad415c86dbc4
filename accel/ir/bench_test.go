package ir_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// benchGradient measures one Gradient of p per iteration and reports the
// time per element (n elements).
func benchGradient(b *testing.B, p *ir.Program, x []float64, n int) {
	f := ir.NewFrame(p)
	g := make([]float64, p.Dim)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		f.Gradient(x, g)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
}

func BenchmarkOps(b *testing.B) {
	const n = 1000
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name  string
		op    ir.Op
		table []int
		args  []irtest.Arg
	}{
		{"exp", ir.OpExp, nil, []irtest.Arg{P(-2, 2, n)}},
		{"log", ir.OpLog, nil, []irtest.Arg{P(0.1, 2, n)}},
		{"lgamma", ir.OpLgamma, nil, []irtest.Arg{P(0.5, 5, n)}},
		{"softplus", ir.OpSoftplus, nil, []irtest.Arg{P(-5, 5, n)}},
		{"add", ir.OpAdd, nil, []irtest.Arg{P(-2, 2, n), P(-2, 2, n)}},
		{"mul scalar", ir.OpMul, nil, []irtest.Arg{P(-2, 2), P(-2, 2, n)}},
		{"log_mix", ir.OpLogMix, nil, []irtest.Arg{P(0.1, 0.9), P(-2, 2, n), P(-2, 2, n)}},
		{"log_sum_exp", ir.OpLogSumExp, nil, []irtest.Arg{P(-2, 2, n)}},
		{"gather", ir.OpGather, randIndex(rng, n, 50), []irtest.Arg{P(-2, 2, 50)}},
		{"matvec 50", ir.OpMatVec, nil, []irtest.Arg{C([]int{n, 50}, make([]float64, n*50)...), P(-2, 2, 50)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			p, err := irtest.OpProgram(c.op, nil, c.table, c.args...)
			if err != nil {
				b.Fatal(err)
			}
			elems := n
			if c.name == "matvec 50" {
				elems = n * 50
			}
			benchGradient(b, p, irtest.Point(rng, c.args...), elems)
		})
	}
	b.Run("cholesky 50", func(b *testing.B) {
		args := []irtest.Arg{P(-0.1, 0.1, 50, 50)}
		p, err := irtest.BuildProgram(func(bb *ir.Builder, in []ir.ID) (ir.ID, error) {
			a, _ := bb.Emit(ir.OpAddDiag, []ir.ID{in[0], bb.Scalar(50)}, nil, -1)
			return bb.Emit(ir.OpCholesky, []ir.ID{a}, nil, -1)
		}, args...)
		if err != nil {
			b.Fatal(err)
		}
		benchGradient(b, p, irtest.Point(rng, args...), 50*50)
	})
	b.Run("linear_recurrence", func(b *testing.B) {
		args := []irtest.Arg{P(-1, 1), P(-1, 1, n), P(-0.9, 0.9, n)}
		p, err := irtest.OpProgram(ir.OpLinearRecurrence, nil, nil, args...)
		if err != nil {
			b.Fatal(err)
		}
		benchGradient(b, p, irtest.Point(rng, args...), n)
	})
	b.Run("mul_lower_self_transpose 30", func(b *testing.B) {
		args := []irtest.Arg{P(-1, 1, 30, 30)}
		p, err := irtest.OpProgram(ir.OpMulLowerTTr, nil, nil, args...)
		if err != nil {
			b.Fatal(err)
		}
		benchGradient(b, p, irtest.Point(rng, args...), 30*30)
	})
	b.Run("cholesky_corr_log_jacobian K=10", func(b *testing.B) {
		args := []irtest.Arg{P(-1, 1, 45)}
		p, err := irtest.OpProgram(ir.OpCholCorrLogJ, nil, nil, args...)
		if err != nil {
			b.Fatal(err)
		}
		benchGradient(b, p, irtest.Point(rng, args...), 45)
	})
	// The structured ops, n events of k values.
	const k = 5
	cats, simplexRows, lower := make([]float64, n), make([]float64, n*k), make([]float64, k*k)
	for i := range cats {
		cats[i] = float64(rng.IntN(k))
	}
	for i := range n {
		s := 0.0
		for j := range k {
			simplexRows[i*k+j] = 0.5 + rng.Float64()
			s += simplexRows[i*k+j]
		}
		for j := range k {
			simplexRows[i*k+j] /= s
		}
	}
	for i := range k {
		for j := range i {
			lower[i*k+j] = rng.Float64() - 0.5
		}
		lower[i*k+i] = 1 + rng.Float64()
	}
	for _, c := range []struct {
		name string
		op   ir.Op
		args []irtest.Arg
	}{
		{"categorical_logit rows K=5", ir.OpCategoricalLogitLPMF, []irtest.Arg{C([]int{n}, cats...), P(-2, 2, n, k)}},
		{"categorical_logit shared K=5", ir.OpCategoricalLogitLPMF, []irtest.Arg{C([]int{n}, cats...), P(-2, 2, k)}},
		{"dirichlet K=5", ir.OpDirichletLPDF, []irtest.Arg{C([]int{n, k}, simplexRows...), P(0.5, 3, k)}},
		{"multi_normal_cholesky K=5", ir.OpMultiNormalCholLPDF, []irtest.Arg{C([]int{n, k}, simplexRows...), P(-1, 1, k), C([]int{k, k}, lower...)}},
		{"ordered", ir.OpOrderedFwd, []irtest.Arg{P(-2, 2, n)}},
		{"positive_ordered", ir.OpPosOrderedFwd, []irtest.Arg{P(-2, 2, n)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			p, err := irtest.OpProgram(c.op, nil, nil, c.args...)
			if err != nil {
				b.Fatal(err)
			}
			benchGradient(b, p, irtest.Point(rng, c.args...), n)
		})
	}
	b.Run("scan hmm fused K=3 T=100", func(b *testing.B) {
		p := hmmFusedProgram(3, 100)
		x := make([]float64, p.Dim)
		for i := range x {
			x[i] = rng.Float64()
		}
		benchGradient(b, p, x, 100)
	})
	b.Run("scan hmm K=3 T=100", func(b *testing.B) {
		p := hmmProgram(3, 100)
		x := make([]float64, p.Dim)
		for i := range x {
			x[i] = rng.Float64()
		}
		benchGradient(b, p, x, 100)
	})
}

func randIndex(rng *rand.Rand, n, k int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = rng.IntN(k)
	}
	return idx
}

// BenchmarkDispatch measures the per-instruction overhead: a chain of 20
// scalar multiplications, forward and reverse.
func BenchmarkDispatch(b *testing.B) {
	bb := ir.NewBuilder(2)
	x, y := bb.ParamSlice(0, nil), bb.ParamSlice(1, nil)
	v := x
	for range 20 {
		v = emit(bb, ir.OpMul, v, y)
	}
	p, err := bb.Finalize(v)
	if err != nil {
		b.Fatal(err)
	}
	f := ir.NewFrame(p)
	g := make([]float64, 2)
	xs := []float64{1, 1.0001}
	b.ReportAllocs()
	for b.Loop() {
		f.Gradient(xs, g)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/20, "ns/instr")
}

// BenchmarkScanGARCH runs the GARCH(1,1) likelihood (T = 200) as a scan
// (its scalar body through the dedicated scalar loop, and through the
// general path with the registered semantics) and as one
// linear_recurrence.
func BenchmarkScanGARCH(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	y := make([]float64, 200)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	x := []float64{0.1, -1, -2, -1}
	for _, c := range []struct {
		name string
		p    *ir.Program
	}{
		{"scan", garchProgram(y, 0.8)},
		{"scan registered", ir.WithoutFastPath(garchProgram(y, 0.8))},
		{"linear_recurrence", garchLinearProgram(y, 0.8)},
	} {
		b.Run(c.name, func(b *testing.B) { benchGradient(b, c.p, x, len(y)) })
	}
}
