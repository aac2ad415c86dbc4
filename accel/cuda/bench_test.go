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
