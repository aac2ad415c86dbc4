package ir

import "math"

// exponential_lpdf(y, rate) = log λ - λy for y ≥ 0.
// Partials: ∂y = -λ, ∂λ = 1/λ - y.
func init() {
	register(OpExponentialLPDF, OpDef{Name: "exponential_lpdf", Arity: 2, Shape: lpdfShape,
		Forward: exponentialForward, Backward: exponentialBackward})
}

func exponentialForward(f *Frame, in *Instr) {
	y, rate := f.Val(in.In[0]), f.Val(in.In[1])
	n := batchLen(y, rate)
	ys, rs := stride(y), stride(rate)
	out, pw := f.Val(in.Out), isPointwise(in)
	lp, ok, ll := math.NaN(), false, 0.0
	t := 0.0
	for i := 0; i < n; i++ {
		l := rate[i*rs]
		if l != lp {
			lp, ok, ll = l, l > 0, math.Log(l)
		}
		e := negInf
		if yi := y[i*ys]; ok && yi >= 0 {
			e = ll - l*yi
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

func exponentialBackward(f *Frame, in *Instr) {
	y, rate := f.Val(in.In[0]), f.Val(in.In[1])
	n := batchLen(y, rate)
	ys, rs := stride(y), stride(rate)
	g, gs := f.AdjOf(in.Out), outStride(in)
	ay, ayVec := gradOf(f, in.In[0])
	al, alVec := gradOf(f, in.In[1])
	var aySum, alSum float64
	for i := 0; i < n; i++ {
		l, yi := rate[i*rs], y[i*ys]
		if !(l > 0) || !(yi >= 0) {
			continue
		}
		gi := g[i*gs]
		aySum = acc(ay, ayVec, i, -gi*l, aySum)
		alSum = acc(al, alVec, i, gi*(1/l-yi), alSum)
	}
	flushAcc(ay, ayVec, aySum)
	flushAcc(al, alVec, alSum)
}
