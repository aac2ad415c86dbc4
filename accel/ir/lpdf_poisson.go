package ir

import "math"

// poisson_log_lpmf(y, eta) = yη - exp(η) - lgamma(y+1), λ = exp(η);
// ∂η = y - exp(η). Forward leaves exp(η) in scratch for Backward.
//
// y is data (no gradient); when it is a constant, lgamma(y+1) is computed
// once per frame (see lpdfScratch).
func init() {
	register(OpPoissonLogLPMF, OpDef{Name: "poisson_log_lpmf", Arity: 2, Shape: lpdfShape,
		Forward: poissonLogForward, Backward: poissonLogBackward, Scratch: lpdfScratch(1, true)})
}

// countLgamma returns the cached lgamma(y+1) per element (nil when y is
// not a constant) and whether every y is a count, so that loops over
// constant data skip the check. flag[0] is 1 once filled with valid data,
// 2 once filled with some invalid.
func countLgamma(flag, cache, y []float64) (lg []float64, allValid bool) {
	if cache == nil {
		return nil, false
	}
	if flag[0] == 0 {
		flag[0] = 1
		for i := range cache {
			if isCount(y[i]) {
				cache[i] = lgamma(y[i] + 1)
			} else {
				flag[0] = 2
			}
		}
	}
	return cache, flag[0] == 1
}

func poissonLogForward(f *Frame, in *Instr) {
	y, eta := f.Val(in.In[0]), f.Val(in.In[1])
	n := batchLen(y, eta)
	ys, es := stride(y), stride(eta)
	out, pw := f.Val(in.Out), Pointwise(in)
	flag, cache, ex := lpdfScratchParts(f, in, 1)
	lg, valid := countLgamma(flag, cache, y)
	if valid && !pw && len(y) == n && len(eta) == n {
		// Observed counts, one log rate each (Poisson regression).
		y, eta, lg, ex := y[:n], eta[:n], lg[:n], ex[:n]
		t := 0.0
		for i, x := range eta {
			l := Exp(x)
			ex[i] = l
			t += y[i]*x - l - lg[i]
		}
		if t == t && !math.IsInf(t, 1) {
			out[0] = t
			return
		}
		// A non-finite log rate: take the careful loop below.
	}
	t := 0.0
	for i := 0; i < n; i++ {
		yi, x := y[i*ys], eta[i*es]
		l := Exp(x)
		ex[i] = l
		e := negInf
		// x ≤ MaxFloat64 rejects NaN and +Inf.
		if (valid || isCount(yi)) && x <= math.MaxFloat64 {
			if lg != nil {
				e = -lg[i*ys]
			} else {
				e = -lgamma(yi + 1)
			}
			e -= l
			if yi > 0 {
				e += yi * x
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

func poissonLogBackward(f *Frame, in *Instr) {
	y, eta := f.Val(in.In[0]), f.Val(in.In[1])
	n := batchLen(y, eta)
	ys, es := stride(y), stride(eta)
	g, gs := f.AdjOf(in.Out), outStride(in)
	ae, aeVec := gradOf(f, in.In[1])
	var aeSum float64
	if ae == nil {
		return
	}
	flag, _, ex := lpdfScratchParts(f, in, 1)
	valid := flag[0] == 1
	for i := 0; i < n; i++ {
		yi, x := y[i*ys], eta[i*es]
		// An overflowed rate made the term -Inf: no gradient.
		if !(valid || isCount(yi)) || !(x <= math.MaxFloat64) || math.IsInf(ex[i], 1) {
			continue
		}
		aeSum = acc(ae, aeVec, i, g[i*gs]*(yi-ex[i]), aeSum)
	}
	flushAcc(ae, aeVec, aeSum)
}
