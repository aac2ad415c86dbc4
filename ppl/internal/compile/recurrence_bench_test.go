package compile_test

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl/internal/compile"
)

// cpuTime is the CPU time the process has used (user + system): on a
// machine shared with other work it is steadier than the wall clock.
func cpuTime() time.Duration {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// BenchmarkScanRecurrence measures one log density with its gradient of
// the posteriordb models written with ppl.Scan, with scans rewritten as
// linear recurrences ("recurrence") and through the general scan path
// ("scan"), and reports the CPU time per gradient:
//
//	go test -run '^$' -bench ScanRecurrence -count 3 ./ppl/internal/compile/
func BenchmarkScanRecurrence(b *testing.B) {
	for _, name := range []string{"arma-arma11", "garch-garch11", "hmm_example-hmm_example"} {
		for _, general := range []bool{false, true} {
			path := "recurrence"
			if general {
				path = "scan"
			}
			b.Run(name+"/"+path, func(b *testing.B) {
				c := posteriordb.Require(b, name)
				m, err := posteriordb.Model(name, c)
				if err != nil {
					b.Fatal(err)
				}
				compile.SetScanGeneralOnly(general)
				cm, err := m.Compile()
				compile.SetScanGeneralOnly(false)
				if err != nil {
					b.Fatal(err)
				}
				d := cm.NewDensity()
				x := benchPoint(cm.Dim())
				g := make([]float64, len(x))
				b.ReportAllocs()
				t0 := cpuTime()
				for b.Loop() {
					d.LogDensityGrad(x, g)
				}
				b.ReportMetric(float64(cpuTime()-t0)/1e3/float64(b.N), "cpu-µs/grad")
			})
		}
	}
}

// benchPoint is the position the benchmarks evaluate (compiled layout),
// as in package ppl's benchmarks.
func benchPoint(dim int) []float64 {
	rng := rand.New(rand.NewPCG(3, 5))
	x := make([]float64, dim)
	for i := range x {
		x[i] = rng.Float64() - 0.5
	}
	return x
}
