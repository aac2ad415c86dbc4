package vec_test

import (
	"runtime"
	"syscall"
	"testing"

	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/accel/vec"
)

// BenchmarkMixtureForward is the log density of bench/rwmh's mixture for
// a block of chains; ns/chain is the cost of one chain's evaluation.
func BenchmarkMixtureForward(b *testing.B) {
	p := irtest.Fixture(b, "gauss_mix4")
	for _, n := range []int{64, 256, 1024} {
		b.Run("block"+itoa(n), func(b *testing.B) {
			bt := vec.New(p, n)
			for i, xs := 0, bt.X(); i < len(xs); i++ {
				xs[i] = float64(i%13) - 6
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ResetTimer()
			t0 := threadCPU()
			for i := 0; i < b.N; i++ {
				bt.Forward()
			}
			// CPU time of this thread: wall time means little on a
			// machine shared with other work.
			b.ReportMetric(float64(threadCPU()-t0)/float64(b.N*n), "cpu-ns/chain")
		})
	}
}

// threadCPU is the CPU time of the calling thread in nanoseconds.
func threadCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil { // RUSAGE_THREAD
		return 0
	}
	return (ru.Utime.Sec+ru.Stime.Sec)*1e9 + (ru.Utime.Usec+ru.Stime.Usec)*1e3
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}
