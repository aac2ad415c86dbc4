package opdef

import "math"

// The regularized incomplete beta function I_x(a, b) in log space, with
// its derivatives in the shapes a and b: the CDF of the beta family
// (and, by I_{1-x}(b, a) = 1 - I_x(a, b), its CCDF), and of Student's t
// at x = ν/(ν+z²) with shapes ν/2 and ½. cmd/genops translates these
// functions (marked //gb:cuda) into accel/cuda/cgen's device_gen.cu
// (gb_log_inc_beta, …), so the CUDA C is this algorithm step for step.
//
// The caller gives both x and y = 1 - x: Student's t computes y =
// z²/(ν+z²) without the cancellation of 1 - x near x = 1, which is where
// its CDF is decided. Below x = (a+1)/(a+b+2) (about the mean) log I is
// computed directly, by
//
//	I_x(a, b) = x^a y^b / (a B(a, b)) · h,
//
// h the continued fraction 1/(1+ d₁/(1+ d₂/(1+ …))) of DLMF 8.17.22
// (Numerical Recipes' betacf) by the modified Lentz method, which
// converges fast there; above it log(1 - I) = log I_y(b, a) is computed
// the same way and log I = log1p(-(1-I)) (Log1mExp). The smaller tail is
// then direct in the far tails on both sides, where accuracy is hard.
//
// The derivatives in a and b differentiate the same recurrences (forward
// mode, each of the Lentz method's quantities carried with its two
// partials): the coefficients dₘ are rational in a and b, and where the
// convergents converge uniformly their derivatives converge to the
// derivative of the limit. That costs one pass of the fraction, as the
// value does, where a series for ∂I/∂a (Stan's inc_beta_dda, a
// hypergeometric sum) needs its own tuning of terms and thresholds, and
// quadrature of ∫ log t · t^(a-1)(1-t)^(b-1) dt is costly near the
// singular ends for small shapes. As for the incomplete gamma, the
// number of steps grows as √max(a, b); maxTerms stops it.
//
// The prefactor's log, a log x + b log y - log B(a, b), is for large
// shapes a small difference of large terms: log B is taken by Stirling's
// series where a shape is 10 or more (lbetaStirling), and with both that
// large near the centre the whole prefactor is a·log1pmx(…) +
// b·log1pmx(…) + ½ log(ab/(2π(a+b))) - δ(a) - δ(b) + δ(a+b). log x and
// log y are each taken from the smaller of x and y (log1p(-y) for
// x > ½), so that Student's t with a large ν keeps the digits of its y.
// The fraction itself reads x: near x = 1 with a large a its steps
// 1 + dₘ(…), dₘ ≈ -x, lose what the double nearest x cannot hold, about
// 1e-16·a of log I (2e-11 for Student's t at ν = 10⁶, 1e-14 at ν = 100).

// LogIncBeta is log I_x(a, b) given x and y = 1 - x: -Inf at x ≤ 0, 0 at
// y ≤ 0, NaN for a or b not positive. log(1 - I_x(a, b)) is
// LogIncBeta(b, a, y, x).
//
//gb:cuda gb_log_inc_beta
func LogIncBeta(a, b, x, y float64) float64 {
	l, _, _ := incBeta(a, b, x, y, false)
	return l
}

// DLogIncBetaA is ∂ log I_x(a, b)/∂a given x and y = 1 - x (0 at x ≤ 0
// and y ≤ 0).
//
//gb:cuda gb_dlog_inc_beta_a
func DLogIncBetaA(a, b, x, y float64) float64 {
	_, da, _ := incBeta(a, b, x, y, true)
	return da
}

// DLogIncBetaB is ∂ log I_x(a, b)/∂b given x and y = 1 - x.
//
//gb:cuda gb_dlog_inc_beta_b
func DLogIncBetaB(a, b, x, y float64) float64 {
	_, _, db := incBeta(a, b, x, y, true)
	return db
}

// incBeta is log I_x(a, b) and, when deriv is set, its partials in a and b.
//
//gb:cuda gb_inc_beta
func incBeta(a, b, x, y float64, deriv bool) (l, da, db float64) {
	switch {
	case math.IsNaN(a) || math.IsNaN(b) || math.IsNaN(x) || math.IsNaN(y) ||
		!(a > 0) || !(b > 0) || math.IsInf(a, 1) || math.IsInf(b, 1):
		nan := math.NaN()
		return nan, nan, nan
	case x <= 0:
		return math.Inf(-1), 0, 0
	case y <= 0:
		return 0, 0, 0
	}
	if x*(a+b+2) < a+1 {
		return incBetaDirect(a, b, x, y, deriv)
	}
	lc, cb, ca := incBetaDirect(b, a, y, x, deriv) // log(1-I) and its partials in b, a
	l, da = otherTail(lc, ca)
	_, db = otherTail(lc, cb)
	return l, da, db
}

// incBetaDirect is log I_x(a, b) = a log x + b log y - log(a B(a, b)) +
// log h and its partials, ∂a = log x - ψ(a+1) + ψ(a+b) + ∂a log h and
// ∂b = log y - ψ(b) + ψ(a+b) + ∂b log h, h by the modified Lentz method
// with d₁ = -(a+b)x/(a+1) and for m ≥ 1
//
//	d₂ₘ   = m(b-m)x / ((a+2m-1)(a+2m)),
//	d₂ₘ₊₁ = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)).
//
//gb:cuda gb_inc_beta_direct
func incBetaDirect(a, b, x, y float64, deriv bool) (l, da, db float64) {
	// The first step: h = 1/(1 + d₁) = 1/D with D = 1 - (a+b)x/(a+1),
	// ∂a D = -x(1-b)/(a+1)², ∂b D = -x/(a+1); D > 0 below the switch.
	bigD := 1 - (a+b)*x/(a+1)
	if x > 0.5 {
		bigD = (1 - b + (a+b)*y) / (a + 1) // the same, without cancellation near x = 1
	}
	var s betaFraction
	s.d = 1 / bigD
	s.dla = x * (1 - b) / ((a + 1) * (a + 1)) / bigD // ∂log d = -∂D/D
	s.dlb = x / (a + 1) / bigD
	s.c = 1
	s.h, s.hla, s.hlb = s.d, s.dla, s.dlb
	for m := 1; m < maxTerms; m++ {
		fm := float64(m)
		e1, e2 := a+2*fm-1, a+2*fm
		aa := fm * (b - fm) * x / (e1 * e2)
		s.step(aa, -aa*(1/e1+1/e2), fm*x/(e1*e2))
		o1, o2, o3, o4 := a+fm, a+b+fm, a+2*fm, a+2*fm+1
		aa = -o1 * o2 * x / (o3 * o4)
		del := s.step(aa, aa*(1/o1+1/o2-1/o3-1/o4), aa/o2)
		if math.Abs(del-1) <= cfEps && (!deriv ||
			math.Abs(s.dla+s.cla) <= cfEps*(1+math.Abs(s.hla)+math.Abs(s.dla)) &&
				math.Abs(s.dlb+s.clb) <= cfEps*(1+math.Abs(s.hlb)+math.Abs(s.dlb))) {
			break
		}
	}
	logx, logy := math.Log(x), math.Log(y)
	if x > 0.5 {
		logx = math.Log1p(-y)
	} else {
		logy = math.Log1p(-x)
	}
	l = betaPrefix(a, b, x, y, logx, logy) - math.Log(a) + math.Log(s.h)
	if deriv {
		psiAB := Digamma(a + b)
		da = logx - Digamma(a+1) + psiAB + s.hla
		db = logy - Digamma(b) + psiAB + s.hlb
	}
	return l, da, db
}

// betaFraction is the state of incBetaDirect's continued fraction by the
// modified Lentz method: d, c and the value h so far, each with the
// partials of its log in a and b.
//
//gb:cuda gb_beta_cf
type betaFraction struct {
	d, dla, dlb float64
	c, cla, clb float64
	h, hla, hlb float64
}

// step takes the Lentz method one coefficient on, aa with partials aaa,
// aab: D = 1 + aa d, C = 1 + aa/c, d ← 1/D, c ← C, h ← h d c. It returns
// the step's factor d c.
//
//gb:cuda gb_beta_cf_step
func (s *betaFraction) step(aa, aaa, aab float64) float64 {
	bigD := 1 + aa*s.d
	dDa, dDb := s.d*(aaa+aa*s.dla), s.d*(aab+aa*s.dlb)
	if math.Abs(bigD) < tiny {
		bigD = tiny
	}
	s.d, s.dla, s.dlb = 1/bigD, -dDa/bigD, -dDb/bigD
	bigC := 1 + aa/s.c
	dCa, dCb := (aaa-aa*s.cla)/s.c, (aab-aa*s.clb)/s.c
	if math.Abs(bigC) < tiny {
		bigC = tiny
	}
	s.c, s.cla, s.clb = bigC, dCa/bigC, dCb/bigC
	del := s.d * s.c
	s.h *= del
	s.hla += s.dla + s.cla
	s.hlb += s.dlb + s.clb
	return del
}

// betaPrefix is log(x^a y^b / B(a, b)) (see above).
//
//gb:cuda gb_beta_prefix
func betaPrefix(a, b, x, y, logx, logy float64) float64 {
	if a >= 10 && b >= 10 {
		c := a + b
		t1, t2 := (x*c-a)/a, (y*c-b)/b
		if math.Abs(t1) <= 0.5 && math.Abs(t2) <= 0.5 {
			return a*log1pmx(t1) + b*log1pmx(t2) + 0.5*math.Log(a*b/(2*math.Pi*c)) -
				stirlingErr(a) - stirlingErr(b) + stirlingErr(c)
		}
	}
	return a*logx + b*logy - lbetaStirling(a, b)
}

// lbetaStirling is log B(a, b): lgamma's where both shapes are below
// 10; with one below, lgamma of it and the difference lgamma(hi) -
// lgamma(lo+hi) = -((hi-½) log1p(lo/hi) + lo log(lo+hi) - lo) + δ(hi) -
// δ(lo+hi); with both at 10 or more Stirling's formula for all three.
//
//gb:cuda gb_lbeta_stirling
func lbetaStirling(a, b float64) float64 {
	lo, hi := min(a, b), max(a, b)
	c := lo + hi
	switch {
	case hi < 10:
		return LGamma(a) + LGamma(b) - LGamma(c)
	case lo < 10:
		return LGamma(lo) - ((hi-0.5)*math.Log1p(lo/hi) + lo*math.Log(c) - lo) + stirlingErr(hi) - stirlingErr(c)
	}
	return lo*math.Log(lo/c) + hi*math.Log(hi/c) + 0.5*math.Log(c/(lo*hi)) + 0.5*math.Log(2*math.Pi) +
		stirlingErr(lo) + stirlingErr(hi) - stirlingErr(c)
}
