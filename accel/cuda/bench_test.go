//go:build cuda

package cuda_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/conformance"
	"github.com/gobayes/gobayes/accel/cpu"
	"github.com/gobayes/gobayes/accel/cuda"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/internal/posteriordb"
)

// BenchmarkCrossover times a batch of log densities and gradients on the
// GPU and on accel/cpu for growing batches: where ns/pos of cuda drops
// below cpu is the crossover that accel.GPUMinChains and GPUMinWork
// should hold (and DataParallelMaxChains/MinFrame for the data-parallel
// kernel, with -bench Crossover/.*earnings).
//
//	make cuda && go test -tags cuda -run '^$' -bench Crossover ./accel/cuda
func BenchmarkCrossover(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	gpu, err := cuda.New(0)
	if err != nil {
		b.Skipf("no CUDA device: %v", err)
	}
	for _, name := range []string{"eight_schools-eight_schools_noncentered", "earnings-logearn_interaction", "gp_pois_regr-gp_pois_regr"} {
		p := conformance.Program(b, name)
		for _, bk := range []accel.Backend{cpu.New(0), gpu} {
			c, err := bk.Compile(p)
			if err != nil {
				b.Fatal(err)
			}
			for _, n := range []int{4, 64, 1024, 16384, 65536} {
				xs := conformance.Points(n, p.Dim, 1)
				lps, grads := make([]float64, n), make([]float64, n*p.Dim)
				b.Run(fmt.Sprintf("%s/B=%d/%s", name, n, bk.Name()), func(b *testing.B) {
					for b.Loop() {
						if err := c.LogDensityGrad(xs, lps, grads); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/pos")
				})
			}
			c.Close()
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
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	gpu, err := cuda.New(0)
	if err != nil {
		b.Skipf("no CUDA device: %v", err)
	}
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

// BenchmarkIterate times lockstep HMC iterations on the device (one
// accel.HMCIteration per op: 5 leapfrog steps per chain and the warm-up's
// cross-chain sums), in process, on eight schools.
//
//	go test -tags cuda -run '^$' -bench Iterate ./accel/cuda
func BenchmarkIterate(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	gpu, err := cuda.New(0)
	if err != nil {
		b.Skipf("no CUDA device: %v", err)
	}
	p := conformance.Program(b, "eight_schools-eight_schools_noncentered")
	c, err := gpu.Compile(p)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	it := c.(accel.Iterator)
	d := p.Dim
	ones := make([]float64, d)
	for j := range ones {
		ones[j] = 1
	}
	for _, n := range []int{1024, 16384, 131072} {
		x, g, lp := make([]float64, n*d), make([]float64, n*d), make([]float64, n)
		lps, gr := make([]float64, 1), make([]float64, d)
		if err := c.LogDensityGrad(make([]float64, d), lps, gr); err != nil {
			b.Fatal(err)
		}
		for i := range lp {
			lp[i] = lps[0]
			for j := 0; j < d; j++ {
				g[j*n+i] = gr[j]
			}
		}
		b.Run(fmt.Sprintf("chains=%d", n), func(b *testing.B) {
			s, load := 0, true
			for b.Loop() {
				h := accel.HMCIteration{Chains: n, Seed: 1, Step: s, Steps: 5, Eps: 0.2, InvMetric: ones, SqrtInvMetric: ones,
					Warm: true, Load: load, X: x, Grad: g, LP: lp}
				if err := it.Iterate(&h); err != nil {
					b.Fatal(err)
				}
				s++
				load = false
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/iter")
			b.ReportMetric(float64(n)*5*float64(b.N)/b.Elapsed().Seconds(), "grads/s")
		})
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
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	gpu, err := cuda.New(0)
	if err != nil {
		b.Skipf("no CUDA device: %v", err)
	}
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
