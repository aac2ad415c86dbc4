package ir

import "math"

// logistic_lpdf(y, mu, s) = -z - log s - 2 log(1+exp(-z)), z = (y-μ)/s.
// With t = 1 - 2·logistic(z) = -tanh(z/2): ∂y = t/s, ∂μ = -t/s,
// ∂s = -(1 + z·t)/s.
func init() {
	register(OpLogisticLPDF, OpDef{Name: "logistic_lpdf", Arity: 3, Shape: lpdfShape,
		Forward: logisticForward, Backward: logisticBackward})
}

func logisticForward(f *Frame, in *Instr) {
	y, mu, sc := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, mu, sc)
	ys, ms, ss := stride(y), stride(mu), stride(sc)
	out, pw := f.Val(in.Out), isPointwise(in)
	sp, ok, ls, inv := math.NaN(), false, 0.0, 0.0
	t := 0.0
	for i := 0; i < n; i++ {
		s := sc[i*ss]
		if s != sp {
			sp, ok, ls, inv = s, s > 0, math.Log(s), 1/s
		}
		e := negInf
		if ok {
			// Symmetric in z: use |z| so the exponential cannot overflow.
			z := math.Abs(y[i*ys]-mu[i*ms]) * inv
			e = -z - ls - 2*math.Log1p(Exp(-z))
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

func logisticBackward(f *Frame, in *Instr) {
	y, mu, sc := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, mu, sc)
	ys, ms, ss := stride(y), stride(mu), stride(sc)
	g, gs := f.AdjOf(in.Out), outStride(in)
	ay, ayVec := gradOf(f, in.In[0])
	am, amVec := gradOf(f, in.In[1])
	as, asVec := gradOf(f, in.In[2])
	var aySum, amSum, asSum float64
	for i := 0; i < n; i++ {
		s := sc[i*ss]
		if !(s > 0) {
			continue
		}
		r := g[i*gs] / s
		z := (y[i*ys] - mu[i*ms]) / s
		tz := -math.Tanh(0.5 * z)
		aySum = acc(ay, ayVec, i, tz*r, aySum)
		amSum = acc(am, amVec, i, -tz*r, amSum)
		asSum = acc(as, asVec, i, -(1+z*tz)*r, asSum)
	}
	flushAcc(ay, ayVec, aySum)
	flushAcc(am, amVec, amSum)
	flushAcc(as, asVec, asSum)
}
