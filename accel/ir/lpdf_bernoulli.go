package ir

import "math"

// bernoulli_logit_lpmf(y, theta) = log logistic(θ) for y = 1,
// log logistic(-θ) for y = 0; ∂θ = y - logistic(θ). Forward leaves
// exp(-|θ|) in scratch so that Backward needs no transcendental call, and
// constant y are checked once per frame.
func init() {
	register(OpBernoulliLogitLPMF, OpDef{Name: "bernoulli_logit_lpmf", Arity: 2, Shape: lpdfShape,
		Forward: bernoulliLogitForward, Backward: bernoulliLogitBackward,
		Scratch: lpdfScratch(1, true)})
}

func isBinary(y float64) bool { return y == 0 || y == 1 }

// bernoulliSigns returns the signs 2y-1 of constant data y, cached once
// per frame (nil when y is not constant), and whether every y is 0 or 1.
func bernoulliSigns(flag, cache, y []float64) (sg []float64, valid bool) {
	if cache == nil {
		return nil, false
	}
	if flag[0] == 0 {
		flag[0] = 1
		for i, v := range y {
			if isBinary(v) {
				cache[i] = 2*v - 1
			} else {
				cache[i], flag[0] = math.NaN(), 2
			}
		}
	}
	return cache, flag[0] == 1
}

func bernoulliLogitForward(f *Frame, in *Instr) {
	y, th := f.Val(in.In[0]), f.Val(in.In[1])
	n := batchLen(y, th)
	ys, ts := stride(y), stride(th)
	out, pw := f.Val(in.Out), Pointwise(in)
	flag, cache, ex := lpdfScratchParts(f, in, 1)
	sg, valid := bernoulliSigns(flag, cache, y)
	t := 0.0
	for i := 0; i < n; i++ {
		x := th[i*ts]
		var s float64 // 2y-1: log logistic(s·x) = -log1p(exp(-|x|)) + min(s·x, 0)
		if sg != nil {
			s = sg[i*ys]
		} else {
			s = 2*y[i*ys] - 1
		}
		em := Exp(-math.Abs(x))
		ex[i] = em
		e := -math.Log1p(em)
		if m := s * x; m < 0 {
			e += m
		}
		if !valid && !isBinary((s+1)/2) {
			e = negInf
		}
		if e != e { // NaN logit
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

func bernoulliLogitBackward(f *Frame, in *Instr) {
	y, th := f.Val(in.In[0]), f.Val(in.In[1])
	n := batchLen(y, th)
	ys, ts := stride(y), stride(th)
	g, gs := f.AdjOf(in.Out), outStride(in)
	at, atVec := gradOf(f, in.In[1])
	if at == nil {
		return
	}
	var atSum float64
	flag, _, ex := lpdfScratchParts(f, in, 1)
	valid := flag[0] == 1
	for i := 0; i < n; i++ {
		yi, x := y[i*ys], th[i*ts]
		if !valid && !isBinary(yi) || x != x {
			continue
		}
		em := ex[i]
		p := 1 / (1 + em) // logistic(|x|)
		if x < 0 {
			p = em * p
		}
		atSum = acc(at, atVec, i, g[i*gs]*(yi-p), atSum)
	}
	flushAcc(at, atVec, atSum)
}
