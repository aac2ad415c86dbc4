package ir

import "math"

// weibull_lpdf(y, k, lambda) = log k - log λ + (k-1) log(y/λ) - (y/λ)^k for
// y > 0. With L = log(y/λ) and u = (y/λ)^k: ∂y = (k-1-ku)/y,
// ∂k = 1/k + L(1-u), ∂λ = k(u-1)/λ.
func init() {
	register(OpWeibullLPDF, OpDef{Name: "weibull_lpdf", Arity: 3, Shape: lpdfShape,
		Forward: weibullForward, Backward: weibullBackward, Scratch: variateLogScratch(false)})
}

func weibullForward(f *Frame, in *Instr) {
	y, ks, ls := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, ks, ls)
	ys, kst, lst := stride(y), stride(ks), stride(ls)
	out, pw := f.Val(in.Out), isPointwise(in)
	kp, kok, lk := math.NaN(), false, 0.0
	lp, lok, ll := math.NaN(), false, 0.0
	ly, _ := variateLogs(f, in, y)
	t := 0.0
	for i := 0; i < n; i++ {
		k, l := ks[i*kst], ls[i*lst]
		if k != kp {
			kp, kok, lk = k, k > 0, math.Log(k)
		}
		if l != lp {
			lp, lok, ll = l, l > 0, math.Log(l)
		}
		e := negInf
		if yi := y[i*ys]; kok && lok && yi > 0 {
			var L float64
			if ly != nil {
				L = ly[i*ys] - ll
			} else {
				L = math.Log(yi) - ll
			}
			e = lk - ll + (k-1)*L - Exp(k*L)
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

func weibullBackward(f *Frame, in *Instr) {
	y, ks, ls := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, ks, ls)
	ys, kst, lst := stride(y), stride(ks), stride(ls)
	g, gs := f.AdjOf(in.Out), outStride(in)
	ay, ayVec := gradOf(f, in.In[0])
	ak, akVec := gradOf(f, in.In[1])
	al, alVec := gradOf(f, in.In[2])
	var aySum, akSum, alSum float64
	ly, _ := variateLogs(f, in, y)
	lp, ll := math.NaN(), 0.0
	for i := 0; i < n; i++ {
		k, l, yi := ks[i*kst], ls[i*lst], y[i*ys]
		if !(k > 0) || !(l > 0) || !(yi > 0) {
			continue
		}
		gi := g[i*gs]
		if l != lp {
			lp, ll = l, math.Log(l)
		}
		var L float64
		if ly != nil {
			L = ly[i*ys] - ll
		} else {
			L = math.Log(yi) - ll
		}
		u := Exp(k * L)
		if math.IsInf(u, 1) { // the term overflowed to -Inf: no gradient
			continue
		}
		aySum = acc(ay, ayVec, i, gi*(k-1-k*u)/yi, aySum)
		akSum = acc(ak, akVec, i, gi*(1/k+L*(1-u)), akSum)
		alSum = acc(al, alVec, i, gi*k*(u-1)/l, alSum)
	}
	flushAcc(ay, ayVec, aySum)
	flushAcc(ak, akVec, akSum)
	flushAcc(al, alVec, alSum)
}
