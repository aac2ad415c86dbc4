package cgen_test

import (
	"os/exec"
	"testing"

	"github.com/gobayes/gobayes/accel/conformance"
	"github.com/gobayes/gobayes/accel/cuda/cgen"
	"github.com/gobayes/gobayes/accel/ir"
)

// BenchmarkGCC measures the generated one-thread-per-chain code compiled
// by gcc -O2 (one core, pipe copies included) against the ir.Frame loop:
// ns/pos is the time per position, log density and gradient.
//
//	go test -run '^$' -bench GCC ./accel/cuda/cgen
func BenchmarkGCC(b *testing.B) {
	if _, err := exec.LookPath("gcc"); err != nil {
		b.Skip("no gcc")
	}
	for _, name := range []string{"eight_schools-eight_schools_noncentered", "sblrc-blr", "earnings-logearn_interaction", "garch-garch11"} {
		p := conformance.Program(b, name)
		const bsz = 1024
		xs := conformance.Points(bsz, p.Dim, 1)
		lps, grads := make([]float64, bsz), make([]float64, bsz*p.Dim)
		b.Run(name+"/frame", func(b *testing.B) {
			f := ir.NewFrame(p)
			d := p.Dim
			for b.Loop() {
				for i := range bsz {
					lps[i] = f.Gradient(xs[i*d:(i+1)*d], grads[i*d:(i+1)*d])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*bsz), "ns/pos")
		})
		b.Run(name+"/gcc", func(b *testing.B) {
			c, err := cgen.NewGCC().Compile(p)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			for b.Loop() {
				if err := c.LogDensityGrad(xs, lps, grads); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*bsz), "ns/pos")
		})
	}
}
