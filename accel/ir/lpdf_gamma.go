package ir

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// gamma_lpdf(y, alpha, beta) = α log β - lgamma(α) + (α-1) log y - βy for
// y > 0 (β is the rate). Partials: ∂y = (α-1)/y - β,
// ∂α = log β - ψ(α) + log y, ∂β = α/β - y.
func init() {
	register(OpGammaLPDF, OpDef{Name: "gamma_lpdf", Arity: 3, Shape: lpdfShape,
		Forward: gammaForward, Backward: gammaBackward, Scratch: variateLogScratch(false)})
}

func gammaForward(f *Frame, in *Instr) {
	y, al, be := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, al, be)
	ys, as, bs := stride(y), stride(al), stride(be)
	out, pw := f.Val(in.Out), isPointwise(in)
	ap, aok, lga := math.NaN(), false, 0.0
	bp, bok, lb := math.NaN(), false, 0.0
	ly, _ := variateLogs(f, in, y)
	t := 0.0
	for i := 0; i < n; i++ {
		a, b := al[i*as], be[i*bs]
		if a != ap {
			ap, aok, lga = a, a > 0, lgamma(a)
		}
		if b != bp {
			bp, bok, lb = b, b > 0, math.Log(b)
		}
		e := negInf
		if yi := y[i*ys]; aok && bok && yi > 0 {
			var l float64
			if ly != nil {
				l = ly[i*ys]
			} else {
				l = math.Log(yi)
			}
			e = a*lb - lga + (a-1)*l - b*yi
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

func gammaBackward(f *Frame, in *Instr) {
	y, al, be := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, al, be)
	ys, as, bs := stride(y), stride(al), stride(be)
	g, gs := f.AdjOf(in.Out), outStride(in)
	ay, ayVec := gradOf(f, in.In[0])
	aa, aaVec := gradOf(f, in.In[1])
	ab, abVec := gradOf(f, in.In[2])
	var aySum, aaSum, abSum float64
	ap, dga := math.NaN(), 0.0
	ly, _ := variateLogs(f, in, y)
	for i := 0; i < n; i++ {
		a, b, yi := al[i*as], be[i*bs], y[i*ys]
		if !(a > 0) || !(b > 0) || !(yi > 0) {
			continue
		}
		gi := g[i*gs]
		aySum = acc(ay, ayVec, i, gi*((a-1)/yi-b), aySum)
		abSum = acc(ab, abVec, i, gi*(a/b-yi), abSum)
		if aa != nil {
			if a != ap {
				ap, dga = a, mathext.Digamma(a)
			}
			var l float64
			if ly != nil {
				l = ly[i*ys]
			} else {
				l = math.Log(yi)
			}
			aaSum = acc(aa, aaVec, i, gi*(math.Log(b)-dga+l), aaSum)
		}
	}
	flushAcc(ay, ayVec, aySum)
	flushAcc(aa, aaVec, aaSum)
	flushAcc(ab, abVec, abSum)
}
