package ir

import "math"

// laplace_lpdf(y, mu, b) = -log(2b) - |y-μ|/b.
// Partials: ∂y = -sign(y-μ)/b, ∂μ = -∂y, ∂b = (|y-μ|/b - 1)/b.
func init() {
	register(OpLaplaceLPDF, OpDef{Name: "laplace_lpdf", Arity: 3, Shape: lpdfShape,
		Forward: laplaceForward, Backward: laplaceBackward})
}

func laplaceForward(f *Frame, in *Instr) {
	y, mu, sc := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, mu, sc)
	ys, ms, ss := stride(y), stride(mu), stride(sc)
	out, pw := f.Val(in.Out), isPointwise(in)
	bp, ok, c, inv := math.NaN(), false, 0.0, 0.0
	t := 0.0
	for i := 0; i < n; i++ {
		b := sc[i*ss]
		if b != bp {
			bp, ok, c, inv = b, b > 0, -ln2-math.Log(b), 1/b
		}
		e := negInf
		if ok {
			e = c - math.Abs(y[i*ys]-mu[i*ms])*inv
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

func laplaceBackward(f *Frame, in *Instr) {
	y, mu, sc := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, mu, sc)
	ys, ms, ss := stride(y), stride(mu), stride(sc)
	g, gs := f.AdjOf(in.Out), outStride(in)
	ay, ayVec := gradOf(f, in.In[0])
	am, amVec := gradOf(f, in.In[1])
	ab, abVec := gradOf(f, in.In[2])
	var aySum, amSum, abSum float64
	for i := 0; i < n; i++ {
		b := sc[i*ss]
		if !(b > 0) {
			continue
		}
		r := g[i*gs] / b
		d := y[i*ys] - mu[i*ms]
		sgn := 0.0
		if d > 0 {
			sgn = 1
		} else if d < 0 {
			sgn = -1
		}
		aySum = acc(ay, ayVec, i, -sgn*r, aySum)
		amSum = acc(am, amVec, i, sgn*r, amSum)
		abSum = acc(ab, abVec, i, (math.Abs(d)/b-1)*r, abSum)
	}
	flushAcc(ay, ayVec, aySum)
	flushAcc(am, amVec, amSum)
	flushAcc(ab, abVec, abSum)
}
