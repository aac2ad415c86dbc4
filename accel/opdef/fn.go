package opdef

import "math"

// The Go primitives of the formula language (see doc.go): the generated
// loops of accel/ir and accel/vec call these, and cmd/genops translates
// those marked //gb:cuda into accel/cuda/cgen's device_gen.cu (gb_sign,
// gb_lbeta, …; IsCount's C twin is hand-written in device.cu). The
// exponential is accel/ir's Exp, the elementary functions math's.

// IsCount reports whether x is a non-negative integer.
func IsCount(x float64) bool { return x >= 0 && x == math.Trunc(x) && !math.IsInf(x, 1) }

// Sign is -1, 0 or 1 as x is negative, zero or positive (NaN for NaN):
// Copysign is bit arithmetic, and x == 0 is all but never taken, so the
// random sign of y-μ costs no mispredicted branch.
//
//gb:cuda gb_sign
func Sign(x float64) float64 {
	if x == 0 || x != x {
		return x
	}
	return math.Copysign(1, x)
}

// Inv is 1/x.
//
//gb:cuda gb_inv
func Inv(x float64) float64 { return 1 / x }

// LGamma is log|Γ(x)|.
func LGamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// LBeta is log B(a, b) = lgamma(a) + lgamma(b) - lgamma(a+b).
//
//gb:cuda gb_lbeta
func LBeta(a, b float64) float64 { return LGamma(a) + LGamma(b) - LGamma(a+b) }

// LChoose is log(n choose k) for counts 0 ≤ k ≤ n.
//
//gb:cuda gb_lchoose
func LChoose(n, k float64) float64 { return LGamma(n+1) - LGamma(k+1) - LGamma(n-k+1) }

// LogAddExp is log(eᵃ + eᵇ) without overflow.
//
//gb:cuda gb_logaddexp
func LogAddExp(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(a, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// LogDiffExp is log(eᵃ - eᵇ) for b ≤ a: -Inf for b = a, a for b = -Inf,
// NaN for b > a.
//
//gb:cuda gb_logdiffexp
func LogDiffExp(a, b float64) float64 {
	switch {
	case math.IsInf(b, -1):
		return a
	case b == a:
		return math.Inf(-1)
	}
	return a + Log1mExp(b-a)
}

// Where is a when c holds, else b (the generated loops compute only the
// branch taken; this is the form for code that cannot).
func Where(c bool, a, b float64) float64 {
	if c {
		return a
	}
	return b
}

// Constants of the formula language (ln2, lnPi, lnSqrt2Pi).
const (
	Ln2       = math.Ln2
	LnPi      = 1.14472988584940017414342735135305871164729481291531 // log π
	LnSqrt2Pi = 0.91893853320467274178032973640561763986139747363778 // log √(2π)
)

// LogPhi is log Φ(x), the log of the standard normal CDF, accurate in
// both tails: log1p of the upper tail for x > 0, the log of erfc down to
// x = -37.5 (where erfc is still a normal number), and below it the
// asymptotic series Φ(x) = φ(x)/(-x) · (1 - 1/x² + 3/x⁴ - …), whose
// next term is below 2e-15 of the sum there.
//
//gb:cuda gb_log_phi
func LogPhi(x float64) float64 {
	switch {
	case x > 0:
		return math.Log1p(-0.5 * math.Erfc(x/math.Sqrt2))
	case x > -37.5:
		return math.Log(0.5 * math.Erfc(-x/math.Sqrt2))
	}
	return -0.5*x*x - math.Log(-x) - LnSqrt2Pi + math.Log(millsSeries(x))
}

// DLogPhi is the derivative of LogPhi, φ(x)/Φ(x), without 0/0 in the
// lower tail: √(2/π) e^{-x²/2} / erfc(-x/√2) down to x = -37.5, and
// -x divided by the series of LogPhi below.
//
//gb:cuda gb_dlog_phi
func DLogPhi(x float64) float64 {
	if x > -37.5 {
		return 0.7978845608028654 * math.Exp(-0.5*x*x) / math.Erfc(-x/math.Sqrt2) // √(2/π)
	}
	return -x / millsSeries(x)
}

// millsSeries is 1 - 1/x² + 3/x⁴ - 15/x⁶ + 105/x⁸ - 945/x¹⁰ + 10395/x¹²,
// the asymptotic series of -xΦ(x)/φ(x) for x → -∞.
//
//gb:cuda gb_mills_series
func millsSeries(x float64) float64 {
	t := 1 / (x * x)
	return 1 + t*(-1+t*(3+t*(-15+t*(105+t*(-945+t*10395)))))
}

// Log1mExp is log(1 - eˣ) for x ≤ 0: log(-expm1(x)) near 0, where 1 - eˣ
// is small, and log1p(-eˣ) below -log 2, where eˣ is (Mächler's split).
//
//gb:cuda gb_log1mexp
func Log1mExp(x float64) float64 {
	if x > -math.Ln2 {
		return math.Log(-math.Expm1(x))
	}
	return math.Log1p(-math.Exp(x))
}
