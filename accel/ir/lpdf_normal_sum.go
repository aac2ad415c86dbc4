package ir

import "math"

// The normal's shortcut (accel/opdef's Normal names it): with one σ and
// the terms summed, Σ -½((y-μ)/σ)² - log σ - log √(2π) is
// -½ Σ(y-μ)² / σ² - n(log σ + log √(2π)), one subtraction and one
// multiply-add per element; the partials are ∂y_i = -(y_i-μ_i)/σ²,
// ∂μ_i = -∂y_i, ∂σ = (Σ(y-μ)²/σ² - n)/σ. The generated loops do the rest
// (a σ per element, pointwise terms), and TestShortcuts compares the two.

// shortcuts turns the hand-written shortcuts on (tests turn them off to
// compare them with the generated loops).
var shortcuts = true

// normalSumForward is the summed log density with one σ; false when the
// shape is another.
func normalSumForward(f *Frame, in *Instr) bool {
	y, mu, sg := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	if len(sg) != 1 || Pointwise(in) {
		return false
	}
	n := batchLen(y, mu, sg)
	out := f.Val(in.Out)
	s := sg[0]
	if !(s > 0) {
		out[0] = negInf
		return true
	}
	q := 0.0
	if ys, ms := stride(y), stride(mu); ys == 1 && ms == 1 {
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
	return true
}

// normalSumBackward is the backward sweep of normalSumForward's shape.
func normalSumBackward(f *Frame, in *Instr) bool {
	y, mu, sg := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	if len(sg) != 1 || Pointwise(in) {
		return false
	}
	n := batchLen(y, mu, sg)
	s, g := sg[0], f.AdjOf(in.Out)[0]
	if !(s > 0) {
		return true
	}
	ay, _ := gradOf(f, in.In[0])
	am, _ := gradOf(f, in.In[1])
	as, _ := gradOf(f, in.In[2])
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
	return true
}
