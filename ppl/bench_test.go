package ppl_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/internal/posteriordb"
)

// benchModels are the models of the speed comparison (issue 3, Measure):
// each runs compiled (ppl) and hand-written (plain Go) in the same run.
// Print the ratio table with
//
//	go test -run '^$' -bench Models ./ppl/ | go run ./internal/posteriordb/benchratio
var benchModels = []struct{ bench, name string }{
	{"eight_schools_noncentered", "eight_schools-eight_schools_noncentered"},
	{"sblrc_blr", "sblrc-blr"},
	{"kidscore_interaction", "kidiq-kidscore_interaction"},
	{"gp_pois_regr", "gp_pois_regr-gp_pois_regr"},
	{"hmm_example", "hmm_example-hmm_example"},
	{"logistic_N10000_D50", posteriordb.LogisticName},
}

// BenchmarkModels measures one log density with its gradient. The
// compiled evaluations must report 0 allocs/op.
func BenchmarkModels(b *testing.B) {
	for _, bm := range benchModels {
		b.Run(bm.bench, func(b *testing.B) {
			p := pair(b, loadCase(b, bm.name, 10000, 50))
			rng := rand.New(rand.NewPCG(3, 5))
			x := make([]float64, p.compiled.Dim())
			for i := range x {
				x[i] = rng.Float64() - 0.5
			}
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
