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
