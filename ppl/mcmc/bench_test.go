package mcmc

import "testing"

// BenchmarkNUTSStep measures one NUTS transition on a 100-dimensional
// standard normal (a cheap gradient, so the sampler's own cost shows);
// ns/leapfrog is the time per gradient evaluation, sampler included.
func BenchmarkNUTSStep(b *testing.B) {
	for _, dense := range []bool{false, true} {
		name := "diag"
		m := NewDiagMetric(100)
		if dense {
			name, m = "dense", NewDenseMetric(100)
		}
		b.Run(name, func(b *testing.B) {
			s := NewNUTS(stdNormal, m, newRNG(1))
			s.SetStepSize(0.3)
			st := NewState(100)
			if err := s.Init(st, make([]float64, 100)); err != nil {
				b.Fatal(err)
			}
			leapfrogs := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				leapfrogs += s.Step(st).NLeapfrog
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(leapfrogs), "ns/leapfrog")
		})
	}
}
