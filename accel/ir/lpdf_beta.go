package ir

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// beta_lpdf(y, alpha, beta) = (α-1) log y + (β-1) log(1-y) - lbeta(α, β)
// for 0 < y < 1. Partials: ∂y = (α-1)/y - (β-1)/(1-y),
// ∂α = log y - ψ(α) + ψ(α+β), ∂β = log(1-y) - ψ(β) + ψ(α+β).
func init() {
	register(OpBetaLPDF, OpDef{Name: "beta_lpdf", Arity: 3, Shape: lpdfShape,
		Forward: betaForward, Backward: betaBackward, Scratch: variateLogScratch(true)})
}

func betaForward(f *Frame, in *Instr) {
	y, al, be := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, al, be)
	ys, as, bs := stride(y), stride(al), stride(be)
	out, pw := f.Val(in.Out), isPointwise(in)
	ap, bp, ok, lb := math.NaN(), math.NaN(), false, 0.0
	ly, l1m := variateLogs(f, in, y)
	t := 0.0
	for i := 0; i < n; i++ {
		a, b := al[i*as], be[i*bs]
		if a != ap || b != bp {
			ap, bp, ok, lb = a, b, a > 0 && b > 0, mathext.Lbeta(a, b)
		}
		e := negInf
		if yi := y[i*ys]; ok && yi > 0 && yi < 1 {
			var l, m float64
			if ly != nil {
				l, m = ly[i*ys], l1m[i*ys]
			} else {
				l, m = math.Log(yi), math.Log1p(-yi)
			}
			e = (a-1)*l + (b-1)*m - lb
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

func betaBackward(f *Frame, in *Instr) {
	y, al, be := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, al, be)
	ys, as, bs := stride(y), stride(al), stride(be)
	g, gs := f.AdjOf(in.Out), outStride(in)
	ay, ayVec := gradOf(f, in.In[0])
	aa, aaVec := gradOf(f, in.In[1])
	ab, abVec := gradOf(f, in.In[2])
	var aySum, aaSum, abSum float64
	needPsi := aa != nil || ab != nil
	ap, bp, da, db := math.NaN(), math.NaN(), 0.0, 0.0
	ly, l1m := variateLogs(f, in, y)
	for i := 0; i < n; i++ {
		a, b, yi := al[i*as], be[i*bs], y[i*ys]
		if !(a > 0) || !(b > 0) || !(yi > 0 && yi < 1) {
			continue
		}
		gi := g[i*gs]
		aySum = acc(ay, ayVec, i, gi*((a-1)/yi-(b-1)/(1-yi)), aySum)
		if needPsi {
			if a != ap || b != bp {
				pab := mathext.Digamma(a + b)
				ap, bp, da, db = a, b, pab-mathext.Digamma(a), pab-mathext.Digamma(b)
			}
			var l, m float64
			if ly != nil {
				l, m = ly[i*ys], l1m[i*ys]
			} else {
				l, m = math.Log(yi), math.Log1p(-yi)
			}
			aaSum = acc(aa, aaVec, i, gi*(l+da), aaSum)
			abSum = acc(ab, abVec, i, gi*(m+db), abSum)
		}
	}
	flushAcc(ay, ayVec, aySum)
	flushAcc(aa, aaVec, aaSum)
	flushAcc(ab, abVec, abSum)
}
