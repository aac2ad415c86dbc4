package cpu_test

import (
	"fmt"
	"testing"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/conformance"
	"github.com/gobayes/gobayes/accel/cpu"
	"github.com/gobayes/gobayes/accel/ir"
)

// benchModels are small, medium-data and recurrent posteriordb models.
var benchModels = []string{
	"eight_schools-eight_schools_noncentered",
	"sblrc-blr",
	"earnings-logearn_interaction",
	"garch-garch11",
}

// BenchmarkBatch compares accel/cpu on a batch of B positions with the
// loop over one reference ir.Frame; ns/pos is the time per position.
//
//	go test -run '^$' -bench Batch ./accel/cpu
func BenchmarkBatch(b *testing.B) {
	for _, name := range benchModels {
		p := conformance.Program(b, name)
		for _, bsz := range []int{1, 64, 4096} {
			xs := conformance.Points(bsz, p.Dim, 1)
			lps := make([]float64, bsz)
			grads := make([]float64, bsz*p.Dim)
			b.Run(fmt.Sprintf("%s/B=%d/frame", name, bsz), func(b *testing.B) {
				f := ir.NewFrame(p)
				d := p.Dim
				for b.Loop() {
					for i := range bsz {
						lps[i] = f.Gradient(xs[i*d:(i+1)*d], grads[i*d:(i+1)*d])
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*bsz), "ns/pos")
			})
			b.Run(fmt.Sprintf("%s/B=%d/cpu", name, bsz), func(b *testing.B) {
				c, err := cpu.New(0).Compile(p)
				if err != nil {
					b.Fatal(err)
				}
				defer c.Close()
				b.ReportAllocs()
				for b.Loop() {
					if err := c.LogDensityGrad(xs, lps, grads); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*bsz), "ns/pos")
			})
		}
	}
}

// BenchmarkLeapfrog runs 10-step trajectories of 1024 chains, the call a
// lockstep HMC sampler makes per iteration; ns/grad is the time per
// gradient.
//
//	go test -run '^$' -bench Leapfrog ./accel/cpu
func BenchmarkLeapfrog(b *testing.B) {
	for _, name := range benchModels[:2] {
		p := conformance.Program(b, name)
		const chains, steps = 1024, 10
		d := p.Dim
		c, err := cpu.New(0).Compile(p)
		if err != nil {
			b.Fatal(err)
		}
		q := conformance.Points(chains, d, 2)
		tr := &accel.Trajectories{Q: q, P: make([]float64, chains*d), Grad: make([]float64, chains*d),
			LogDensity: make([]float64, chains), StepSize: make([]float64, chains), InvMetric: make([]float64, d),
			N: steps, Steps: make([]int, chains)}
		for i := range tr.StepSize {
			tr.StepSize[i] = 1e-3
		}
		for i := range tr.InvMetric {
			tr.InvMetric[i] = 1
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := c.LogDensityGrad(tr.Q, tr.LogDensity, tr.Grad); err != nil {
					b.Fatal(err)
				}
				if err := c.Leapfrog(tr); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chains*(steps+1)), "ns/grad")
		})
		c.Close()
	}
}
