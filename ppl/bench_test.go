package ppl_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/internal/pairbench"
	"github.com/gobayes/gobayes/internal/posteriordb"
)

// benchModels are the models of the speed comparison (issue 3, Measure):
// each runs compiled (ppl) and hand-written (plain Go) in the same run.
// Print the ratio table with
//
//	go test -run '^$' -bench 'Models|ModelRatio' -count 3 ./ppl/ | go run ./bench/ratio
var benchModels = []struct{ bench, name string }{
	{"eight_schools_noncentered", "eight_schools-eight_schools_noncentered"},
	{"sblrc_blr", "sblrc-blr"},
	{"kidscore_interaction", "kidiq-kidscore_interaction"},
	{"gp_pois_regr", "gp_pois_regr-gp_pois_regr"},
	{"hmm_example", "hmm_example-hmm_example"},
	{"logistic_N10000_D50", posteriordb.LogisticName},
}

// benchPoint is the position the benchmarks evaluate (compiled layout).
func benchPoint(dim int) []float64 {
	rng := rand.New(rand.NewPCG(3, 5))
	x := make([]float64, dim)
	for i := range x {
		x[i] = rng.Float64() - 0.5
	}
	return x
}

// BenchmarkModels measures one log density with its gradient. The
// compiled evaluations must report 0 allocs/op.
func BenchmarkModels(b *testing.B) {
	for _, bm := range benchModels {
		b.Run(bm.bench, func(b *testing.B) {
			p := pair(b, loadCase(b, bm.name, 10000, 50))
			x := benchPoint(p.compiled.Dim())
			g := make([]float64, len(x))
			b.Run("compiled", func(b *testing.B) {
				d := p.compiled.NewDensity()
				b.ReportAllocs()
				for b.Loop() {
					d.LogDensityGrad(x, g)
				}
			})
			b.Run("handwritten", func(b *testing.B) {
				f := p.hand.LogDensityGrad
				if f == nil {
					b.Skip("no hand-written gradient")
				}
				h := p.handPoint(x)
				b.ReportAllocs()
				for b.Loop() {
					f(h, g)
				}
			})
		})
	}
}

// BenchmarkModelRatio runs the compiled and the hand-written evaluation
// alternately, in chunks of about 100 µs each, and reports the median of
// the chunks' time ratios (compiled/hand-written): on a machine shared
// with other work, a paired ratio is steadier than two separate
// benchmarks. Its ns/op is the time of one pair of chunks; the metrics
// compiled-ns/op and handwritten-ns/op are per evaluation.
func BenchmarkModelRatio(b *testing.B) {
	for _, bm := range benchModels {
		b.Run(bm.bench, func(b *testing.B) {
			p := pair(b, loadCase(b, bm.name, 10000, 50))
			x := benchPoint(p.compiled.Dim())
			h := p.handPoint(x)
			g := make([]float64, len(x))
			d := p.compiled.NewDensity()
			hand := p.hand.LogDensityGrad
			if hand == nil {
				b.Skip("no hand-written gradient")
			}
			pairbench.Run(b, func() { hand(h, g) }, func() { d.LogDensityGrad(x, g) }, "handwritten-ns/op", "compiled-ns/op")
		})
	}
}
