package ir_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// tailCases are the log CDFs and log CCDFs (accel/opdef's Tail), run by
// TestLogDensities like the densities: values against ½erfc(∓z/√2) for
// the normal and lognormal (gonum v0.17.0's Normal.Survival is 1 - CDF,
// 5e-3 off in log at z = 8), gonum's CDF and Survival for the others, or
// the closed forms where gonum has none (the logistic's
// 1/(1+e^-z), the Cauchy's ½ + atan(z)/π, the half-normal's erf(z/√2),
// the half-Cauchy's 2 atan(z)/π), over the ranges of the densities,
// gradients against finite differences, and -Inf at invalid parameters
// and, for a log CDF, below the support. The tails far from the centre
// are TestTailsExtreme's; TestTailsIntegrate checks the CDFs against the
// integral of the density.
func tailCases() []lpdfCase {
	logOf := func(f func(x ...float64) float64) func(x ...float64) float64 {
		return func(x ...float64) float64 { return math.Log(f(x...)) }
	}
	// Φ(±z) of the normal (y, μ, σ) and of the lognormal (log y, μ, σ).
	phi := func(sign, y, mu, sigma float64) float64 { return 0.5 * math.Erfc(-sign*(y-mu)/sigma/math.Sqrt2) }
	lap := func(x []float64) distuv.Laplace { return distuv.Laplace{Mu: x[1], Scale: x[2]} }
	wei := func(x []float64) distuv.Weibull { return distuv.Weibull{K: x[1], Lambda: x[2]} }
	uni := func(x []float64) distuv.Uniform { return distuv.Uniform{Min: x[1], Max: x[2]} }
	logisticCDF := func(x ...float64) float64 { return 1 / (1 + math.Exp(-(x[0]-x[1])/x[2])) }
	cauchyCDF := func(x ...float64) float64 { return 0.5 + math.Atan((x[0]-x[1])/x[2])/math.Pi }
	return []lpdfCase{
		scalarCase("normal_lcdf", ir.OpNormalLCDF, []elem{par(-3, 3), par(-2, 2), par(0.3, 3)},
			logOf(func(x ...float64) float64 { return phi(1, x[0], x[1], x[2]) }),
			[]float64{1, 0, 0}, []float64{1, 0, -1}),
		scalarCase("normal_lccdf", ir.OpNormalLCCDF, []elem{par(-3, 3), par(-2, 2), par(0.3, 3)},
			logOf(func(x ...float64) float64 { return phi(-1, x[0], x[1], x[2]) }),
			[]float64{1, 0, 0}),
		scalarCase("lognormal_lcdf", ir.OpLogNormalLCDF, []elem{par(0.1, 5), par(-1, 1), par(0.3, 2)},
			logOf(func(x ...float64) float64 { return phi(1, math.Log(x[0]), x[1], x[2]) }),
			[]float64{-1, 0, 1}, []float64{0, 0, 1}, []float64{1, 0, 0}),
		scalarCase("lognormal_lccdf", ir.OpLogNormalLCCDF, []elem{par(0.1, 5), par(-1, 1), par(0.3, 2)},
			logOf(func(x ...float64) float64 { return phi(-1, math.Log(x[0]), x[1], x[2]) }),
			[]float64{1, 0, 0}),
		scalarCase("exponential_lcdf", ir.OpExponentialLCDF, []elem{par(0.01, 4), par(0.2, 3)},
			logOf(func(x ...float64) float64 { return distuv.Exponential{Rate: x[1]}.CDF(x[0]) }),
			[]float64{-1, 1}, []float64{0, 1}, []float64{1, 0}),
		scalarCase("exponential_lccdf", ir.OpExponentialLCCDF, []elem{par(0.01, 4), par(0.2, 3)},
			logOf(func(x ...float64) float64 { return distuv.Exponential{Rate: x[1]}.Survival(x[0]) }),
			[]float64{1, 0}, []float64{1, -1}),
		scalarCase("laplace_lcdf", ir.OpLaplaceLCDF, []elem{par(0.5, 3), par(-2, 0), par(0.3, 3)},
			logOf(func(x ...float64) float64 { return lap(x).CDF(x[0]) }),
			[]float64{1, 0, 0}),
		scalarCase("laplace_lccdf", ir.OpLaplaceLCCDF, []elem{par(-3, -0.5), par(0, 2), par(0.3, 3)},
			logOf(func(x ...float64) float64 { return lap(x).Survival(x[0]) }),
			[]float64{1, 0, 0}),
		scalarCase("logistic_lcdf", ir.OpLogisticLCDF, []elem{par(-3, 3), par(-2, 2), par(0.3, 3)},
			logOf(logisticCDF), []float64{1, 0, -1}),
		scalarCase("logistic_lccdf", ir.OpLogisticLCCDF, []elem{par(-3, 3), par(-2, 2), par(0.3, 3)},
			func(x ...float64) float64 { return math.Log(1 - logisticCDF(x...)) }, []float64{1, 0, -1}),
		scalarCase("cauchy_lcdf", ir.OpCauchyLCDF, []elem{par(-3, 3), par(-2, 2), par(0.3, 3)},
			logOf(cauchyCDF), []float64{1, 0, 0}),
		scalarCase("cauchy_lccdf", ir.OpCauchyLCCDF, []elem{par(-3, 3), par(-2, 2), par(0.3, 3)},
			func(x ...float64) float64 { return math.Log(1 - cauchyCDF(x...)) }, []float64{1, 0, 0}),
		scalarCase("half_normal_lcdf", ir.OpHalfNormalLCDF, []elem{par(0.1, 3), par(0.3, 3)},
			func(x ...float64) float64 { return math.Log(math.Erf(x[0] / x[1] / math.Sqrt2)) },
			[]float64{-1, 1}, []float64{0, 1}, []float64{1, 0}),
		scalarCase("half_normal_lccdf", ir.OpHalfNormalLCCDF, []elem{par(0.1, 3), par(0.3, 3)},
			func(x ...float64) float64 { return math.Log(math.Erfc(x[0] / x[1] / math.Sqrt2)) },
			[]float64{1, 0}),
		scalarCase("half_cauchy_lcdf", ir.OpHalfCauchyLCDF, []elem{par(0.1, 3), par(0.3, 3)},
			func(x ...float64) float64 { return math.Log(2 * math.Atan(x[0]/x[1]) / math.Pi) },
			[]float64{-1, 1}, []float64{0, 1}, []float64{1, 0}),
		scalarCase("half_cauchy_lccdf", ir.OpHalfCauchyLCCDF, []elem{par(0.1, 3), par(0.3, 3)},
			func(x ...float64) float64 { return math.Log(1 - 2*math.Atan(x[0]/x[1])/math.Pi) },
			[]float64{1, 0}),
		scalarCase("weibull_lcdf", ir.OpWeibullLCDF, []elem{par(0.1, 4), par(0.5, 4), par(0.5, 3)},
			logOf(func(x ...float64) float64 { return wei(x).CDF(x[0]) }),
			[]float64{-1, 2, 1}, []float64{0, 2, 1}, []float64{1, 0, 1}, []float64{1, 2, -1}),
		scalarCase("weibull_lccdf", ir.OpWeibullLCCDF, []elem{par(0.1, 4), par(0.5, 4), par(0.5, 3)},
			logOf(func(x ...float64) float64 { return wei(x).Survival(x[0]) }),
			[]float64{1, 0, 1}, []float64{1, 2, -1}, []float64{1e5, 100, 1}),
		scalarCase("uniform_lcdf", ir.OpUniformLCDF, []elem{par(-0.9, 0.9), par(-3, -1), par(1, 3)},
			logOf(func(x ...float64) float64 { return uni(x).CDF(x[0]) }),
			[]float64{-2, -1, 1}, []float64{0, 1, -1}),
		scalarCase("uniform_lccdf", ir.OpUniformLCCDF, []elem{par(-0.9, 0.9), par(-3, -1), par(1, 3)},
			logOf(func(x ...float64) float64 { return uni(x).Survival(x[0]) }),
			[]float64{2, -1, 1}, []float64{0, 1, -1}),
	}
}

// tailAt is the value and gradient of a tail op at one point, every
// input a parameter.
func tailAt(t *testing.T, op ir.Op, x ...float64) (float64, []float64) {
	t.Helper()
	args := make([]irtest.Arg, len(x))
	for i := range args {
		args[i] = irtest.Param(0, 0)
	}
	p, err := irtest.OpProgram(op, nil, nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	g := make([]float64, len(x))
	v := ir.NewFrame(p).Gradient(x, g)
	return v, g
}

// TestTailsExtreme: far in the tails the values are finite and accurate
// to 1e-12 relative, and the gradients finite and, against central
// differences, accurate to 1e-6. Reference values from mpmath at 40
// digits (log(ncdf(z)), log1p(-exp(-x)), …).
func TestTailsExtreme(t *testing.T) {
	for _, c := range []struct {
		name string
		op   ir.Op
		x    []float64
		want float64
	}{
		{"log Φ(-40)", ir.OpNormalLCDF, []float64{-40, 0, 1}, -804.60844201375378817},
		{"log Φ(-38)", ir.OpNormalLCDF, []float64{-38, 0, 1}, -726.5572160188201301},
		{"log Φ(-37.5)", ir.OpNormalLCDF, []float64{-37.5, 0, 1}, -707.66898931750719107},
		{"log Φ(-37)", ir.OpNormalLCDF, []float64{-37, 0, 1}, -689.0305855768905936},
		{"log Φ(-10)", ir.OpNormalLCDF, []float64{-10, 0, 1}, -53.231285150512470578},
		{"log Φ(10)", ir.OpNormalLCDF, []float64{10, 0, 1}, -7.6198530241605260704e-24},
		{"log(1-Φ(40))", ir.OpNormalLCCDF, []float64{40, 0, 1}, -804.60844201375378817},
		{"log(1-Φ(-10)), σ = 2", ir.OpNormalLCCDF, []float64{-20, 0, 2}, -7.6198530241605260704e-24},
		{"lognormal log F at z = -30", ir.OpLogNormalLCDF, []float64{math.Exp(-30), 0, 1}, -454.32124395634319711},
		{"half-normal log F at z = 1e-8", ir.OpHalfNormalLCDF, []float64{1e-8, 1}, -18.646472096597092921},
		{"half-normal log(1-F) at z = 30", ir.OpHalfNormalLCCDF, []float64{30, 1}, -453.6280967757832518},
		{"exponential log F at λy = 1e-12", ir.OpExponentialLCDF, []float64{1e-12, 1}, -27.631021115929048208},
		{"exponential log F at λy = 50", ir.OpExponentialLCDF, []float64{50, 1}, -1.928749847963917783e-22},
		{"exponential log(1-F) at λy = 1e4", ir.OpExponentialLCCDF, []float64{1e4, 1}, -1e4},
		{"Cauchy log F at z = -1e10", ir.OpCauchyLCDF, []float64{-1e10, 0, 1}, -24.170580815789857014},
		{"Cauchy log(1-F) at z = 1e10", ir.OpCauchyLCCDF, []float64{1e10, 0, 1}, -24.170580815789857014},
		{"half-Cauchy log F at z = 1e12", ir.OpHalfCauchyLCDF, []float64{1e12, 1}, -6.3661977236778398544e-13},
		{"logistic log F at z = -800", ir.OpLogisticLCDF, []float64{-800, 0, 1}, -800},
		{"logistic log F at z = 40", ir.OpLogisticLCDF, []float64{40, 0, 1}, -4.2483542552915889863e-18},
		{"Laplace log F at z = 40", ir.OpLaplaceLCDF, []float64{40, 0, 1}, -2.1241771276457944999e-18},
		{"Laplace log(1-F) at z = -40", ir.OpLaplaceLCCDF, []float64{-40, 0, 1}, -2.1241771276457944999e-18},
		{"Weibull log F at u = 1e-20", ir.OpWeibullLCDF, []float64{1e-10, 2, 1}, -46.05170185988091368},
		{"Weibull log F at u = 1e-900", ir.OpWeibullLCDF, []float64{1e-300, 3, 1}, -2072.3265836946411156},
	} {
		v, g := tailAt(t, c.op, c.x...)
		if math.Abs(v-c.want) > 1e-12*math.Abs(c.want) {
			t.Errorf("%s = %.17g, want %.17g", c.name, v, c.want)
		}
		for i, gi := range g {
			if math.IsNaN(gi) || math.IsInf(gi, 0) {
				t.Errorf("%s: gradient[%d] = %v", c.name, i, gi)
				continue
			}
			// A step of 1e-5 relative to the coordinate, or to the
			// point's largest one for a coordinate at 0.
			h := 1e-5 * math.Abs(c.x[i])
			if h == 0 {
				for _, xj := range c.x {
					h = math.Max(h, 1e-5*math.Abs(xj))
				}
			}
			xp, xm := append([]float64(nil), c.x...), append([]float64(nil), c.x...)
			xp[i] += h
			xm[i] -= h
			vp, _ := tailAt(t, c.op, xp...)
			vm, _ := tailAt(t, c.op, xm...)
			fd := (vp - vm) / (xp[i] - xm[i])
			if math.Abs(gi-fd) > 1e-6*math.Max(math.Abs(fd), 1e-300) && math.Abs(gi-fd) > 1e-12 {
				t.Errorf("%s: gradient[%d] = %.12g, central difference %.12g", c.name, i, gi, fd)
			}
		}
	}
	// Beyond the double range of 1-Φ the log CDF is 0 and the log CCDF
	// still finite.
	if v, _ := tailAt(t, ir.OpNormalLCDF, 40, 0, 1); v != 0 && !(math.Abs(v) < 1e-300) {
		t.Errorf("log Φ(40) = %v, want 0 to double precision", v)
	}
}

// TestTailsIntegrate: exp(log CDF) is the integral of the density from the
// support's lower end (far into the left tail for the real line) and
// exp(log CCDF) its complement, to 1e-9, at a few points of each family.
func TestTailsIntegrate(t *testing.T) {
	integrate := func(pdf func(float64) float64, a, b float64) float64 {
		return quad.Fixed(pdf, a, b, 400, nil, 0)
	}
	rng := rand.New(rand.NewPCG(8, 9))
	for _, c := range []struct {
		name       string
		lcdf, lccd ir.Op
		params     []float64
		pdf        func(y float64, p []float64) float64
		lo, kink   float64 // the lower end, and where the density has a kink (NaN: none)
		ylo, yhi   float64
	}{
		{"normal", ir.OpNormalLCDF, ir.OpNormalLCCDF, []float64{0.3, 1.7},
			func(y float64, p []float64) float64 { return distuv.Normal{Mu: p[0], Sigma: p[1]}.Prob(y) }, -40, math.NaN(), -4, 4},
		{"lognormal", ir.OpLogNormalLCDF, ir.OpLogNormalLCCDF, []float64{0.2, 0.6},
			func(y float64, p []float64) float64 { return distuv.LogNormal{Mu: p[0], Sigma: p[1]}.Prob(y) }, 0, math.NaN(), 0.2, 4},
		{"laplace", ir.OpLaplaceLCDF, ir.OpLaplaceLCCDF, []float64{0.5, 0.8},
			func(y float64, p []float64) float64 { return distuv.Laplace{Mu: p[0], Scale: p[1]}.Prob(y) }, -60, 0.5, -3, 3},
		{"logistic", ir.OpLogisticLCDF, ir.OpLogisticLCCDF, []float64{-0.4, 1.2},
			func(y float64, p []float64) float64 { return distuv.Logistic{Mu: p[0], S: p[1]}.Prob(y) }, -80, math.NaN(), -4, 4},
		{"exponential", ir.OpExponentialLCDF, ir.OpExponentialLCCDF, []float64{1.3},
			func(y float64, p []float64) float64 { return distuv.Exponential{Rate: p[0]}.Prob(y) }, 0, math.NaN(), 0.05, 4},
		{"weibull", ir.OpWeibullLCDF, ir.OpWeibullLCCDF, []float64{1.7, 2.1},
			func(y float64, p []float64) float64 { return distuv.Weibull{K: p[0], Lambda: p[1]}.Prob(y) }, 0, math.NaN(), 0.1, 5},
		{"half_normal", ir.OpHalfNormalLCDF, ir.OpHalfNormalLCCDF, []float64{1.4},
			func(y float64, p []float64) float64 { return 2 * distuv.Normal{Sigma: p[0]}.Prob(y) }, 0, math.NaN(), 0.05, 4},
	} {
		for range 4 {
			y := c.ylo + (c.yhi-c.ylo)*rng.Float64()
			pdf := func(x float64) float64 { return c.pdf(x, c.params) }
			var want float64
			if !math.IsNaN(c.kink) && c.kink < y {
				want = integrate(pdf, c.lo, c.kink) + integrate(pdf, c.kink, y)
			} else {
				want = integrate(pdf, c.lo, y)
			}
			x := append([]float64{y}, c.params...)
			lf, _ := tailAt(t, c.lcdf, x...)
			ls, _ := tailAt(t, c.lccd, x...)
			if math.Abs(math.Exp(lf)-want) > 1e-9 {
				t.Errorf("%s: F(%v) = %.12g, integral %.12g", c.name, y, math.Exp(lf), want)
			}
			if math.Abs(math.Exp(ls)-(1-want)) > 1e-9 {
				t.Errorf("%s: 1-F(%v) = %.12g, 1 - integral %.12g", c.name, y, math.Exp(ls), 1-want)
			}
		}
	}
}
