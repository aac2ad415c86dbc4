package ir

import "math"

// binomial_lpmf(y, n, p) = log C(n, y) + y log p + (n-y) log(1-p) for
// counts 0 ≤ y ≤ n and 0 ≤ p ≤ 1; ∂p = y/p - (n-y)/(1-p).
//
// binomial_logit_lpmf(y, n, theta) = log C(n, y) + y log logistic(θ)
// + (n-y) log logistic(-θ); ∂θ = y - n·logistic(θ).
//
// y and n are data (no gradient). When both are constants, log C(n, y) is
// computed once per frame (see lpdfScratch).
func init() {
	register(OpBinomialLPMF, OpDef{Name: "binomial_lpmf", Arity: 3, Shape: lpdfShape,
		Forward: binomialForward, Backward: binomialBackward, Scratch: lpdfScratch(2, false)})
	register(OpBinomialLogitLPMF, OpDef{Name: "binomial_logit_lpmf", Arity: 3, Shape: lpdfShape,
		Forward: binomialLogitForward, Backward: binomialLogitBackward, Scratch: lpdfScratch(2, false)})
}

func validBinomial(y, n float64) bool { return isCount(y) && isCount(n) && y <= n }

// binomialChoose returns the cached log C(n, y) per element (nil when the
// data are not constants).
func binomialChoose(f *Frame, in *Instr, y, nn []float64) []float64 {
	flag, cache, _ := lpdfScratchParts(f, in, 2)
	if cache != nil && flag[0] == 0 {
		ys, ns := stride(y), stride(nn)
		for i := range cache {
			if yi, ni := y[i*ys], nn[i*ns]; validBinomial(yi, ni) {
				cache[i] = lchoose(ni, yi)
			}
		}
		flag[0] = 1
	}
	return cache
}

func binomialForward(f *Frame, in *Instr) {
	y, nn, pr := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, nn, pr)
	ys, ns, ps := stride(y), stride(nn), stride(pr)
	out, pw := f.Val(in.Out), isPointwise(in)
	lc := binomialChoose(f, in, y, nn)
	cs := stride(lc)
	pp, lp, l1p := math.NaN(), 0.0, 0.0
	t := 0.0
	for i := 0; i < n; i++ {
		yi, ni, p := y[i*ys], nn[i*ns], pr[i*ps]
		e := negInf
		if validBinomial(yi, ni) && p >= 0 && p <= 1 {
			if p != pp {
				pp, lp, l1p = p, math.Log(p), math.Log1p(-p)
			}
			if lc != nil {
				e = lc[i*cs]
			} else {
				e = lchoose(ni, yi)
			}
			if yi > 0 {
				e += yi * lp
			}
			if ni > yi {
				e += (ni - yi) * l1p
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

func binomialBackward(f *Frame, in *Instr) {
	y, nn, pr := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, nn, pr)
	ys, ns, ps := stride(y), stride(nn), stride(pr)
	g, gs := f.AdjOf(in.Out), outStride(in)
	ap, apVec := gradOf(f, in.In[2])
	var apSum float64
	if ap == nil {
		return
	}
	for i := 0; i < n; i++ {
		yi, ni, p := y[i*ys], nn[i*ns], pr[i*ps]
		if !validBinomial(yi, ni) || !(p >= 0 && p <= 1) || p == 0 && yi > 0 || p == 1 && ni > yi {
			continue
		}
		d := 0.0
		if yi > 0 {
			d += yi / p
		}
		if ni > yi {
			d -= (ni - yi) / (1 - p)
		}
		apSum = acc(ap, apVec, i, g[i*gs]*d, apSum)
	}
	flushAcc(ap, apVec, apSum)
}

func binomialLogitForward(f *Frame, in *Instr) {
	y, nn, th := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, nn, th)
	ys, ns, ts := stride(y), stride(nn), stride(th)
	out, pw := f.Val(in.Out), isPointwise(in)
	lc := binomialChoose(f, in, y, nn)
	cs := stride(lc)
	t := 0.0
	for i := 0; i < n; i++ {
		yi, ni, x := y[i*ys], nn[i*ns], th[i*ts]
		e := negInf
		if validBinomial(yi, ni) && !math.IsNaN(x) {
			if lc != nil {
				e = lc[i*cs]
			} else {
				e = lchoose(ni, yi)
			}
			// y log logistic(x) + (n-y) log logistic(-x)
			// = -n log1p(exp(-|x|)) - y max(-x,0) - (n-y) max(x,0).
			e -= ni*math.Log1p(Exp(-math.Abs(x))) + yi*math.Max(-x, 0) + (ni-yi)*math.Max(x, 0)
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

func binomialLogitBackward(f *Frame, in *Instr) {
	y, nn, th := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, nn, th)
	ys, ns, ts := stride(y), stride(nn), stride(th)
	g, gs := f.AdjOf(in.Out), outStride(in)
	at, atVec := gradOf(f, in.In[2])
	var atSum float64
	if at == nil {
		return
	}
	for i := 0; i < n; i++ {
		yi, ni, x := y[i*ys], nn[i*ns], th[i*ts]
		if !validBinomial(yi, ni) || math.IsNaN(x) {
			continue
		}
		atSum = acc(at, atVec, i, g[i*gs]*(yi-ni*invLogit(x)), atSum)
	}
	flushAcc(at, atVec, atSum)
}
