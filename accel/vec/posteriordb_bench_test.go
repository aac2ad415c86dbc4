package vec_test

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/accel/vec"
)

// BenchmarkPosteriordbGradient is the cost of one chain's log density
// and gradient for each posteriordb model (irtest's fixtures), lockstep
// for 256 chains against the single-chain ir plan (a planned ir.Frame) of
// the same model, interleaved in each iteration so that both see the
// same load on a shared machine. Metrics are CPU time
// of the benchmark's thread: vec-ns/chain, ir-ns/chain and their ratio
// ir/vec (above 1: lockstep is faster per chain).
func BenchmarkPosteriordbGradient(b *testing.B) {
	const chains = 256
	for _, m := range irtest.Fixtures(b, irtest.Posteriordb) {
		p := m.Program
		b.Run(m.Name, func(b *testing.B) {
			d := p.Dim
			rng := rand.New(rand.NewPCG(1, 2))
			xs := make([]float64, chains*d)
			for i := range xs {
				xs[i] = 2*rng.Float64() - 1
			}
			bt := vec.New(p, chains)
			lps, grads := make([]float64, chains), make([]float64, chains*d)
			f := ir.NewFrame(p)
			g := make([]float64, d)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ResetTimer()
			var tVec, tIR int64
			for i := 0; i < b.N; i++ {
				t0 := threadCPU()
				bt.LogDensityGrad(xs, lps, grads)
				t1 := threadCPU()
				for c := 0; c < chains; c++ {
					f.Gradient(xs[c*d:(c+1)*d], g)
				}
				tIR += threadCPU() - t1
				tVec += t1 - t0
			}
			n := float64(b.N * chains)
			b.ReportMetric(float64(tVec)/n, "vec-ns/chain")
			b.ReportMetric(float64(tIR)/n, "ir-ns/chain")
			if tVec > 0 {
				b.ReportMetric(float64(tIR)/float64(tVec), "ir/vec")
			}
		})
	}
}
