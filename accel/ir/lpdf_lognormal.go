package ir

import "math"

// lognormal_lpdf(y, mu, sigma) = -½z² - log σ - log y - log √(2π),
// z = (log y - μ)/σ, for y > 0. Partials: ∂y = -(1 + z/σ)/y, ∂μ = z/σ,
// ∂σ = (z²-1)/σ.
func init() {
	register(OpLogNormalLPDF, OpDef{Name: "lognormal_lpdf", Arity: 3, Shape: lpdfShape,
		Forward: logNormalForward, Backward: logNormalBackward, Scratch: variateLogScratch(false)})
}

func logNormalForward(f *Frame, in *Instr) {
	y, mu, sg := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, mu, sg)
	ys, ms, ss := stride(y), stride(mu), stride(sg)
	out, pw := f.Val(in.Out), isPointwise(in)
	sp, ok, c, inv := math.NaN(), false, 0.0, 0.0
	lys, _ := variateLogs(f, in, y)
	t := 0.0
	for i := 0; i < n; i++ {
		s := sg[i*ss]
		if s != sp {
			sp, ok, c, inv = s, s > 0, -math.Log(s)-lnSqrt2Pi, 1/s
		}
		e := negInf
		if yi := y[i*ys]; ok && yi > 0 {
			var ly float64
			if lys != nil {
				ly = lys[i*ys]
			} else {
				ly = math.Log(yi)
			}
			z := (ly - mu[i*ms]) * inv
			e = c - 0.5*z*z - ly
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

func logNormalBackward(f *Frame, in *Instr) {
	y, mu, sg := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, mu, sg)
	ys, ms, ss := stride(y), stride(mu), stride(sg)
	g, gs := f.AdjOf(in.Out), outStride(in)
	ay, ayVec := gradOf(f, in.In[0])
	am, amVec := gradOf(f, in.In[1])
	as, asVec := gradOf(f, in.In[2])
	var aySum, amSum, asSum float64
	lys, _ := variateLogs(f, in, y)
	for i := 0; i < n; i++ {
		s, yi := sg[i*ss], y[i*ys]
		if !(s > 0) || !(yi > 0) {
			continue
		}
		gi := g[i*gs]
		inv := 1 / s
		var ly float64
		if lys != nil {
			ly = lys[i*ys]
		} else {
			ly = math.Log(yi)
		}
		z := (ly - mu[i*ms]) * inv
		aySum = acc(ay, ayVec, i, -gi*(1+z*inv)/yi, aySum)
		amSum = acc(am, amVec, i, gi*z*inv, amSum)
		asSum = acc(as, asVec, i, gi*(z*z-1)*inv, asSum)
	}
	flushAcc(ay, ayVec, aySum)
	flushAcc(am, amVec, amSum)
	flushAcc(as, asVec, asSum)
}
