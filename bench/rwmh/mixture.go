package main

import (
	"math"

	"github.com/gobayes/gobayes/internal/posteriordb"
)

var (
	mixLoc, mixScale, mixWeight = posteriordb.MixLoc, posteriordb.MixScale, posteriordb.MixWeight
	mixtureModel                = posteriordb.MixtureModel
)

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
