package ir

import "math"

// uniform_lpdf(y, lower, upper) = -log(upper - lower) for
// lower ≤ y ≤ upper. Partials: ∂y = 0, ∂lower = 1/(upper-lower),
// ∂upper = -1/(upper-lower).
func init() {
	register(OpUniformLPDF, OpDef{Name: "uniform_lpdf", Arity: 3, Shape: lpdfShape,
		Forward: uniformForward, Backward: uniformBackward})
}

func uniformForward(f *Frame, in *Instr) {
	y, lo, hi := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, lo, hi)
	ys, ls, hs := stride(y), stride(lo), stride(hi)
	out, pw := f.Val(in.Out), isPointwise(in)
	t := 0.0
	for i := 0; i < n; i++ {
		a, b, yi := lo[i*ls], hi[i*hs], y[i*ys]
		e := negInf
		if a < b && yi >= a && yi <= b {
			e = -math.Log(b - a)
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

func uniformBackward(f *Frame, in *Instr) {
	y, lo, hi := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, lo, hi)
	ys, ls, hs := stride(y), stride(lo), stride(hi)
	g, gs := f.AdjOf(in.Out), outStride(in)
	al, alVec := gradOf(f, in.In[1])
	ah, ahVec := gradOf(f, in.In[2])
	var alSum, ahSum float64
	for i := 0; i < n; i++ {
		a, b, yi := lo[i*ls], hi[i*hs], y[i*ys]
		if !(a < b && yi >= a && yi <= b) {
			continue
		}
		r := g[i*gs] / (b - a)
		alSum = acc(al, alVec, i, r, alSum)
		ahSum = acc(ah, ahVec, i, -r, ahSum)
	}
	flushAcc(al, alVec, alSum)
	flushAcc(ah, ahVec, ahSum)
}
