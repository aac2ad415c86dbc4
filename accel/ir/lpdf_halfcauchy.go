package ir

import "math"

// half_cauchy_lpdf(y, sigma) = log 2 - log π - log σ - log(1+z²) for
// y ≥ 0, z = y/σ. Partials: ∂y = -2z/(σ(1+z²)), ∂σ = (z²-1)/(σ(1+z²)).
func init() {
	register(OpHalfCauchyLPDF, OpDef{Name: "half_cauchy_lpdf", Arity: 2, Shape: lpdfShape,
		Forward: halfCauchyForward, Backward: halfCauchyBackward})
}

func halfCauchyForward(f *Frame, in *Instr) {
	y, sg := f.Val(in.In[0]), f.Val(in.In[1])
	n := batchLen(y, sg)
	ys, ss := stride(y), stride(sg)
	out, pw := f.Val(in.Out), isPointwise(in)
	sp, ok, c, inv := math.NaN(), false, 0.0, 0.0
	t := 0.0
	for i := 0; i < n; i++ {
		s := sg[i*ss]
		if s != sp {
			sp, ok, c, inv = s, s > 0, ln2-lnPi-math.Log(s), 1/s
		}
		e := negInf
		if yi := y[i*ys]; ok && yi >= 0 {
			z := yi * inv
			e = c - math.Log1p(z*z)
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

func halfCauchyBackward(f *Frame, in *Instr) {
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
		inv := 1 / s
		z := yi * inv
		r := g[i*gs] * inv / (1 + z*z)
		aySum = acc(ay, ayVec, i, -2*z*r, aySum)
		asSum = acc(as, asVec, i, (z*z-1)*r, asSum)
	}
	flushAcc(ay, ayVec, aySum)
	flushAcc(as, asVec, asSum)
}
