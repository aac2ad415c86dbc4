package fuse_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// hmmStepBody is one step of an HMM's forward algorithm with K states and
// normal emissions of scale sigma, written as ppl writes hmm_example:
// α'_k = log_sum_exp(α + c_k) + normal_lpdf(y_t | μ_k, σ). Inputs: carry α
// [K], sequence y_t, statics c_0..c_{K-1} [K] (column k of log Γ) and μ
// [K].
func hmmStepBody(k int, sigma float64) *ir.Program {
	b := ir.NewBuilder(0)
	alpha := b.Input([]int{k})
	yt := b.Input(nil)
	cols := make([]ir.ID, k)
	for j := range cols {
		cols[j] = b.Input([]int{k})
	}
	mu := b.Input([]int{k})
	lses := make([]ir.ID, k)
	for j := range lses {
		lses[j] = emit(b, ir.OpLogSumExp, emit(b, ir.OpAdd, alpha, cols[j]))
	}
	cat := must(b.Emit(ir.OpConcat, lses, []int{k}, -1))
	em := must(b.Emit(ir.OpNormalLPDF, []ir.ID{yt, mu, b.Scalar(sigma)}, []int{1}, -1))
	next := emit(b, ir.OpAdd, cat, em)
	b.AddOutput("carry", next)
	b.AddOutput("emit", next)
	p, err := b.Finalize(ir.None)
	if err != nil {
		panic(err)
	}
	return p
}

// hmmForward is the forward algorithm in plain Go (Rabiner 1989, in log
// space), the oracle: the stacked α_1..α_T from α_0 = init.
func hmmForward(init, y []float64, cols [][]float64, mu []float64, sigma float64) []float64 {
	k := len(init)
	prev := init
	var out []float64
	for _, yt := range y {
		cur := make([]float64, k)
		for j := range k {
			m := math.Inf(-1)
			for l := range k {
				m = math.Max(m, prev[l]+cols[j][l])
			}
			s := 0.0
			for l := range k {
				s += math.Exp(prev[l] + cols[j][l] - m)
			}
			z := (yt - mu[j]) / sigma
			cur[j] = m + math.Log(s) - 0.5*z*z - math.Log(sigma) - 0.5*math.Log(2*math.Pi)
		}
		out = append(out, cur...)
		prev = cur
	}
	return out
}

// TestPlanHMMScan checks the fused HMM scan: its stacked output against
// the plain-Go forward algorithm, value and gradient against the
// step-by-step scan, gradients against finite differences, no allocation.
func TestPlanHMMScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, k := range []int{2, 3} {
		const T, sigma = 12, 1.3
		y := make([]float64, T)
		for i := range y {
			y[i] = 3 * math.Sin(float64(i))
		}
		args := []irtest.Arg{irtest.Param(-3, 0, k), irtest.Const([]int{T}, y...)}
		for range k {
			args = append(args, irtest.Param(-3, 0, k))
		}
		args = append(args, irtest.Param(-3, 3, k))
		p, err := irtest.BuildProgram(func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
			return b.EmitBody(ir.OpScan, in, []int{T, 1, 1}, -1, hmmStepBody(k, sigma))
		}, args...)
		if err != nil {
			t.Fatal(err)
		}
		if p.Fused() != 1 {
			t.Fatalf("K=%d: the plan fuses %d instructions, want the scan:\n%v", k, p.Fused(), p)
		}
		for range 4 {
			x := irtest.Point(rng, args...)
			v := irtest.Values(x, args...)
			want := hmmForward(v[0], v[1], v[2:2+k], v[2+k], sigma)
			got := irtest.Output(p, x, irtest.OutputName)
			for i := range want {
				if !planClose(got[i], want[i], 1e-12) {
					t.Errorf("K=%d: α[%d] = %v, oracle %v", k, i, got[i], want[i])
				}
			}
			fused, plain := ir.NewFrame(p), ir.NewFrame(p)
			plain.Unfused = true
			g, gp := make([]float64, p.Dim), make([]float64, p.Dim)
			lp, lpp := fused.Gradient(x, g), plain.Gradient(x, gp)
			if !planClose(lp, lpp, 1e-13) {
				t.Errorf("K=%d: target %v fused, %v unfused", k, lp, lpp)
			}
			for i := range g {
				if !planClose(g[i], gp[i], 1e-12) {
					t.Errorf("K=%d: gradient[%d] %v fused, %v unfused", k, i, g[i], gp[i])
				}
			}
			irtest.CheckGradient(t, p, x, 1e-6)
			irtest.CheckNoAllocs(t, p, x)
		}
	}
}

// emit adds op over in with no immediates.
func emit(b *ir.Builder, op ir.Op, in ...ir.ID) ir.ID { return must(b.Emit(op, in, nil, -1)) }

// must panics on a build error: the programs here are fixed.
func must(id ir.ID, err error) ir.ID {
	if err != nil {
		panic(err)
	}
	return id
}
