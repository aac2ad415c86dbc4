package ir

import "math"

// normal_lpdf(y, mu, sigma) = -½z² - log σ - log √(2π), z = (y-μ)/σ.
// Partials: ∂y = -z/σ, ∂μ = z/σ, ∂σ = (z²-1)/σ. σ ≤ 0 gives -Inf.
func init() {
	register(OpNormalLPDF, OpDef{Name: "normal_lpdf", Arity: 3, Shape: lpdfShape,
		Forward: normalForward, Backward: normalBackward, Scratch: normalScratch})
}

// normalScratch caches, when σ is constant data with one value per
// element (measurement errors, as in eight schools), -log σ - log √(2π)
// and 1/σ per element: slot 0 flags them as filled, then n of each.
func normalScratch(p *Program, in *Instr) int {
	if v := &p.Values[in.In[2]]; v.Kind == Const && v.Len > 1 {
		return 1 + 2*v.Len
	}
	return 0
}

// normalSigmaCache returns the cached constant terms and inverse scales,
// or nils when σ is not constant data.
func normalSigmaCache(f *Frame, in *Instr, sg []float64) (c, inv []float64) {
	if in.Scratch == None {
		return nil, nil
	}
	s := f.Val(in.Scratch)
	n := len(sg)
	c, inv = s[1:1+n], s[1+n:1+2*n]
	if s[0] == 0 {
		for i, v := range sg {
			if v > 0 {
				c[i], inv[i] = -math.Log(v)-lnSqrt2Pi, 1/v
			} else {
				c[i], inv[i] = negInf, 0
			}
		}
		s[0] = 1
	}
	return c, inv
}

func normalForward(f *Frame, in *Instr) {
	y, mu, sg := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, mu, sg)
	ys, ms, ss := stride(y), stride(mu), stride(sg)
	out, pw := f.Val(in.Out), Pointwise(in)
	if ss == 0 && !pw {
		// One σ for all: Σ -½((y-μ)/σ)² = -½ Σ (y-μ)² / σ².
		s := sg[0]
		if !(s > 0) {
			out[0] = negInf
			return
		}
		q := 0.0
		if ys == 1 && ms == 1 {
			y, mu := y[:n], mu[:n]
			for i, v := range y {
				d := v - mu[i]
				q += d * d
			}
		} else {
			for i := 0; i < n; i++ {
				d := y[i*ys] - mu[i*ms]
				q += d * d
			}
		}
		inv := 1 / s
		e := -0.5*(q*inv)*inv - float64(n)*(math.Log(s)+lnSqrt2Pi)
		if e != e { // NaN from infinite inputs
			e = negInf
		}
		out[0] = e
		return
	}
	if cc, ci := normalSigmaCache(f, in, sg); cc != nil {
		t := 0.0
		for i := 0; i < n; i++ {
			z := (y[i*ys] - mu[i*ms]) * ci[i]
			e := cc[i] - 0.5*z*z
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
		return
	}
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

func normalBackward(f *Frame, in *Instr) {
	y, mu, sg := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	n := batchLen(y, mu, sg)
	ys, ms, ss := stride(y), stride(mu), stride(sg)
	g, gs := f.AdjOf(in.Out), outStride(in)
	ay, ayVec := gradOf(f, in.In[0])
	am, amVec := gradOf(f, in.In[1])
	as, asVec := gradOf(f, in.In[2])
	var aySum, amSum, asSum float64
	if ss == 0 && gs == 0 {
		normalBackwardShared(y, mu, sg[0], n, g[0], ay, am, as)
		return
	}
	_, ci := normalSigmaCache(f, in, sg)
	sp, inv := math.NaN(), 0.0
	for i := 0; i < n; i++ {
		s := sg[i*ss]
		if !(s > 0) {
			continue
		}
		if ci != nil {
			inv = ci[i]
		} else if s != sp {
			sp, inv = s, 1/s
		}
		gi := g[i*gs]
		z := (y[i*ys] - mu[i*ms]) * inv
		d := gi * z * inv
		aySum = acc(ay, ayVec, i, -d, aySum)
		amSum = acc(am, amVec, i, d, amSum)
		asSum = acc(as, asVec, i, gi*(z*z-1)*inv, asSum)
	}
	flushAcc(ay, ayVec, aySum)
	flushAcc(am, amVec, amSum)
	flushAcc(as, asVec, asSum)
}

// normalBackwardShared is the backward sweep of the summed density with
// one σ: ∂y_i = -g(y_i-μ_i)/σ², ∂μ_i = -∂y_i, ∂σ = g(Σ(y-μ)²/σ² - n)/σ.
func normalBackwardShared(y, mu []float64, s float64, n int, g float64, ay, am, as []float64) {
	if !(s > 0) {
		return
	}
	ys, ms := stride(y), stride(mu)
	inv := 1 / s
	r := g * inv // times (y-μ)/σ, not (y-μ)·g/σ², which overflows for tiny σ
	q := 0.0
	switch {
	case ys == 1 && ms == 1 && ay == nil && len(am) > 1:
		// Data y, a parameter μ per observation (regression).
		y, mu, a := y[:n], mu[:n], am[:n]
		for i, v := range y {
			d := v - mu[i]
			q += d * d
			a[i] += r * (d * inv)
		}
	default:
		ayVec, amVec := len(ay) > 1, len(am) > 1
		var aySum, amSum float64
		for i := 0; i < n; i++ {
			d := y[i*ys] - mu[i*ms]
			q += d * d
			aySum = acc(ay, ayVec, i, -r*(d*inv), aySum)
			amSum = acc(am, amVec, i, r*(d*inv), amSum)
		}
		flushAcc(ay, ayVec, aySum)
		flushAcc(am, amVec, amSum)
	}
	if as != nil {
		as[0] += g * inv * ((q*inv)*inv - float64(n))
	}
}
