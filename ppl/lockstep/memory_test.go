package lockstep_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
)

// BenchmarkRWMHMemory runs 10^6 chains of RWMH on a one-dimensional
// normal for 20 steps and reports the heap in use at the end and the
// most the Go runtime obtained from the system (a bound on the peak).
func BenchmarkRWMHMemory(b *testing.B) {
	m := ppl.NewModel("one")
	m.Normal("x", 0, 1)
	c, err := m.Compile()
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		res, err := lockstep.Run(context.Background(), c, lockstep.Config{Sampler: infer.RWMH, Chains: 1_000_000, NoWarmup: true, Draws: 20, Scale: 1})
		if err != nil {
			b.Fatal(err)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapInuse)/1e6, "heap-MB")
		b.ReportMetric(float64(ms.Sys)/1e6, "sys-MB")
		b.ReportMetric(float64(res.StateBytes)/1e6, "state-MB")
	}
}
