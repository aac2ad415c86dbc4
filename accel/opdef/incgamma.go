package opdef

import "math"

// The regularized incomplete gamma functions P(a, x) = γ(a, x)/Γ(a) and
// Q(a, x) = 1 - P(a, x) in log space, with their derivatives in the
// shape a: the CDF and CCDF of the gamma (P and Q at βy) and inverse
// gamma (Q and P at β/y) families. cmd/genops translates these functions
// (marked //gb:cuda) into accel/cuda/cgen's device_gen.cu
// (gb_log_gamma_p, …), so the CUDA C is this algorithm step for step.
//
// The smaller tail is computed directly and the other as log1p(-it)
// (Log1mExp), so that each stays accurate however small it is:
//
//   - x < a+1 (for a < 1 and x < 1.1 only while x^a/Γ(a+1) < 0.7): P
//     by its series x^a e^-x/Γ(a+1) · Σ xⁿ/((a+1)…(a+n)), whose terms all
//     have one sign; P ≤ 0.87 there (at a = 1, x = 2), so Q = 1 - P
//     loses no digits;
//   - a < 1 and x < 1.1 with x^a/Γ(a+1) ≥ 0.7: Q by the small-shape form
//     Q = -expm1(a log x - lgamma(a+1)) - x^a/Γ(a) · Σ_{n≥1} (-x)ⁿ/(n!(a+n))
//     (DLMF 8.7.3 regrouped, as Temme and DiDonato–Morris do), where Q
//     is small (of order a) but P ≥ 0.23;
//   - otherwise Q by Legendre's continued fraction (DLMF 8.9.2, in the
//     even form of Numerical Recipes' gcf, evaluated by the modified
//     Lentz method), which converges fast for x ≥ a+1.
//
// The derivatives in a are taken by differentiating those same sums and
// the continued fraction's recurrences (forward mode: each quantity is
// carried with its derivative in a). Why not quadrature of the integral
// ∫ log t · t^(a-1) e^-t dt: its integrand has a log singularity at 0
// for small a and a sharp peak for large a, and a rule that is accurate
// to 1e-15 across both costs hundreds of evaluations where the
// differentiated series needs as many terms as the value. Why not
// gonum's mathext.GammaIncReg: it gives values only, and not in log
// space (P underflows at x^a < 1e-308). A term-by-term derivative of a
// series converges with it (each term gains a factor Σ 1/(a+k), of order
// log n); the convergents of a continued fraction are rational in a, and
// where they converge uniformly near a (x > 0) so do their derivatives.
//
// The log of the prefactor x^a e^-x/Γ(a) is, near the centre of a large
// shape, a small difference of terms of order a log a (at a = 1e6 it
// lost 1e-9 of log P): for a ≥ 10 and |x-a| ≤ a/2 it is computed as
// a·log1pmx((x-a)/a) + ½ log(a/2π) - δ(a), with Stirling's series δ for
// the remainder of lgamma (gammaPrefix), which keeps log P and log Q to
// 1e-14 relative at a = 1e6. The derivatives read Digamma (digamma.go).
//
// The number of terms grows as √a near the centre (about 9√a at 1e-16),
// so shapes up to 1e6 cost at most some thousands of terms; maxTerms
// stops the loops beyond (the result is then not accurate).

// LogGammaP is log P(a, x), the log of the regularized lower incomplete
// gamma function: -Inf at x ≤ 0, 0 at x = +Inf, NaN for a ≤ 0.
//
//gb:cuda gb_log_gamma_p
func LogGammaP(a, x float64) float64 {
	lp, _, _, _ := gammaTails(a, x, false)
	return lp
}

// LogGammaQ is log Q(a, x) = log(1 - P(a, x)): 0 at x ≤ 0, -Inf at
// x = +Inf, NaN for a ≤ 0.
//
//gb:cuda gb_log_gamma_q
func LogGammaQ(a, x float64) float64 {
	_, lq, _, _ := gammaTails(a, x, false)
	return lq
}

// DLogGammaP is ∂ log P(a, x)/∂a (0 at x ≤ 0 and x = +Inf).
//
//gb:cuda gb_dlog_gamma_p
func DLogGammaP(a, x float64) float64 {
	_, _, dp, _ := gammaTails(a, x, true)
	return dp
}

// DLogGammaQ is ∂ log Q(a, x)/∂a.
//
//gb:cuda gb_dlog_gamma_q
func DLogGammaQ(a, x float64) float64 {
	_, _, _, dq := gammaTails(a, x, true)
	return dq
}

const (
	// seriesEps ends a series when a term is below it relative to the
	// sum; cfEps ends a continued fraction when a step changes the value
	// by less (above 2 ulps of 1: a converged step can round to 1 ± ulp).
	seriesEps = 1e-17
	cfEps     = 1e-15
	// tiny replaces a zero denominator in the Lentz method.
	tiny = 1e-300
	// maxTerms bounds the loops (see the package comment above).
	maxTerms = 100000
	// ln07 is log 0.7, the switch of the small-shape form of Q.
	ln07 = -0.35667494393873238
)

// gammaTails is log P(a, x), log Q(a, x) and, when deriv is set, their
// derivatives in a.
//
//gb:cuda gb_gamma_tails
func gammaTails(a, x float64, deriv bool) (lp, lq, dp, dq float64) {
	switch {
	case math.IsNaN(a) || math.IsNaN(x) || !(a > 0) || math.IsInf(a, 1):
		nan := math.NaN()
		return nan, nan, nan, nan
	case x <= 0:
		return math.Inf(-1), 0, 0, 0
	case math.IsInf(x, 1):
		return 0, math.Inf(-1), 0, 0
	}
	logx := math.Log(x)
	if a < 1 && x < 1.1 {
		if u := a*logx - lgamma1p(a); u >= ln07 {
			lq, dq = gammaQSmallShape(a, x, logx, u, deriv)
			lp, dp = otherTail(lq, dq)
			return lp, lq, dp, dq
		}
		lp, dp = gammaPSeries(a, x, logx, deriv)
		lq, dq = otherTail(lp, dp)
		return lp, lq, dp, dq
	}
	if x < a+1 {
		lp, dp = gammaPSeries(a, x, logx, deriv)
		lq, dq = otherTail(lp, dp)
		return lp, lq, dp, dq
	}
	lq, dq = gammaQFraction(a, x, logx, deriv)
	lp, dp = otherTail(lq, dq)
	return lp, lq, dp, dq
}

// otherTail is log(1 - eˡ) and its derivative, from l and its derivative
// d: ∂log(1-eˡ) = -eˡ/(1-eˡ) ∂l.
//
//gb:cuda gb_other_tail
func otherTail(l, d float64) (float64, float64) {
	o := Log1mExp(l)
	return o, -math.Exp(l-o) * d
}

// gammaPSeries is log P and ∂log P/∂a by the series
// P = x^a e^-x/Γ(a+1) · S, S = Σ tₙ, t₀ = 1, tₙ = tₙ₋₁ x/(a+n);
// ∂tₙ/∂a = -tₙ Hₙ with Hₙ = Σ_{k≤n} 1/(a+k).
//
//gb:cuda gb_gamma_p_series
func gammaPSeries(a, x, logx float64, deriv bool) (lp, dp float64) {
	s, ds := 1.0, 0.0
	t, h := 1.0, 0.0
	for n := 1; n < maxTerms; n++ {
		an := a + float64(n)
		t *= x / an
		h += 1 / an
		s += t
		ds -= t * h
		if t <= seriesEps*s && (!deriv || t*h <= -seriesEps*ds) {
			break
		}
	}
	lp = gammaPrefix(a, x, logx) - math.Log(a) + math.Log(s)
	if deriv {
		dp = logx - Digamma(a+1) + ds/s
	}
	return lp, dp
}

// gammaQSmallShape is log Q and ∂log Q/∂a for a < 1, x < 1.1 by
// Q = -expm1(u) - e^v T with u = a log x - lgamma(1+a) (lgamma1p: Q is
// of order a, and 1+a rounded would cost it digits), e^v = x^a/Γ(a) =
// a eᵘ and T = Σ_{n≥1} (-x)ⁿ/(n!(a+n)); in a, ∂u = log x - ψ(a+1),
// ∂v = ∂u + 1/a and ∂T = -Σ (-x)ⁿ/(n!(a+n)²), so
// ∂Q = -eᵘ ∂u - e^v (∂u T + ∂T) - eᵘ T.
//
//gb:cuda gb_gamma_q_small
func gammaQSmallShape(a, x, logx, u float64, deriv bool) (lq, dq float64) {
	var sum, dsum float64
	p := 1.0 // (-x)ⁿ/n!
	for n := 1; n < maxTerms; n++ {
		p *= -x / float64(n)
		an := a + float64(n)
		term := p / an
		sum += term
		dsum -= term / an
		if math.Abs(term) <= seriesEps*math.Abs(sum) {
			break
		}
	}
	eu := math.Exp(u)
	ev := a * eu
	q := -math.Expm1(u) - ev*sum
	lq = math.Log(q)
	if deriv {
		du := logx - Digamma(a+1)
		dq = (-eu*du - ev*(du*sum+dsum) - eu*sum) / q
	}
	return lq, dq
}

// gammaQFraction is log Q and ∂log Q/∂a by the continued fraction
// Q = x^a e^-x/Γ(a) · h, h = 1/(b₀ - 1(1-a)/(b₁ - 2(2-a)/(b₂ - …))),
// bᵢ = x + 2i + 1 - a, by the modified Lentz method: h is the product
// of the steps dᵢcᵢ, and ∂log h/∂a the sum of ∂log dᵢ + ∂log cᵢ, each
// carried through the recurrences D = bᵢ + aᵢ d, C = bᵢ + aᵢ/c with
// aᵢ = -i(i-a), ∂aᵢ = i, ∂bᵢ = -1.
//
//gb:cuda gb_gamma_q_fraction
func gammaQFraction(a, x, logx float64, deriv bool) (lq, dq float64) {
	b := x + 1 - a
	c, cl := 1/tiny, 0.0 // c and ∂log c
	d := 1 / b
	dl := 1 / b // ∂log d = -∂b/b
	h, hl := d, dl
	for i := 1; i < maxTerms; i++ {
		fi := float64(i)
		an := -fi * (fi - a)
		b += 2
		bigD := an*d + b
		dD := fi*d + an*d*dl - 1
		if math.Abs(bigD) < tiny {
			bigD = tiny
		}
		d, dl = 1/bigD, -dD/bigD
		bigC := b + an/c
		dC := -1 + (fi-an*cl)/c
		if math.Abs(bigC) < tiny {
			bigC = tiny
		}
		c, cl = bigC, dC/bigC
		del := d * c
		h *= del
		hl += dl + cl
		if math.Abs(del-1) <= cfEps && (!deriv || math.Abs(dl+cl) <= cfEps*(1+math.Abs(hl)+math.Abs(dl))) {
			break
		}
	}
	lq = gammaPrefix(a, x, logx) + math.Log(h)
	if deriv {
		dq = logx - Digamma(a) + hl
	}
	return lq, dq
}

// gammaPrefix is log(x^a e^-x/Γ(a)) = a log x - x - lgamma(a), by
// Stirling's formula near the centre of a large shape (see above).
//
//gb:cuda gb_gamma_prefix
func gammaPrefix(a, x, logx float64) float64 {
	if t := (x - a) / a; a >= 10 && math.Abs(t) <= 0.5 {
		return a*log1pmx(t) + 0.5*math.Log(a/(2*math.Pi)) - stirlingErr(a)
	}
	return a*logx - x - LGamma(a)
}

// log1pmx is log(1+t) - t for |t| ≤ ½, by log(1+t) = 2 atanh(u),
// u = t/(2+t): log(1+t) - t = -tu + 2(u³/3 + u⁵/5 + …), |u| ≤ ⅓.
//
//gb:cuda gb_log1pmx
func log1pmx(t float64) float64 {
	u := t / (2 + t)
	u2 := u * u
	sum, p := 0.0, 2*u*u2
	for k := 3.0; k < 200; k += 2 {
		term := p / k
		sum += term
		if math.Abs(term) <= seriesEps*math.Abs(sum) {
			break
		}
		p *= u2
	}
	return -t*u + sum
}

// stirlingErr is δ(a) = lgamma(a) - ((a-½) log a - a + ½ log 2π) for
// a ≥ 10, by Stirling's series to the term in a⁻¹³ (the next is below
// 3e-17 at a = 10).
//
//gb:cuda gb_stirling_err
func stirlingErr(a float64) float64 {
	z := 1 / a
	z2 := z * z
	return z * (1.0/12 - z2*(1.0/360-z2*(1.0/1260-z2*(1.0/1680-z2*(1.0/1188-z2*(691.0/360360-z2/156))))))
}

// zeta are ζ(2) … ζ(25), for lgamma1p.
var zeta = [...]float64{
	1.64493406684822643647, 1.2020569031595942854, 1.08232323371113819152, 1.03692775514336992633,
	1.01734306198444913971, 1.00834927738192282684, 1.00407735619794433938, 1.00200839282608221442,
	1.00099457512781808534, 1.00049418860411946456, 1.0002460865533080483, 1.00012271334757848915,
	1.00006124813505870483, 1.00003058823630702049, 1.00001528225940865187, 1.00000763719763789976,
	1.00000381729326499984, 1.00000190821271655394, 1.0000009539620338728, 1.00000047693298678781,
	1.00000023845050272773, 1.00000011921992596531, 1.00000005960818905126, 1.00000002980350351465,
}

// eulerGamma is Euler's constant γ.
const eulerGamma = 0.577215664901532860606512090082

// lgamma1p is lgamma(1+a) for a ≥ 0 without rounding 1+a: below 0.2 by
// its Taylor series -γa + Σ_{k≥2} ζ(k)(-a)ᵏ/k (DLMF 5.7.3; the term in
// a²⁵ is below 1e-18 of the sum), lgamma(1+a) above.
//
//gb:cuda gb_lgamma1p
func lgamma1p(a float64) float64 {
	if a >= 0.2 {
		return LGamma(1 + a)
	}
	sum := 0.0
	for k := len(zeta) - 1; k >= 0; k-- { // Horner: Σ ζ(k+2)/(k+2) (-a)ᵏ
		sum = sum*(-a) + zeta[k]/float64(k+2)
	}
	return a * (-eulerGamma + a*sum)
}
