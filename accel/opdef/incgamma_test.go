package opdef_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/opdef"
)

// gammaRefs are log P(a, x), log Q(a, x) and their derivatives in a from
// mpmath (gammainc at 1200 digits where a tail is tiny, mp.diff for the
// derivatives; NaN: not computed): small and large shapes, the far
// tails on both sides, and points on either side of each switch of
// region (x = a+1; x = 1.1 for a < 1).
var gammaRefs = []struct{ a, x, lp, lq, dp, dq float64 }{
	{0.001, 1e-05, -0.010936541856671911484, -4.5211089200801784619, -10.937363513165012654, 994.61641576220438951},
	{0.001, 0.5, -0.00056022355238477664966, -7.4874547519064641949, -0.56067341459268605856, 1000.5226942791022849},
	{0.001, 1.05, -0.00020210713859750641077, -8.5068136639404126729, -0.20234146929747093673, 1001.0582706900783501},
	{0.001, 3, -0.000013073225255450644543, -11.244950829552512659, -0.013098082711951453478, 1001.8948529617184881},
	{0.1, 1e-300, -69.027680348561534626, -1.0511370061117737819e-30, -690.35177295780262839, 7.2565429579081964765e-28},
	{0.1, 0.05, -0.25419747755361262232, -1.4940516821602139987, -2.6129229021864132195, 9.0279352358579495423},
	{0.1, 1.0, -0.024423176211098930564, -3.7244094871979375193, -0.26905855424452401487, 10.882544261896694308},
	{0.1, 1.2, -0.017818978479621556378, -4.0363874424002039154, -0.19809184831020200874, 11.018150830596782417},
	{0.1, 30, -4.4767665800126927276e-16, -35.342460447594416537, -6.2031784963056343133e-15, 13.856381353454540391},
	{0.5, 0.2, -0.7488486120296322476, -0.64038537691559637761, -1.7342837277290267586, 1.5560199639879291254},
	{0.5, 1.6, -0.076490483595622175692, -2.6085904139265484216, -0.22354429156219270838, 2.812163787905032622},
	{1, 1e-10, -23.025850929990456804, -1.0000000000000000364e-10, -23.448635265063923943, 2.3448635266236356561e-9},
	{1, 40, -4.2483542552915890044e-18, -40.0, -1.8227560678493211996e-17, 4.2904992340950977397},
	{1.5, 2.5, -0.18849715979249639297, -1.7614408918243059245, -0.25213936832101010798, 1.215518137589026994},
	{2, 1e-200, -921.72718437817821895, -4.999999999999999821e-401, -461.43980293390760396, 2.3071990146695379372e-398},
	{3, 1000, -2.5430604836311753889e-429, -986.87563662392700614, -1.522268870152935198e-428, 5.9859719418836778847},
	{3, 2.9, -0.59052416584398788593, -0.8075188448123605288, -0.43397202120123085582, 0.53913971224506097203},
	{3, 4.1, -0.25336307270734952419, -1.4969400127554208829, -0.22088578048455668147, 0.76603102963065332556},
	{10, 9, -0.88529665995988917495, -0.53203522502169271116, -0.30789881324355097518, 0.21626613713729339793},
	{10, 11, -0.41628944412807576349, -1.0773088984752506955, -0.17542960484469449593, 0.33976605416436503826},
	{10, 30, -7.1217762226036572321e-6, -11.852356955071915053, -8.5002635258795348065e-6, 1.1935552300070053912},
	{50, 20, -18.20082851673024756, -1.2458926157331799409e-8, -0.93830505990827471813, 1.1690273527272112138e-8},
	{50, 49, -0.77196445325035818369, -0.62009077779902486748, -0.12228890002737496001, 0.10505800255477768899},
	{200, 150, -9.7707609832085637043, -0.000057098515831312139183, -0.30332777116668387364, 0.000017320060014192354693},
	{200, 260, -0.000047501252609645318924, -9.9547782270742944625, -0.000013285590177248801799, 0.27968261695822594764},
	{1000, 1000, -0.68477186329031014615, -0.70159323664597249568, -0.025022972568607591129, 0.025447453499600247332},
	{1000, 1040, -0.10984490166263290589, -2.2631056484770427731, -0.0063338358938502802491, 0.054552677027622376698},
	{1e4, 9900, -1.8410472463668294718, -0.17274895136141594543, -0.015277246485290255631, 0.0028807949162553096251},
	{1e6, 1001500, -0.069201219156853271657, -2.7051378824834647897, math.NaN(), math.NaN()},
}

// relErr is |got-want|/|want| (0 when equal, the absolute difference
// when want is 0).
func relErr(got, want float64) float64 {
	if got == want {
		return 0
	}
	if want == 0 {
		return math.Abs(got)
	}
	return math.Abs(got-want) / math.Abs(want)
}

// centralDiff is the derivative of f at x by central differences with
// Richardson's extrapolation (steps h and h/2, h = 1e-4 of x): error of
// order h⁴, well below the 1e-6 the gradient checks ask.
func centralDiff(f func(float64) float64, x float64) float64 {
	h := 1e-4 * math.Abs(x)
	d1 := (f(x+h) - f(x-h)) / (2 * h)
	d2 := (f(x+h/2) - f(x-h/2)) / h
	return (4*d2 - d1) / 3
}

// TestLogGammaPQ: values against mpmath to 1e-13 relative, far tails
// included (log Q(0.1, 1e-300) = -1.05e-30, log P(3, 1000) = -2.5e-429
// which only log space holds); the derivatives in a to 1e-12.
func TestLogGammaPQ(t *testing.T) {
	for _, c := range gammaRefs {
		lp, lq := opdef.LogGammaP(c.a, c.x), opdef.LogGammaQ(c.a, c.x)
		if e := relErr(lp, c.lp); e > 1e-13 {
			t.Errorf("log P(%v, %v) = %.17g, want %.17g (relative error %.2g)", c.a, c.x, lp, c.lp, e)
		}
		if e := relErr(lq, c.lq); e > 1e-13 {
			t.Errorf("log Q(%v, %v) = %.17g, want %.17g (relative error %.2g)", c.a, c.x, lq, c.lq, e)
		}
		if math.IsNaN(c.dp) {
			continue
		}
		dp, dq := opdef.DLogGammaP(c.a, c.x), opdef.DLogGammaQ(c.a, c.x)
		if e := relErr(dp, c.dp); e > 1e-12 {
			t.Errorf("∂log P(%v, %v)/∂a = %.17g, want %.17g (relative error %.2g)", c.a, c.x, dp, c.dp, e)
		}
		if e := relErr(dq, c.dq); e > 1e-12 {
			t.Errorf("∂log Q(%v, %v)/∂a = %.17g, want %.17g (relative error %.2g)", c.a, c.x, dq, c.dq, e)
		}
	}
}

// TestLogGammaClosedForms: P(1, x) = 1 - e^-x (the exponential) and
// P(½, x) = erf(√x) (the half-normal), in both tails, to 1e-13 (log P
// at x = 700 is -Q = -e^(log Q), and log Q = -703.8 holds 1e-16 of
// itself: 7e-14 of Q).
func TestLogGammaClosedForms(t *testing.T) {
	for _, x := range []float64{1e-12, 1e-3, 0.3, 1, 1.05, 1.5, 2, 7, 30, 700} {
		for _, c := range []struct {
			a      float64
			lp, lq float64
		}{
			{1, opdef.Log1mExp(-x), -x},
			{0.5, math.Log(math.Erf(math.Sqrt(x))), math.Log(math.Erfc(math.Sqrt(x)))},
		} {
			// Of erf and erfc, the log of the one near 1 is log1p of
			// the other.
			if c.a == 0.5 && x > 0.25 {
				c.lp = math.Log1p(-math.Erfc(math.Sqrt(x)))
			} else if c.a == 0.5 {
				c.lq = math.Log1p(-math.Erf(math.Sqrt(x)))
			}
			if e := relErr(opdef.LogGammaP(c.a, x), c.lp); e > 1e-13 {
				t.Errorf("log P(%v, %v) = %.17g, want %.17g", c.a, x, opdef.LogGammaP(c.a, x), c.lp)
			}
			if e := relErr(opdef.LogGammaQ(c.a, x), c.lq); e > 1e-13 {
				t.Errorf("log Q(%v, %v) = %.17g, want %.17g", c.a, x, opdef.LogGammaQ(c.a, x), c.lq)
			}
		}
	}
}

// TestLogGammaGradients: the derivatives in a against central
// differences of the values, to 1e-6 relative, at random shapes from
// 1e-3 to 1e5 and points around the centre and in both tails; P and Q
// sum to one (log-sum-exp 0 to 1e-14); and the switches between the
// series, the small-shape form and the continued fraction leave no step
// (the values on either side agree to 1e-13).
func TestLogGammaGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	for range 3000 {
		a := math.Exp(math.Log(1e-3) + rng.Float64()*math.Log(1e8))
		x := a * math.Exp(rng.NormFloat64()*3/math.Sqrt(max(a, 1)))
		if rng.Float64() < 0.25 {
			x = math.Exp(math.Log(1e-6) + rng.Float64()*math.Log(1e9))
		}
		lp, lq := opdef.LogGammaP(a, x), opdef.LogGammaQ(a, x)
		if s := opdef.LogAddExp(lp, lq); math.Abs(s) > 1e-14 || math.IsNaN(s) {
			t.Errorf("a=%v x=%v: log P = %v, log Q = %v, log(P+Q) = %v", a, x, lp, lq, s)
		}
		if lp < -700 || lq < -700 {
			continue // a tail below e^-700: its derivative is beyond the differences' reach
		}
		for _, f := range []struct {
			name string
			val  func(a, x float64) float64
			der  func(a, x float64) float64
		}{{"P", opdef.LogGammaP, opdef.DLogGammaP}, {"Q", opdef.LogGammaQ, opdef.DLogGammaQ}} {
			d := f.der(a, x)
			fd := centralDiff(func(a float64) float64 { return f.val(a, x) }, a)
			if math.Abs(d-fd) > 1e-6*math.Abs(fd) && math.Abs(d-fd) > 1e-12 {
				t.Errorf("∂log %s(%v, %v)/∂a = %.12g, central difference %.12g", f.name, a, x, d, fd)
			}
		}
	}
	// Each switch, approached from both sides: values to 1e-13, the
	// derivatives (digamma at a on one side, at a+1 on the other) to 1e-12.
	lg, _ := math.Lgamma(1.5)
	for _, c := range []struct{ a, x float64 }{
		{3, 4},       // x = a+1: the series below, the fraction above
		{30, 31},     // the same with Stirling's prefactor
		{0.5, 1.1},   // x = 1.1 for a < 1
		{0.999, 1.1}, // a = 1 and x = 1.1
		{0.5, math.Exp((math.Log(0.7) + lg) / 0.5)}, // x^a/Γ(a+1) = 0.7: the series and the small-shape form
	} {
		for k, f := range []func(a, x float64) float64{opdef.LogGammaP, opdef.LogGammaQ, opdef.DLogGammaP, opdef.DLogGammaQ} {
			tol := 1e-13
			if k >= 2 {
				tol = 1e-12
			}
			below, above := f(c.a, c.x*(1-1e-15)), f(c.a, c.x*(1+1e-15))
			if math.Abs(below-above) > tol*math.Abs(below) {
				t.Errorf("a=%v: function %d steps at x = %v: %.17g below, %.17g above", c.a, k, c.x, below, above)
			}
		}
	}
}
