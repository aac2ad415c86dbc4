package posteriordb

import (
	"math"

	"github.com/gobayes/gobayes/ppl"
)

// The four-component normal mixture of the many-chain random-walk
// benchmarks (bench/rwmh, bench/gpu): locations, scales and weights.
var (
	MixLoc    = []float64{-2, 0, 3.2, 2.5}
	MixScale  = []float64{1.2, 1, 5, 2.8}
	MixWeight = []float64{0.2, 0.3, 0.1, 0.4}
)

// MixtureModel is that mixture as a ppl model: a flat x with the
// mixture's log density as an explicit term, log Σ_k w_k N(x | μ_k, σ_k).
func MixtureModel() *ppl.Model {
	logW := make([]float64, len(MixWeight))
	for i, w := range MixWeight {
		logW[i] = math.Log(w)
	}
	m := ppl.NewModel("gauss_mix4")
	x := m.Flat("x")
	m.LogDensity("mixture", ppl.LogSumExp(ppl.Add(ppl.LogPDF("Normal", x, MixLoc, MixScale), logW)))
	return m
}
