package ir

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// neg_binomial_2_lpmf(y, mu, phi) (Stan's neg_binomial_2: mean μ,
// variance μ + μ²/φ) = lgamma(y+φ) - lgamma(y+1) - lgamma(φ)
// + y log(μ/(μ+φ)) + φ log(φ/(μ+φ)) for counts y, μ > 0, φ > 0.
// Partials: ∂μ = y/μ - (y+φ)/(μ+φ) = φ(y-μ)/(μ(μ+φ)),
// ∂φ = ψ(y+φ) - ψ(φ) - log1p(μ/φ) + (μ-y)/(μ+φ).
// y is data; lgamma(y+1) is cached when it is a constant.
func init() {
	register(OpNegBinomialLPMF, OpDef{Name: "neg_binomial_2_lpmf", Arity: 3, Shape: lpdfShape,
		Forward: negBinomialForward, Backward: negBinomialBackward, Scratch: lpdfScratch(1, false)})
}

func negBinomialForward(f *Frame, in *Instr) {
	y, mu, ph := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, mu, ph)
	ys, ms, ps := stride(y), stride(mu), stride(ph)
	out, pw := f.Val(in.Out), isPointwise(in)
	flag, cache, _ := lpdfScratchParts(f, in, 1)
	lg, _ := countLgamma(flag, cache, y)
	pp, lgp := math.NaN(), 0.0
	t := 0.0
	for i := 0; i < n; i++ {
		yi, m, p := y[i*ys], mu[i*ms], ph[i*ps]
		e := negInf
		if isCount(yi) && m > 0 && p > 0 && !math.IsInf(m, 1) && !math.IsInf(p, 1) {
			if p != pp {
				pp, lgp = p, lgamma(p)
			}
			if lg != nil {
				e = -lg[i*ys]
			} else {
				e = -lgamma(yi + 1)
			}
			e += lgamma(yi+p) - lgp - p*math.Log1p(m/p)
			if yi > 0 {
				e += yi * (math.Log(m) - math.Log(m+p))
			}
		}
		if e != e { // NaN from infinite inputs
			e = negInf
		}
		if pw {
			out[i] = e
		}
		t += e
	}
	if !pw {
		out[0] = t
	}
}

func negBinomialBackward(f *Frame, in *Instr) {
	y, mu, ph := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, mu, ph)
	ys, ms, ps := stride(y), stride(mu), stride(ph)
	g, gs := f.AdjOf(in.Out), outStride(in)
	am, amVec := gradOf(f, in.In[1])
	ap, apVec := gradOf(f, in.In[2])
	var amSum, apSum float64
	pp, dgp := math.NaN(), 0.0
	for i := 0; i < n; i++ {
		yi, m, p := y[i*ys], mu[i*ms], ph[i*ps]
		if !isCount(yi) || !(m > 0) || !(p > 0) || math.IsInf(m, 1) || math.IsInf(p, 1) {
			continue
		}
		gi := g[i*gs]
		r := 1 / (m + p)
		// y/μ - (y+φ)/(μ+φ), written without the difference of two
		// large terms.
		amSum = acc(am, amVec, i, gi*p*r*(yi-m)/m, amSum)
		if ap != nil {
			if p != pp {
				pp, dgp = p, mathext.Digamma(p)
			}
			apSum = acc(ap, apVec, i, gi*(mathext.Digamma(yi+p)-dgp-math.Log1p(m/p)+(m-yi)*r), apSum)
		}
	}
	flushAcc(am, amVec, amSum)
	flushAcc(ap, apVec, apSum)
}
