//go:build unix

package ppl_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl"
)

// BenchmarkShardedLogisticGradient measures the gradient of a simulated
// logistic regression with N = 100,000 observations and D = 50 predictors
// (posteriordb.SimulatedLogistic) whole (workers=1, Shards(1)) and split
// in 2 shards (workers=2). Besides wall time per gradient it reports the
// process's CPU time per gradient (cpu-ns/op) and their ratio
// (parallelism): on a machine shared with other jobs the wall-time
// speed-up understates what the shards achieve, and CPU time shows whether
// the second worker adds work (overhead) or only splits it.
//
//	go test ./ppl -run '^$' -bench ShardedLogistic -benchtime 200x
func BenchmarkShardedLogisticGradient(b *testing.B) {
	const n, d = 100_000, 50
	c := posteriordb.SimulatedLogistic(n, d, 1)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			m := ppl.NewModel("logistic_regression", ppl.Shards(workers))
			beta := m.Normal("beta", 0, 1, ppl.Size(d))
			m.BernoulliLogit("y", ppl.MatVec(c.Data["X"], beta)).Observe(c.Data["y"])
			comp, err := m.Compile()
			if err != nil {
				b.Fatal(err)
			}
			if got := comp.ShardPlan().Shards; workers > 1 && got != workers {
				b.Fatalf("%d shards, want %d", got, workers)
			}
			dens := comp.NewDensity()
			x := make([]float64, d)
			for i := range x {
				x[i] = 0.1 * float64(i%7-3)
			}
			g := make([]float64, d)
			dens.LogDensityGrad(x, g)
			b.ReportAllocs()
			cpu0 := processCPU()
			b.ResetTimer()
			start := time.Now()
			for b.Loop() {
				dens.LogDensityGrad(x, g)
			}
			wall := time.Since(start)
			cpu := processCPU() - cpu0
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(cpu)/float64(wall), "parallelism")
		})
	}
}

// processCPU is the CPU time (user and system) the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
