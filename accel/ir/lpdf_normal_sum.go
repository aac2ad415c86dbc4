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
	f.Val(in.Out)[0] = normalSumShared(y, mu, batchLen(y, mu, sg), stride(y), stride(mu), sg[0])
	return true
}

// normalSumBackward is the backward sweep of normalSumForward's shape.
func normalSumBackward(f *Frame, in *Instr) bool {
	y, mu, sg := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])
	if len(sg) != 1 || Pointwise(in) {
		return false
	}
	ay, _ := gradOf(f, in.In[0])
	am, _ := gradOf(f, in.In[1])
	as, _ := gradOf(f, in.In[2])
	normalSumSharedReverse(y, mu, batchLen(y, mu, sg), stride(y), stride(mu), sg[0], f.AdjOf(in.Out)[0], ay, am, as)
	return true
}

// normalSumShared is Σ normal_lpdf(y_i | μ_i, s) over n elements, y and μ
// read at strides ys and ms (0: one shared value).
//
//gb:cuda gb_normal_sum_shared
func normalSumShared(y, mu []float64, n, ys, ms int, s float64) float64 {
	if !(s > 0) {
		return math.Inf(-1)
	}
	q := 0.0
	if onHost() && ys == 1 && ms == 1 {
		// The same sum, resliced so that Go checks no bounds in the loop.
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
		e = math.Inf(-1)
	}
	return e
}

// normalSumSharedReverse adds g times normalSumShared's partials into
// the adjoints ay, am and as (each empty when not wanted; one element
// when its argument is shared).
//
//gb:cuda gb_normal_sum_shared_reverse
func normalSumSharedReverse(y, mu []float64, n, ys, ms int, s, g float64, ay, am, as []float64) {
	if !(s > 0) {
		return
	}
	inv := 1 / s
	r := g * inv // times (y-μ)/σ, not (y-μ)·g/σ², which overflows for tiny σ
	q := 0.0
	if onHost() && ys == 1 && ms == 1 && len(ay) == 0 && len(am) > 1 {
		// Data y, a parameter μ per observation (regression): the loop
		// below without its tests, resliced so that Go checks no bounds.
		y, mu, a := y[:n], mu[:n], am[:n]
		for i, v := range y {
			d := v - mu[i]
			q += d * d
			a[i] += r * (d * inv)
		}
	} else {
		ayVec, amVec := len(ay) > 1, len(am) > 1
		aySum, amSum := 0.0, 0.0
		for i := 0; i < n; i++ {
			d := y[i*ys] - mu[i*ms]
			q += d * d
			t := r * (d * inv)
			if ayVec {
				ay[i] -= t
			} else {
				aySum -= t
			}
			if amVec {
				am[i] += t
			} else {
				amSum += t
			}
		}
		if len(ay) == 1 {
			ay[0] += aySum
		}
		if len(am) == 1 {
			am[0] += amSum
		}
	}
	if len(as) > 0 {
		as[0] += g * inv * ((q*inv)*inv - float64(n))
	}
}
