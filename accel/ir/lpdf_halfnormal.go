package ir

import "math"

// half_normal_lpdf(y, sigma) = log 2 - ½(y/σ)² - log σ - log √(2π) for
// y ≥ 0. Partials: ∂y = -y/σ², ∂σ = (z²-1)/σ with z = y/σ.
func init() {
	register(OpHalfNormalLPDF, OpDef{Name: "half_normal_lpdf", Arity: 2, Shape: lpdfShape,
		Forward: halfNormalForward, Backward: halfNormalBackward})
}

func halfNormalForward(f *Frame, in *Instr) {
	y, sg := f.Val(in.In[0]), f.Val(in.In[1])
	n := batchLen(y, sg)
	ys, ss := stride(y), stride(sg)
	out, pw := f.Val(in.Out), isPointwise(in)
	sp, ok, c, inv := math.NaN(), false, 0.0, 0.0
	t := 0.0
	for i := 0; i < n; i++ {
		s := sg[i*ss]
		if s != sp {
			sp, ok, c, inv = s, s > 0, ln2-math.Log(s)-lnSqrt2Pi, 1/s
		}
		e := negInf
		if yi := y[i*ys]; ok && yi >= 0 {
			z := yi * inv
			e = c - 0.5*z*z
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

func halfNormalBackward(f *Frame, in *Instr) {
	y, sg := f.Val(in.In[0]), f.Val(in.In[1])
	n := batchLen(y, sg)
	ys, ss := stride(y), stride(sg)
	g, gs := f.AdjOf(in.Out), outStride(in)
	ay, ayVec := gradOf(f, in.In[0])
	as, asVec := gradOf(f, in.In[1])
	var aySum, asSum float64
	for i := 0; i < n; i++ {
		s, yi := sg[i*ss], y[i*ys]
		if !(s > 0) || !(yi >= 0) {
			continue
		}
		gi := g[i*gs]
		inv := 1 / s
		z := yi * inv
		aySum = acc(ay, ayVec, i, -gi*z*inv, aySum)
		asSum = acc(as, asVec, i, gi*(z*z-1)*inv, asSum)
	}
	flushAcc(ay, ayVec, aySum)
	flushAcc(as, asVec, asSum)
}
