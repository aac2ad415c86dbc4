package opdef_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mathext"

	"github.com/gobayes/gobayes/accel/opdef"
)

// psiTable is ψ(x) and ψ₁(x) at float64 points x, from mpmath 1.3.0
// (mp.dps = 60: mp.digamma(x), mp.psi(1, x)), rounded to 21 digits.
var psiTable = []struct{ x, psi, psi1 float64 }{
	{1e-300, -9.99999999999999974941e+299, math.Inf(1)},
	{1e-200, -1.0000000000000000179e+200, math.Inf(1)},
	{1e-100, -9.99999999999999980008e+99, 9.99999999999999960016e+199},
	{1e-30, -9.99999999999999916664e+29, 9.99999999999999833327e+59},
	{1e-08, -1.0000000057721564636e+8, 1.00000000000000012265e+16},
	{0.001, -1000.57557193181027965, 1000001.64253319582734},
	{0.1, -10.4237549404110762321, 101.433299150792747705},
	{0.25, -4.22745353337626540809, 17.1973291545071107393},
	{0.5, -1.96351002602142347944, 4.93480220054467930942},
	{1, -0.577215664901532860607, 1.64493406684822643647},
	{1.4616321449683622, -9.24126552172942751679e-17, 0.967672245447621254995}, // ψ's positive root
	{1.5, 0.036489973978576520559, 0.934802200544679309417},
	{2, 0.422784335098467139393, 0.644934066848226436472},
	{2.5, 0.703156640645243187226, 0.490357756100234864973},
	{3.7, 1.16715353936151144095, 0.310037857670038302158},
	{5, 1.50611766843180047273, 0.221322955737115325361},
	{6.5, 1.79291133039993294192, 0.16628453574995823764},
	{6.99, 1.87124770559414941188, 0.153780843149424747029},
	{7, 1.87278433509846713939, 0.153545177959337547584},
	{7.5, 1.94675748424608678807, 0.14261589669670379977},
	{9.5, 2.19773787640294953317, 0.110997288469099032373},
	{9.999999, 2.25175248390037997975, 0.105166346731521868605},
	{10, 2.25175258906672110765, 0.105166335681685746122},
	{10.5, 2.30300103429768637527, 0.0999169560591267332039},
	{13.25, 2.54578730824659344555, 0.0783912529423489640143},
	{25, 3.19874251285197400853, 0.0408106632572255791874},
	{100, 4.6001618527380874002, 0.0100501666633335713952},
	{1234.5, 7.11801623182799784331, 0.000810372727126966652695},
	{1000000.0, 13.8155100579641907708, 1.00000050000016666667e-6},
	{10000000000.0, 23.0258509298904568402, 1.00000000005e-10},
	{1000000000000000.0, 34.5387763949106847603, 1.0000000000000005e-15},
	{1e+100, 230.258509299404568418, 9.99999999999999984097e-101},
	{1e+300, 690.775527898213705258, 9.99999999999999947495e-301},
	{-1e-300, 9.99999999999999974941e+299, math.Inf(1)},
	{-1e-08, 99999999.4227843165569, 1.00000000000000012265e+16},
	{-0.25, 2.91413912021352783037, 18.5418796476716064984},
	{-0.5, 0.036489973978576520559, 8.93480220054467930942},
	{-0.5040830082644554, 7.28976390297689494446e-17, 8.93979855879213448411}, // ψ's root in (-1, 0)
	{-0.999999, -999999.577184264303153, 9.99999999945133604633e+11},
	{-1.5, 0.703156640645243187226, 9.37924664498912375386},
	{-2.5, 1.10315664064524318723, 9.53924664498912375386},
	{-2.9999999999, -9.99999917134024080005e+9, 9.99999834519278539754e+19},
	{-3.0000000001, 9.99999917385247613691e+9, 9.99999834519278539754e+19},
	{-7.3, 4.33730730551005014218, 14.9513831814339211526},
	{-10.8, -1.89890273843014530677, 28.4784133645492297111},
	{-123.456, 5.25697917258226531708, 10.0525495910765456853},
	{-99999.75, 8.37133531138147683267, 19.7391988022037172585},
}

// psiErr is the error of got, relative, or absolute where |want| < floor:
// ψ has a root at 1.46… and one between each pair of negative integers,
// and there the terms summed, of order 1, set the rounding (floor 1).
func psiErr(got, want, floor float64) float64 {
	if got == want {
		return 0
	}
	return math.Abs(got-want) / math.Max(math.Abs(want), floor)
}

func TestDigammaTrigammaOracle(t *testing.T) {
	const tol = 4e-15
	var worst, worst1 float64
	for _, c := range psiTable {
		got, got1 := opdef.Digamma(c.x), opdef.Trigamma(c.x)
		e, e1 := psiErr(got, c.psi, 1), psiErr(got1, c.psi1, 0)
		if !(e <= tol) {
			t.Errorf("Digamma(%v) = %v, want %v", c.x, got, c.psi)
		}
		if !(e1 <= tol) {
			t.Errorf("Trigamma(%v) = %v, want %v", c.x, got1, c.psi1)
		}
		worst, worst1 = max(worst, e), max(worst1, e1)
	}
	t.Logf("largest error: digamma %.2g, trigamma %.2g (digamma absolute below 1)", worst, worst1)
}

func TestDigammaTrigammaExact(t *testing.T) {
	const euler = 0.57721566490153286060651209008240243104215933593992 // γ
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"ψ(1) = -γ", opdef.Digamma(1), -euler},
		{"ψ(1/2) = -γ - 2 ln 2", opdef.Digamma(0.5), -euler - 2*math.Ln2},
		{"ψ(2) = 1 - γ", opdef.Digamma(2), 1 - euler},
		{"ψ₁(1) = π²/6", opdef.Trigamma(1), math.Pi * math.Pi / 6},
		{"ψ₁(1/2) = π²/2", opdef.Trigamma(0.5), math.Pi * math.Pi / 2},
		{"ψ₁(-1/2) = π²/2 + 4", opdef.Trigamma(-0.5), math.Pi*math.Pi/2 + 4},
	} {
		if e := psiErr(c.got, c.want, 0); e > 1e-15 {
			t.Errorf("%s: got %v, want %v (%.2g relative)", c.name, c.got, c.want, e)
		}
	}
}

// TestDigammaTrigammaSpecial holds the values at the poles and the edges
// to those of gonum's mathext.Digamma and of the ζ(2, x) trigamma they
// replace (mathext.Zeta, reflected below zero).
func TestDigammaTrigammaSpecial(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct{ x, psi, psi1 float64 }{
		{0, -inf, inf},
		{math.Copysign(0, -1), inf, inf},
		{-1, nan, inf},
		{-7, nan, inf},
		{-1e20, nan, inf},
		{inf, inf, 0},
		{-inf, nan, nan},
		{nan, nan, nan},
		{5e-324, -inf, inf},
	} {
		same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
		if got := opdef.Digamma(c.x); !same(got, c.psi) {
			t.Errorf("Digamma(%v) = %v, want %v", c.x, got, c.psi)
		}
		if got := mathext.Digamma(c.x); !same(got, c.psi) {
			t.Errorf("mathext.Digamma(%v) = %v: the table is not gonum's", c.x, got)
		}
		if got := opdef.Trigamma(c.x); !same(got, c.psi1) {
			t.Errorf("Trigamma(%v) = %v, want %v", c.x, got, c.psi1)
		}
		if got := zetaTrigamma(c.x); !same(got, c.psi1) {
			t.Errorf("ζ(2, x) trigamma at %v = %v: the table is not its", c.x, got)
		}
	}
}

// zetaTrigamma is the trigamma that Trigamma replaced (accel/ir's):
// ψ₁(x) = ζ(2, x) above zero, reflected below.
func zetaTrigamma(x float64) float64 {
	switch {
	case math.IsNaN(x) || x == math.Inf(-1):
		return math.NaN()
	case x <= 0 && x == math.Floor(x):
		return math.Inf(1)
	case x > 0:
		return mathext.Zeta(2, x)
	}
	s := math.Sin(math.Pi * x)
	return math.Pi*math.Pi/(s*s) - mathext.Zeta(2, 1-x)
}

// psiSweep is x from 1e-300 to 1e300 in steps of about 1.6%, both signs,
// with negative integers left out.
func psiSweep() []float64 {
	var xs []float64
	for x := 1e-300; x < 1e300; x *= 1.0163 {
		xs = append(xs, x)
		if -x != math.Floor(-x) {
			xs = append(xs, -x)
		}
	}
	return xs
}

// TestDigammaTrigammaSweep checks the recurrences to a few ulps over the
// sweep (from 9 up, where neither side steps, they test the series), and
// agreement with the
// functions replaced: gonum's digamma is good to 6e-11 below 10 (its
// asymptotic series has four terms and starts at 7), the ζ(2, x)
// trigamma to 1e-14 above zero and, below, until its sin(πx) loses the
// digits near the poles.
func TestDigammaTrigammaSweep(t *testing.T) {
	for _, x := range psiSweep() {
		psi, psi1 := opdef.Digamma(x), opdef.Trigamma(x)
		if x > 0 && x < 1e15 {
			// ψ(x+1) = ψ(x) + 1/x and ψ₁(x+1) = ψ₁(x) - 1/x², to
			// a few ulps of the largest term.
			if p := opdef.Digamma(x + 1); math.Abs(p-psi-1/x) > 4e-15*max(math.Abs(p), math.Abs(psi), 1) {
				t.Errorf("ψ(%v+1) = %v, ψ(x) + 1/x = %v", x, p, psi+1/x)
			}
			if p := opdef.Trigamma(x + 1); x > 1e-150 && math.Abs(p-psi1+1/(x*x)) > 4e-15*psi1 {
				t.Errorf("ψ₁(%v+1) = %v, ψ₁(x) - 1/x² = %v", x, p, psi1-1/(x*x))
			}
		}
		tol, tol1 := 6e-11, 1e-14
		if x < -2 {
			tol1 = 1e-9 * math.Abs(x) // sin(πx) of a large x
		}
		if x < -1e-8 {
			d := math.Abs(x - math.Round(x)) // distance to the pole
			tol = max(tol, 1e-16/d)
			tol1 = max(tol1, 1e-15/d)
		}
		if e := psiErr(psi, mathext.Digamma(x), 1); !(e <= tol) {
			t.Errorf("Digamma(%v) = %v, mathext.Digamma %v (%.2g)", x, psi, mathext.Digamma(x), e)
		}
		if e := psiErr(psi1, zetaTrigamma(x), 0); !(e <= tol1) {
			t.Errorf("Trigamma(%v) = %v, ζ(2, x) %v (%.2g)", x, psi1, zetaTrigamma(x), e)
		}
	}
}

// psiArgs are shapes a gamma, beta or Student t gradient reads ψ at:
// log-uniform over [0.05, 200].
func psiArgs() []float64 {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = 0.05 * math.Pow(4000, (float64(i)+0.5)/float64(len(xs)))
	}
	return xs
}

var psiSink float64

func benchPsi(b *testing.B, name string, f func(float64) float64) {
	xs := psiArgs()
	b.Run(name, func(b *testing.B) {
		s := 0.0
		for i := 0; i < b.N; i++ {
			s += f(xs[i%len(xs)])
		}
		psiSink = s
	})
}

// BenchmarkDigamma compares with gonum's mathext.Digamma, which the
// generated loops called before (run the two alternately: -bench
// 'Digamma/opdef$', then 'Digamma/mathext$').
func BenchmarkDigamma(b *testing.B) {
	benchPsi(b, "opdef", opdef.Digamma)
	benchPsi(b, "mathext", mathext.Digamma)
}

// BenchmarkTrigamma compares with the ζ(2, x) trigamma it replaced.
func BenchmarkTrigamma(b *testing.B) {
	benchPsi(b, "opdef", opdef.Trigamma)
	benchPsi(b, "zeta", zetaTrigamma)
}
