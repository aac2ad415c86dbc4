package handwritten

import (
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/internal/posteriordb"
)

// BenchmarkGradient times the analytic gradients alone; ppl's
// BenchmarkModels sets them against the compiled models.
func BenchmarkGradient(b *testing.B) {
	for _, name := range allCases() {
		var c *posteriordb.Case
		if name == posteriordb.LogisticName {
			c = posteriordb.SimulatedLogistic(10000, 50, 1)
		} else {
			c = posteriordb.Require(b, name)
		}
		m, err := New(c)
		if err != nil {
			b.Fatal(err)
		}
		if m.LogDensityGrad == nil {
			continue
		}
		b.Run(name, func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			x := randomPoint(rng, m.Dim)
			g := make([]float64, m.Dim)
			b.ReportAllocs()
			for b.Loop() {
				m.LogDensityGrad(x, g)
			}
		})
	}
}
