//go:build cuda

package lockstep_test

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/conformance"
	"github.com/gobayes/gobayes/accel/cuda"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
)

// The samplers on a real GPU (accel/cuda in process), beside the CPU's
// (make cuda; go test -tags cuda ./ppl/lockstep; accel/cuda/GPU.md). They
// live here rather than in accel/cuda because they run ppl's models and
// samplers, which sit above accel.

// TestWalkOnDevice runs RWMH's segments on the GPU (gb_rwmh through
// accel.Walk) and on the CPU with the same seed: the draws are the same
// where the device's exp and log round as Go's do, which is nearly
// everywhere; an acceptance decided within an ulp may differ, and the
// chain then goes its own way. At least 99% of the kept draws and of the
// chains' moments must agree to 1e-9.
func TestWalkOnDevice(t *testing.T) {
	b := device(t)
	cm := eightSchools(t)
	cfg := lockstep.Config{Sampler: infer.RWMH, Chains: 4099, Keep: 4, Warmup: 500, Draws: 500, Seed: 3}
	cpu, dev := onCPUAndDevice(t, cm, cfg, b)
	same, all := 0, 0
	for k, a := range cpu.Posterior.Chains {
		d := dev.Posterior.Chains[k]
		for j := range a.Values {
			for i, v := range a.Values[j] {
				all++
				if math.Abs(v-d.Values[j][i]) <= 1e-9*math.Max(1, math.Abs(v)) {
					same++
				}
			}
		}
	}
	mc, md := cpu.Moments, dev.Moments
	sameChains := 0
	for c := 0; c < cfg.Chains; c++ {
		ok := true
		for j := 0; j < mc.Dim; j++ {
			if math.Abs(mc.ChainMean(c, j)-md.ChainMean(c, j)) > 1e-9*math.Max(1, math.Abs(mc.ChainMean(c, j))) {
				ok = false
			}
		}
		if ok {
			sameChains++
		}
	}
	t.Logf("kept draws equal: %d of %d; chains with equal moments: %d of %d; mean of mu %.6f (CPU) %.6f (GPU)",
		same, all, sameChains, cfg.Chains, mc.Mean[0], md.Mean[0])
	if float64(same) < 0.99*float64(all) || float64(sameChains) < 0.99*float64(cfg.Chains) {
		t.Errorf("the GPU's walk differs from the CPU's beyond rounding")
	}
}

// TestIterateOnDevice runs ChEES with its iterations on the GPU
// (accel.Iterator: cgen.HMC over chees.cu) and on the CPU with the same
// seed. Over a short run the draws agree to rounding (the device's exp
// and log differ from Go's in the last bit, which dual averaging and the
// trajectories' step counts amplify over a long run); over a long run
// the moments of every chain's draws agree within a tenth of a posterior
// sd and the variances within 15%.
func TestIterateOnDevice(t *testing.T) {
	b := device(t)
	cm := eightSchools(t)
	short := lockstep.Config{Sampler: infer.ChEES, Chains: 4099, Keep: 4, Warmup: 40, Draws: 20, Seed: 3}
	long := lockstep.Config{Sampler: infer.ChEES, Chains: 4096, Keep: 4, Warmup: 500, Draws: 500, Seed: 4}
	for _, cfg := range []lockstep.Config{short, long} {
		cpu, dev := onCPUAndDevice(t, cm, cfg, b)
		worst := worstKept(cpu, dev)
		mc, md := cpu.Moments, dev.Moments
		t.Logf("%d+%d: kept draws differ by %.3g at most; mu %.4f ± %.4f (CPU), %.4f ± %.4f (GPU)", cfg.Warmup, cfg.Draws,
			worst, mc.Mean[0], math.Sqrt(mc.Var[0]), md.Mean[0], math.Sqrt(md.Var[0]))
		if cfg.Warmup == short.Warmup && worst > 1e-6 {
			t.Errorf("short run: the GPU's draws differ from the CPU's by %.3g", worst)
		}
		for j := range mc.Mean {
			sd := math.Sqrt(mc.Var[j])
			if math.Abs(mc.Mean[j]-md.Mean[j]) > 0.1*sd || md.Var[j] < 0.85*mc.Var[j] || md.Var[j] > 1.15*mc.Var[j] {
				t.Errorf("coordinate %d: mean %.4f, variance %.4f on the CPU; %.4f, %.4f on the GPU", j, mc.Mean[j], mc.Var[j], md.Mean[j], md.Var[j])
			}
		}
	}
}

// BenchmarkWalk times segments of random-walk Metropolis on the device
// (accel.Walk, one gb_rwmh launch per segment of 100 steps), in process:
// the rate the kernel sustains, without a worker's pipe. The mixture is
// bench/rwmh's and bench/gpu's (JAX's figure is for the same model).
//
//	go test -tags cuda -run '^$' -bench Walk ./accel/cuda
func BenchmarkWalk(b *testing.B) {
	gpu := device(b)
	mix, err := posteriordb.MixtureModel().Compile()
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		p      *ir.Program
		chains int
	}{
		{"mixture", mix.Program(), 1_000_000},
		{"eight_schools_noncentered", conformance.Program(b, "eight_schools-eight_schools_noncentered"), 100_000},
	} {
		c, err := gpu.Compile(tc.p)
		if err != nil {
			b.Fatal(err)
		}
		w := c.(accel.Walker)
		d := tc.p.Dim
		x := make([]float64, tc.chains*d)
		lp := make([]float64, tc.chains)
		lps := make([]float64, 1)
		if err := c.LogDensityGrad(make([]float64, d), lps, nil); err != nil {
			b.Fatal(err)
		}
		for i := range lp {
			lp[i] = lps[0]
		}
		scale := make([]float64, d)
		for j := range scale {
			scale[j] = 0.1
		}
		if err := w.Walk(&accel.Walk{Chains: tc.chains, Seed: 1, First: -1, Load: true, X: x, LP: lp}); err != nil {
			b.Fatal(err)
		}
		for _, moments := range []bool{false, true} {
			first := -1
			if moments {
				first = 0
			}
			b.Run(fmt.Sprintf("%s/chains=%d/moments=%v", tc.name, tc.chains, moments), func(b *testing.B) {
				step := 0
				for b.Loop() {
					wk := accel.Walk{Chains: tc.chains, Seed: 1, Step0: step, Steps: 100, Scale: scale, First: first}
					if err := w.Walk(&wk); err != nil {
						b.Fatal(err)
					}
					step += 100
				}
				b.ReportMetric(float64(tc.chains)*100*float64(b.N)/b.Elapsed().Seconds(), "draws/s")
			})
		}
		c.Close()
	}
}

// BenchmarkLogisticGradient times one log density and gradient of the
// logistic regression of bench/gpu (10⁵ rows, 50 predictors) for 4 and
// 128 chains on the GPU, with the kernel the backend chooses (the
// data-parallel one, one block per chain), and reports the bytes of data
// each call reads at the least (X once: N·D·8) over the time, beside the
// card's memory bandwidth.
//
//	go test -tags cuda -run '^$' -bench LogisticGradient ./accel/cuda
func BenchmarkLogisticGradient(b *testing.B) {
	gpu := device(b)
	const n, d = 100_000, 50
	m, err := posteriordb.Model(posteriordb.LogisticName, posteriordb.SimulatedLogistic(n, d, 1))
	if err != nil {
		b.Fatal(err)
	}
	cm, err := m.Compile()
	if err != nil {
		b.Fatal(err)
	}
	p := cm.Program()
	c, err := gpu.Compile(p)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	for _, chains := range []int{4, 128} {
		xs := conformance.Points(chains, p.Dim, 1)
		for i := range xs {
			xs[i] *= 0.01
		}
		lps, grads := make([]float64, chains), make([]float64, chains*p.Dim)
		b.Run(fmt.Sprintf("chains=%d", chains), func(b *testing.B) {
			for b.Loop() {
				if err := c.LogDensityGrad(xs, lps, grads); err != nil {
					b.Fatal(err)
				}
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(sec*1e6, "µs/call")
			b.ReportMetric(sec*1e6/float64(chains), "µs/grad")
			b.ReportMetric(float64(n*d*8)/sec/1e9, "GB/s-X-once")
		})
	}
}

// device is the first GPU, its context on this test's OS thread (locked
// until the test ends); no device skips the test.
func device(tb testing.TB) *cuda.Backend {
	runtime.LockOSThread()
	tb.Cleanup(runtime.UnlockOSThread)
	b, err := cuda.New(0)
	if err != nil {
		tb.Skipf("no CUDA device: %v", err)
	}
	return b
}
