package ir

import "math"

// cauchy_lpdf(y, mu, sigma) = -log π - log σ - log(1+z²), z = (y-μ)/σ.
// Partials: ∂y = -2z/(σ(1+z²)), ∂μ = -∂y, ∂σ = (z²-1)/(σ(1+z²)).
func init() {
	register(OpCauchyLPDF, OpDef{Name: "cauchy_lpdf", Arity: 3, Shape: lpdfShape,
		Forward: cauchyForward, Backward: cauchyBackward})
}

func cauchyForward(f *Frame, in *Instr) {
	y, mu, sg := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, mu, sg)
	ys, ms, ss := stride(y), stride(mu), stride(sg)
	out, pw := f.Val(in.Out), isPointwise(in)
	sp, ok, c, inv := math.NaN(), false, 0.0, 0.0
	t := 0.0
	for i := 0; i < n; i++ {
		s := sg[i*ss]
		if s != sp {
			sp, ok, c, inv = s, s > 0, -math.Log(s)-lnPi, 1/s
		}
		e := negInf
		if ok {
			z := (y[i*ys] - mu[i*ms]) * inv
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

func cauchyBackward(f *Frame, in *Instr) {
	y, mu, sg := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, mu, sg)
	ys, ms, ss := stride(y), stride(mu), stride(sg)
	g, gs := f.AdjOf(in.Out), outStride(in)
	ay, ayVec := gradOf(f, in.In[0])
	am, amVec := gradOf(f, in.In[1])
	as, asVec := gradOf(f, in.In[2])
	var aySum, amSum, asSum float64
	for i := 0; i < n; i++ {
		s := sg[i*ss]
		if !(s > 0) {
			continue
		}
		gi := g[i*gs]
		inv := 1 / s
		z := (y[i*ys] - mu[i*ms]) * inv
		r := gi * inv / (1 + z*z)
		aySum = acc(ay, ayVec, i, -2*z*r, aySum)
		amSum = acc(am, amVec, i, 2*z*r, amSum)
		asSum = acc(as, asVec, i, (z*z-1)*r, asSum)
	}
	flushAcc(ay, ayVec, aySum)
	flushAcc(am, amVec, amSum)
	flushAcc(as, asVec, asSum)
}
