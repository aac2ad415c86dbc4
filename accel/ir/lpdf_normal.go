package ir

import "math"

// normal_lpdf(y, mu, sigma) = -½z² - log σ - log √(2π), z = (y-μ)/σ.
// Partials: ∂y = -z/σ, ∂μ = z/σ, ∂σ = (z²-1)/σ. σ ≤ 0 gives -Inf.
func init() {
	register(OpNormalLPDF, OpDef{Name: "normal_lpdf", Arity: 3, Shape: lpdfShape,
		Forward: normalForward, Backward: normalBackward})
}

func normalForward(f *Frame, in *Instr) {
	y, mu, sg := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, mu, sg)
	ys, ms, ss := stride(y), stride(mu), stride(sg)
	out, pw := f.Val(in.Out), isPointwise(in)
	sp, ok, c, inv := math.NaN(), false, 0.0, 0.0
	t := 0.0
	for i := 0; i < n; i++ {
		s := sg[i*ss]
		if s != sp {
			sp, ok, c, inv = s, s > 0, -math.Log(s)-lnSqrt2Pi, 1/s
		}
		e := negInf
		if ok {
			z := (y[i*ys] - mu[i*ms]) * inv
			e = c - 0.5*z*z
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

func normalBackward(f *Frame, in *Instr) {
	y, mu, sg := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, mu, sg)
	ys, ms, ss := stride(y), stride(mu), stride(sg)
	g, gs := f.AdjOf(in.Out), outStride(in)
	ay, am, as := newAcc(f, in.In[0]), newAcc(f, in.In[1]), newAcc(f, in.In[2])
	sp, inv := math.NaN(), 0.0
	for i := 0; i < n; i++ {
		s := sg[i*ss]
		if !(s > 0) {
			continue
		}
		if s != sp {
			sp, inv = s, 1/s
		}
		gi := g[i*gs]
		z := (y[i*ys] - mu[i*ms]) * inv
		d := gi * z * inv
		ay.add(i, -d)
		am.add(i, d)
		as.add(i, gi*(z*z-1)*inv)
	}
	ay.flush()
	am.flush()
	as.flush()
}
