package eightschools

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/ppl/posterior"
)

// Y and Sigma are the eight schools' estimated effects and standard errors.
var (
	Y     = []float64{28, 8, -3, 7, -1, 1, 18, 12}
	Sigma = []float64{15, 10, 16, 11, 9, 11, 10, 18}
)

// tauGrid is the marginal posterior of tau on a grid (BDA3 eq. 5.21 with
// a half-Cauchy(5) prior): p(tau|y) ∝ p(tau) V_mu^½ Π (σj²+τ²)^-½
// exp(-(yj-μ̂)²/(2(σj²+τ²))).
func tauGrid() (taus, cdf []float64) {
	const n, top = 4000, 60.0
	taus = make([]float64, n)
	cdf = make([]float64, n)
	sum := 0.0
	for i := range taus {
		tau := top * (float64(i) + 0.5) / n
		muHat, vMu := muPost(tau)
		lp := math.Log(1/(1+tau*tau/25)) + 0.5*math.Log(vMu)
		for j := range Y {
			v := Sigma[j]*Sigma[j] + tau*tau
			lp += -0.5*math.Log(v) - (Y[j]-muHat)*(Y[j]-muHat)/(2*v)
		}
		sum += math.Exp(lp)
		taus[i], cdf[i] = tau, sum
	}
	for i := range cdf {
		cdf[i] /= sum
	}
	return taus, cdf
}

// muPost is the mean and variance of mu given tau and y.
func muPost(tau float64) (mean, variance float64) {
	num, den := 0.0, 0.0
	for j := range Y {
		w := 1 / (Sigma[j]*Sigma[j] + tau*tau)
		num += w * Y[j]
		den += w
	}
	return num / den, 1 / den
}

// Synthetic returns chains × draws synthetic draws of mu, tau and
// theta[1..8] (see the package documentation), with a sampler energy
// statistic and, for the centred version, divergences.
func Synthetic(centred bool, chains, draws int, seed uint64) *posterior.Posterior {
	taus, cdf := tauGrid()
	model := "eight_schools_noncentered"
	if centred {
		model = "eight_schools_centered"
	}
	p := &posterior.Posterior{
		Model:   model,
		Vars:    []posterior.Var{{Name: "mu", Start: 0}, {Name: "tau", Start: 1}, {Name: "theta", Shape: []int{8}, Start: 2}},
		Columns: []string{"mu", "tau"},
		Sampler: "synthetic",
	}
	for j := range Y {
		p.Columns = append(p.Columns, fmt.Sprintf("theta[%d]", j))
	}
	// phi is the lag-one autocorrelation of the latent series; the centred
	// sampler mixes tau slowly and cannot enter the funnel's neck (u > 0.08).
	phiTau, phi, floor := 0.3, 0.2, 0.0
	if centred {
		phiTau, phi, floor = 0.97, 0.6, 0.08
	}
	for c := 0; c < chains; c++ {
		src := rand.New(rand.NewPCG(seed, uint64(c)+1))
		ch := posterior.Chain{Values: make([][]float64, len(p.Columns))}
		for k := range ch.Values {
			ch.Values[k] = make([]float64, draws)
		}
		ch.Stats.Divergent = make([]bool, draws)
		ch.Stats.Energy = make([]float64, draws)
		ch.Stats.AcceptStat = make([]float64, draws)
		zt, zm := src.NormFloat64(), src.NormFloat64()
		zth := make([]float64, len(Y))
		for j := range zth {
			zth[j] = src.NormFloat64()
		}
		energy := 0.0
		for i := 0; i < draws; i++ {
			zt = phiTau*zt + math.Sqrt(1-phiTau*phiTau)*src.NormFloat64()
			zm = phi*zm + math.Sqrt(1-phi*phi)*src.NormFloat64()
			u := floor + (1-floor)*distuv.UnitNormal.CDF(zt)
			tau := invCDF(taus, cdf, u)
			muHat, vMu := muPost(tau)
			mu := muHat + math.Sqrt(vMu)*zm
			ch.Values[0][i], ch.Values[1][i] = mu, tau
			for j := range Y {
				zth[j] = phi*zth[j] + math.Sqrt(1-phi*phi)*src.NormFloat64()
				prec := 1/(Sigma[j]*Sigma[j]) + 1/(tau*tau)
				mean := (Y[j]/(Sigma[j]*Sigma[j]) + mu/(tau*tau)) / prec
				ch.Values[2+j][i] = mean + zth[j]/math.Sqrt(prec)
			}
			// Energy: a chi-square-like marginal, correlated more
			// strongly along a centred chain (low E-BFMI).
			rho := 0.3
			if centred {
				rho = 0.85
			}
			energy = rho*energy + math.Sqrt(1-rho*rho)*src.NormFloat64()
			ch.Stats.Energy[i] = 30 + 3*energy
			ch.Stats.AcceptStat[i] = 0.8 + 0.2*src.Float64()
			if centred && tau < 1.2 && src.Float64() < 0.12 {
				ch.Stats.Divergent[i] = true
				ch.Stats.AcceptStat[i] = 0.1 * src.Float64()
			}
		}
		p.Chains = append(p.Chains, ch)
	}
	return p
}

// invCDF inverts a tabulated CDF by linear interpolation.
func invCDF(x, cdf []float64, u float64) float64 {
	lo, hi := 0, len(cdf)-1
	if u <= cdf[0] {
		return x[0] * u / cdf[0]
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if cdf[mid] < u {
			lo = mid
		} else {
			hi = mid
		}
	}
	t := (u - cdf[lo]) / (cdf[hi] - cdf[lo])
	return x[lo] + t*(x[hi]-x[lo])
}
