package opdef

import "math"

// Digamma and trigamma, written once here: the generated loops call them,
// and cmd/genops translates them into device_gen.cu. DESIGN.md §4 says to
// take special functions from gonum; these two depart from it for two
// reasons. The CUDA C needs a body of its own either way, and one
// definition translated for it cannot drift from the Go as a hand port
// beside it could. And these are more accurate than gonum's
// mathext.Digamma below 10 and than a trigamma through ζ(2, x) next to
// the negative poles (digamma_test.go checks against mpmath; the
// figures are in bench/README.md, "Digamma and trigamma"). Both step x up by
// the recurrences ψ(x) = ψ(x+1) - 1/x and ψ₁(x) = ψ₁(x+1) + 1/x² until
// x ≥ psiBig, then sum the asymptotic series in r = 1/x,
//
//	ψ(x)  ~ log x - r/2 - Σ B₂ₖ/(2k) r²ᵏ
//	ψ₁(x) ~ r + r²/2 + Σ B₂ₖ r²ᵏ⁺¹
//
// (B₂ₖ the Bernoulli numbers, DLMF 5.11.2 and its derivative) through
// k = 7 and k = 8: the first term left out is below 5e-17 of the sum at
// x = 10. Below zero they reflect (DLMF 5.5.4 and its derivative) with
// the distance to the nearest integer, which keeps the cotangent and the
// sine accurate next to the poles.

// psiBig is where the recurrences stop and the series start.
const psiBig = 10

// Digamma is ψ(x) = d/dx log Γ(x): ±Inf at ∓0 (the sign of Γ there), NaN
// at the negative integers and -Inf, x at NaN and +Inf.
//
//gb:cuda gb_digamma
func Digamma(x float64) float64 {
	s := 0.0 // what the reflection and the recurrence add
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x == 0:
		if math.Signbit(x) {
			return math.Inf(1)
		}
		return math.Inf(-1)
	case x < 0:
		if x == math.Floor(x) {
			return math.NaN()
		}
		// ψ(x) = ψ(1-x) - π cot(πx), cot of period 1.
		s = math.Pi / math.Tan(math.Pi*(x-math.Round(x)))
		x = 1 - x
	}
	for x < psiBig {
		s += 1 / x
		x++
	}
	r := 1 / x
	r2 := r * r
	p := 1.0/12 - r2*(1.0/120-r2*(1.0/252-r2*(1.0/240-r2*(1.0/132-r2*(691.0/32760-r2*(1.0/12))))))
	return math.Log(x) - r*(0.5+r*p) - s
}

// Trigamma is ψ₁(x) = d/dx ψ(x): +Inf at zero and the negative integers,
// 0 at +Inf, NaN at NaN and -Inf.
//
//gb:cuda gb_trigamma
func Trigamma(x float64) float64 {
	refl := 0.0 // π²/sin²(πx) when x < 0
	switch {
	case math.IsNaN(x) || math.IsInf(x, -1):
		return math.NaN()
	case math.IsInf(x, 1):
		return 0
	case x <= 0:
		if x == math.Floor(x) {
			return math.Inf(1)
		}
		// ψ₁(x) = π²/sin²(πx) - ψ₁(1-x), sin² of period 1.
		sn := math.Sin(math.Pi * (x - math.Round(x)))
		refl = math.Pi * math.Pi / (sn * sn)
		x = 1 - x
	}
	t := 0.0
	for x < psiBig {
		t += 1 / (x * x)
		x++
	}
	r := 1 / x
	r2 := r * r
	q := 1.0/6 - r2*(1.0/30-r2*(1.0/42-r2*(1.0/30-r2*(5.0/66-r2*(691.0/2730-r2*(7.0/6-r2*(3617.0/510)))))))
	t += r * (1 + r*(0.5+r*q))
	if refl != 0 {
		return refl - t
	}
	return t
}
