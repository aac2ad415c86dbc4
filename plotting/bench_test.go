package plotting

import (
	"syscall"
	"testing"
	"time"

	"github.com/gobayes/gobayes/plotting/internal/eightschools"
)

// BenchmarkPlots measures making and rendering every plot type for 4
// chains × 1000 draws of 10 variables (eight schools: mu, tau,
// theta[1..8]), as PNG and as SVG, and reports the encoded size.
//
//	go test -run '^$' -bench Plots -benchtime 5x ./plotting
func BenchmarkPlots(b *testing.B) {
	fit := eightschools.Synthetic(true, 4, 1000, 1)
	all := []any{"mu", "tau", "theta"}
	yrep := eightschools.Replicates(fit, 1000, 2)
	counts, countReps := eightschools.Counts(), eightschools.CountReplicates(1000, 3)
	elbo := eightschools.ELBOHistory(10000, 4)
	tau := fit.Chains[0].Values[1]
	plots := []struct {
		name string
		make func() *Figure
	}{
		{"Trace", func() *Figure { return Trace(fit, all...) }},
		{"Posterior", func() *Figure { return Posterior(fit, all...) }},
		{"Pair", func() *Figure { return Pair(fit, all...) }},
		{"Forest", func() *Figure { return Forest(fit, all...) }},
		{"Rank", func() *Figure { return Rank(fit, all...) }},
		{"Autocorr", func() *Figure { return Autocorr(fit, all...) }},
		{"Energy", func() *Figure { return Energy(fit) }},
		{"ESS", func() *Figure { return ESS(fit, all...) }},
		{"PPC", func() *Figure { return PPC(eightschools.Y, yrep) }},
		{"PPCCounts", func() *Figure { return PPC(counts, countReps) }},
		{"ELBO", func() *Figure { return ELBO(elbo) }},
		{"Dist", func() *Figure { return Dist(tau) }},
	}
	for _, p := range plots {
		for _, format := range []string{"png", "svg"} {
			b.Run(p.name+"/"+format, func(b *testing.B) {
				size := 0
				cpu0 := cpuTime()
				for b.Loop() {
					out, err := p.make().Render(format)
					if err != nil {
						b.Fatal(err)
					}
					size = len(out)
				}
				// The machine is shared: CPU time per figure is the
				// steadier number when other processes compete.
				b.ReportMetric((cpuTime()-cpu0).Seconds()*1000/float64(b.N), "cpu-ms/op")
				b.ReportMetric(float64(size), "bytes")
			})
		}
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
