package main

import (
	"math"

	"github.com/gobayes/gobayes/ppl"
)

// The mixture of the issue: locations, scales and weights.
var (
	mixLoc    = []float64{-2, 0, 3.2, 2.5}
	mixScale  = []float64{1.2, 1, 5, 2.8}
	mixWeight = []float64{0.2, 0.3, 0.1, 0.4}
)

// mixtureModel is the mixture as a ppl model: a flat x with the mixture's
// log density as an explicit term, log Σ_k w_k N(x | μ_k, σ_k).
func mixtureModel() *ppl.Model {
	logW := make([]float64, len(mixWeight))
	for i, w := range mixWeight {
		logW[i] = math.Log(w)
	}
	m := ppl.NewModel("gauss_mix4")
	x := m.Flat("x")
	m.LogDensity("mixture", ppl.LogSumExp(ppl.Add(ppl.LogPDF("Normal", x, mixLoc, mixScale), logW)))
	return m
}

// mixtureDensity is the same density written out, for the scalar loop:
// Σ_k w_k/(σ_k√(2π)) exp(-½((x-μ_k)/σ_k)²), not its logarithm (the
// acceptance test compares u·p(x) < p(x'), no logarithm needed).
type mixtureDensity struct {
	coef, loc, halfPrec [4]float64
}

func newMixtureDensity() mixtureDensity {
	var d mixtureDensity
	for k := range mixWeight {
		d.coef[k] = mixWeight[k] / (mixScale[k] * math.Sqrt(2*math.Pi))
		d.loc[k] = mixLoc[k]
		d.halfPrec[k] = 0.5 / (mixScale[k] * mixScale[k])
	}
	return d
}

func (d *mixtureDensity) at(x float64) float64 {
	p := 0.0
	for k := 0; k < 4; k++ {
		u := x - d.loc[k]
		p += d.coef[k] * math.Exp(-d.halfPrec[k]*u*u)
	}
	return p
}
