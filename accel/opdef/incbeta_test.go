package opdef_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/opdef"
)

// betaRefs are log I_x(a, b), log(1 - I_x(a, b)) and the derivatives of
// each in a and b from mpmath (betainc at 600 digits, mp.diff; NaN: not
// computed), y = 1 - x exactly: small shapes with their mass at the
// ends, large ones, and the far tails on both sides.
var betaRefs = []struct{ a, b, x, li, lc, da, db, ca, cb float64 }{
	{0.05, 0.05, 0.3, -0.73351442848100549905, -0.65434641712283885517, -10.826327996081557976, 10.055884172994382879, 10.002278665914359671, -9.2904774145815439093},
	{0.05, 0.05, 1e-200, -23.715164406755722816, -5.0192053090595955498e-11, -470.44292854792034269, 10.074090050888793024, 2.3612496446365237336e-8, -5.0563926268634434688e-10},
	{0.1, 10, 0.05, -0.061644860530225685728, -2.8170295163754761847, -0.6567647911618270123, 0.0066696903264355431426, 10.328998490979526752, -0.10489481507555215118},
	{0.1, 10, 0.5, -0.000022297721050713410966, -10.711037228595551669, -0.00026919410302329998499, 0.000017315004732084864684, 12.07258361581897017, -0.77652831205705340631},
	{0.5, 0.5, 1e-12, -14.267093263253562312, -6.3661997501014072884e-7, -28.244726754808435387, 1.3862943611195572855, 0.000017981162964397550614, -8.8254296245484111123e-7},
	{0.5, 0.5, 0.999, -0.020340514397558021779, -3.9052936169690370665, -0.028479822498270257402, 0.15455237102501740978, 1.3859608832542206072, -7.5212386126309933561},
	{1, 1, 0.3, -1.2039728043259360296, -0.35667494393873236305, -1.2039728043259360296, 0.83224153585704222445, 0.51598834471111541399, -0.35667494393873236305},
	{2, 3, 0.4, -0.64473804135225769317, -0.7440195109337019609, -0.4589736587034233121, 0.2979122263978634985, 0.50688000018425208596, -0.32900744194780889744},
	{2, 3, 1e-100, -458.72525912958108176, -6.0000000000000002399e-200, -229.67517596607123505, 0.58333333333333333333, 1.3780510557964274654e-197, -3.5000000000000001399e-200},
	{2, 3, 0.999999, -3.9999970003450676371e-18, -40.060238062686945972, -4.3333270837083562708e-18, 5.4262001789891418764e-17, 1.0833325833330708117, -13.565510620435565316},
	{0.3, 4, 0.2, -0.11725536209372028879, -2.2014560197293121965, -0.45821608983889289803, 0.042469553487598017248, 3.6832159255625059373, -0.34137722185191702458},
	{5, 0.2, 0.9, -2.0832846155464113828, -0.1329835857396899944, -0.20157680598056497096, 5.1668375017668630987, 0.028670520943704838852, -0.73488575278551125436},
	{5, 0.2, 0.5, -5.8529608566539837859, -0.0028755151343691830616, -0.83296956261789153955, 6.2826612959054047088, 0.0023986636277621675843, -0.018091886921623908302},
	{20, 30, 0.4, -0.67786416376975995082, -0.70866739777899878816, -0.13743370452014946916, 0.091368250153386418823, 0.14173298298322996931, -0.094226483157185090031},
	{20, 30, 0.9, -2.7314997305471276865e-18, -40.44168086368567636, -2.2669177539559571453e-18, 4.9732137621207735357e-18, 0.82991688727052762171, -1.8206898234343313364},
	{300, 500, 0.37, -0.94865776284016779681, -0.48981534388393704946, -0.045381058433768257046, 0.026933165539577649502, 0.028681501958900809685, -0.017022160056275537655},
	{300, 500, 0.3, -12.717410738269364169, -2.9984674823489168979e-6, -0.23292529962484675429, 0.11827449949128206981, 6.9841998383576336211e-7, -3.5464277240784754739e-7},
	{2.5, 0.5, 0.999, -0.05515088817768839543, -2.9251311417640274203, -0.012434002297705368814, 0.34145492431140366309, 0.21929439450086729392, -6.0221277979036001765},
	{500, 0.5, 0.999, -1.1478746552819607512, -0.3817150576041235981, -0.0015258980709662814052, 2.0388810068871939743, 0.00070922925001461938124, -0.94766097087202516818},
	{0.5, 50, 0.02, -0.16989134244493163477, -1.8563395408812010035, -0.45710833297445031944, 0.0049316719640173529875, 2.4685065563436341684, -0.02663234007942132773},
	{1e4, 1e4, 0.505, -0.081912046754769496333, -2.5427856809491094794, math.NaN(), math.NaN(), math.NaN(), math.NaN()},
}

// studentTRefs are log I_x(ν/2, ½), the log of P(|T| > |z|) for T
// Student's t with ν degrees of freedom at x = ν/(ν+z²), and its
// complement, by mpmath's quadrature of the t density at 40 digits; y
// is z²/(ν+z²), the y the t's tails give. Large ν, where the fraction
// has most to do.
var studentTRefs = []struct{ a, x, y, li, lc float64 }{
	{500, 0.984251968503937, 0.015748031496062992, -9.59585699270889, -6.801223198819886e-05},
	{500, 0.999000999000999, 0.000999000999000999, -1.1471123779466135, -0.38206955792699276},
	{500, 0.9997500624843789, 0.00024993751562109475, -0.4825863311218475, -0.9602036463745904},
	{50000, 0.9998400255959047, 0.00015997440409534473, -9.66623602742105, -6.3390006661215e-05},
	{50000, 0.99999990000001, 9.9999990000001e-08, -0.0830071943597143, -2.530044518141788},
	{500000, 0.9999840002559959, 1.5999744004095935e-05, -9.666882471392652, -6.334904051814504e-05},
	{500000, 0.999999000001, 9.99999000001e-07, -1.1478737018821614, -0.3817155007395529},
}

// TestLogIncBeta: values against mpmath to 1e-13 relative (the Student
// t's at ν = 10⁵ and 10⁶ to 2e-11: there x lies within 1.6e-4 of 1, and
// the fraction's steps 1 + dₘ(…), dₘ ≈ -x, lose what the double nearest
// x cannot hold, about 1e-16·ν of log I);
// the derivatives to 2e-12 (1.1e-12 lost at a = 500, x = 0.999).
func TestLogIncBeta(t *testing.T) {
	for _, c := range betaRefs {
		y := 1 - c.x
		got := []float64{
			opdef.LogIncBeta(c.a, c.b, c.x, y), opdef.LogIncBeta(c.b, c.a, y, c.x),
			opdef.DLogIncBetaA(c.a, c.b, c.x, y), opdef.DLogIncBetaB(c.a, c.b, c.x, y),
			opdef.DLogIncBetaB(c.b, c.a, y, c.x), opdef.DLogIncBetaA(c.b, c.a, y, c.x),
		}
		want := []float64{c.li, c.lc, c.da, c.db, c.ca, c.cb}
		names := []string{"log I", "log(1-I)", "∂a log I", "∂b log I", "∂a log(1-I)", "∂b log(1-I)"}
		for k := range got {
			tol := 1e-13
			if k >= 2 {
				tol = 2e-12
			}
			if math.IsNaN(want[k]) {
				continue
			}
			if e := relErr(got[k], want[k]); e > tol {
				t.Errorf("%s at a=%v b=%v x=%v = %.17g, want %.17g (relative error %.2g)", names[k], c.a, c.b, c.x, got[k], want[k], e)
			}
		}
	}
	for _, c := range studentTRefs {
		tol := 1e-13
		if c.a > 1e4 {
			tol = 2e-11
		}
		if li := opdef.LogIncBeta(c.a, 0.5, c.x, c.y); relErr(li, c.li) > tol {
			t.Errorf("log I_%v(%v, ½) = %.17g, want %.17g", c.x, c.a, li, c.li)
		}
		if lc := opdef.LogIncBeta(0.5, c.a, c.y, c.x); relErr(lc, c.lc) > tol {
			t.Errorf("log I_%v(½, %v) = %.17g, want %.17g", c.y, c.a, lc, c.lc)
		}
	}
}

// TestLogIncBetaClosedForms: I_x(1, 1) = x (the uniform), I_x(a, 1) = x^a
// with ∂a log I = log x, I_x(1, b) = 1 - (1-x)^b with ∂b log(1-I) =
// log(1-x), and I_x(½, ½) = (2/π) asin √x (the arcsine), to 1e-13 (a
// tail of 1e-300 comes from its log, -690.8, which holds 1e-16 of
// itself: 2e-14 of the tail).
func TestLogIncBetaClosedForms(t *testing.T) {
	for _, x := range []float64{1e-300, 1e-9, 0.01, 0.3, 0.5, 0.77, 0.999, 1 - 1e-12} {
		y := 1 - x
		check := func(what string, got, want, tol float64) {
			t.Helper()
			if e := relErr(got, want); e > tol {
				t.Errorf("%s at x = %v: %.17g, want %.17g (relative error %.2g)", what, x, got, want, e)
			}
		}
		check("log I(1, 1)", opdef.LogIncBeta(1, 1, x, y), math.Log(x), 1e-13)
		check("log(1-I(1, 1))", opdef.LogIncBeta(1, 1, y, x), math.Log1p(-x), 1e-13)
		for _, a := range []float64{0.01, 0.7, 3, 40} {
			check("log I(a, 1)", opdef.LogIncBeta(a, 1, x, y), a*math.Log(x), 1e-13)
			check("∂a log I(a, 1)", opdef.DLogIncBetaA(a, 1, x, y), math.Log(x), 1e-10)
			check("log(1-I(1, b))", opdef.LogIncBeta(a, 1, y, x), a*math.Log1p(-x), 1e-13)
			check("∂b log(1-I(1, b))", opdef.DLogIncBetaA(a, 1, y, x), math.Log1p(-x), 1e-10)
		}
		arcsine := 2 / math.Pi * math.Asin(math.Sqrt(x))
		if x < 0.5 {
			check("log I(½, ½)", opdef.LogIncBeta(0.5, 0.5, x, y), math.Log(arcsine), 1e-13)
		} else {
			check("log(1-I(½, ½))", opdef.LogIncBeta(0.5, 0.5, y, x), math.Log(2/math.Pi*math.Asin(math.Sqrt(y))), 1e-13)
		}
	}
}

// TestLogIncBetaGradients: the derivatives in a and b of log I and of
// log(1-I) against central differences of the values, to 1e-6
// relative, at random shapes from 0.01 to 1e4 (half the time b = ½, the
// Student t's) and points around the mean and anywhere in (0, 1); I and
// 1-I sum to one (log-sum-exp 0 to 1e-13); and the switch between the
// two tails at x = (a+1)/(a+b+2) leaves no step.
func TestLogIncBetaGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 3))
	logU := func(lo, hi float64) float64 { return math.Exp(math.Log(lo) + rng.Float64()*math.Log(hi/lo)) }
	for range 2000 {
		a, b := logU(0.01, 1e4), logU(0.01, 1e4)
		if rng.Float64() < 0.5 {
			b = 0.5
		}
		m, sd := a/(a+b), math.Sqrt(a*b/((a+b)*(a+b)*(a+b+1)))
		x := m + 4*sd*(2*rng.Float64()-1)
		if rng.Float64() < 0.3 || x <= 0 || x >= 1 {
			x = rng.Float64()
		}
		y := 1 - x
		li, lc := opdef.LogIncBeta(a, b, x, y), opdef.LogIncBeta(b, a, y, x)
		if s := opdef.LogAddExp(li, lc); math.Abs(s) > 1e-13 || math.IsNaN(s) {
			t.Errorf("a=%v b=%v x=%v: log I = %v, log(1-I) = %v, log-sum-exp %v", a, b, x, li, lc, s)
		}
		if li < -700 || lc < -700 {
			continue
		}
		for _, f := range []struct {
			name string
			val  func(s float64) float64
			at   float64
			der  float64
		}{
			{"∂a log I", func(s float64) float64 { return opdef.LogIncBeta(s, b, x, y) }, a, opdef.DLogIncBetaA(a, b, x, y)},
			{"∂b log I", func(s float64) float64 { return opdef.LogIncBeta(a, s, x, y) }, b, opdef.DLogIncBetaB(a, b, x, y)},
			{"∂a log(1-I)", func(s float64) float64 { return opdef.LogIncBeta(b, s, y, x) }, a, opdef.DLogIncBetaB(b, a, y, x)},
			{"∂b log(1-I)", func(s float64) float64 { return opdef.LogIncBeta(s, a, y, x) }, b, opdef.DLogIncBetaA(b, a, y, x)},
		} {
			fd := centralDiff(f.val, f.at)
			if math.Abs(f.der-fd) > 1e-6*math.Abs(fd) && math.Abs(f.der-fd) > 1e-12 {
				t.Errorf("%s at a=%v b=%v x=%v = %.12g, central difference %.12g", f.name, a, b, x, f.der, fd)
			}
		}
	}
	for _, c := range []struct{ a, b float64 }{{2, 3}, {0.5, 0.5}, {30, 0.5}, {40, 60}} {
		x := (c.a + 1) / (c.a + c.b + 2)
		for k, f := range []func(a, b, x, y float64) float64{opdef.LogIncBeta, opdef.DLogIncBetaA, opdef.DLogIncBetaB} {
			tol := 1e-13
			if k > 0 {
				tol = 1e-12
			}
			lo, hi := x*(1-1e-15), x*(1+1e-15)
			below, above := f(c.a, c.b, lo, 1-lo), f(c.a, c.b, hi, 1-hi)
			if math.Abs(below-above) > tol*math.Abs(below) {
				t.Errorf("a=%v b=%v: function %d steps at x = %v: %.17g below, %.17g above", c.a, c.b, k, x, below, above)
			}
		}
	}
}

var incBetaSink float64

// BenchmarkLogIncBeta times the value and both partials of log I at
// points on both sides of the switch, what a beta or Student's t tail
// costs per element.
func BenchmarkLogIncBeta(b *testing.B) {
	shapes := [][2]float64{{2.5, 3.5}, {0.6, 40}, {30, 45}}
	xs := []float64{0.1, 0.45, 0.8}
	for b.Loop() {
		for _, s := range shapes {
			for _, x := range xs {
				incBetaSink += opdef.LogIncBeta(s[0], s[1], x, 1-x) + opdef.DLogIncBetaA(s[0], s[1], x, 1-x) +
					opdef.DLogIncBetaB(s[0], s[1], x, 1-x)
			}
		}
	}
}
