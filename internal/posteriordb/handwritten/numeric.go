package handwritten

import "math"

// NumericGradient writes into grad the gradient of f at x by central
// differences refined by two steps of Richardson extrapolation (error of
// order h⁶), for the tests of analytic gradients. x is restored on return.
func NumericGradient(f func([]float64) float64, x, grad []float64) {
	for i := range x {
		xi := x[i]
		h := 0.005 * math.Max(1, math.Abs(xi))
		var d [3]float64 // central differences at h, h/2, h/4
		for l := range d {
			x[i] = xi + h
			fp := f(x)
			x[i] = xi - h
			fm := f(x)
			d[l] = (fp - fm) / (2 * h)
			h /= 2
		}
		x[i] = xi
		r1 := (4*d[1] - d[0]) / 3
		r2 := (4*d[2] - d[1]) / 3
		grad[i] = (16*r2 - r1) / 15
	}
}

// GradientMismatch returns the largest error of got against want, each
// relative to max(|want[i]|, ‖want‖∞/100, 1): a small component is judged
// on the scale of the whole gradient, since a finite difference cannot do
// better.
func GradientMismatch(got, want []float64) (worst float64, at int) {
	norm := 0.0
	for _, w := range want {
		norm = math.Max(norm, math.Abs(w))
	}
	at = -1
	for i := range want {
		scale := math.Max(math.Max(math.Abs(want[i]), norm/100), 1)
		e := math.Abs(got[i]-want[i]) / scale
		if !(e <= worst) { // NaN counts as worst
			worst, at = e, i
			if math.IsNaN(e) {
				return math.NaN(), i
			}
		}
	}
	return worst, at
}
