package ir_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/accel/opdef"
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
	gam := func(x []float64) distuv.Gamma { return distuv.Gamma{Alpha: x[1], Beta: x[2]} }
	bet := func(x []float64) distuv.Beta { return distuv.Beta{Alpha: x[1], Beta: x[2]} }
	stu := func(x []float64) distuv.StudentsT { return distuv.StudentsT{Nu: x[1], Mu: x[2], Sigma: x[3]} }
	invGam := func(x []float64) distuv.InverseGamma { return distuv.InverseGamma{Alpha: x[1], Beta: x[2]} }
	halfT := func(x []float64) distuv.StudentsT { return distuv.StudentsT{Nu: x[1], Sigma: x[2]} }
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
		scalarCase("gamma_lcdf", ir.OpGammaLCDF, []elem{par(0.1, 5), par(0.5, 5), par(0.3, 3)},
			logOf(func(x ...float64) float64 { return gam(x).CDF(x[0]) }),
			[]float64{-1, 2, 1}, []float64{0, 2, 1}, []float64{1, -2, 1}, []float64{1, 2, 0}),
		scalarCase("gamma_lccdf", ir.OpGammaLCCDF, []elem{par(0.1, 5), par(0.5, 5), par(0.3, 3)},
			logOf(func(x ...float64) float64 { return gam(x).Survival(x[0]) }),
			[]float64{1, -2, 1}, []float64{1, 2, 0}),
		scalarCase("beta_lcdf", ir.OpBetaLCDF, []elem{par(0.05, 0.95), par(0.5, 5), par(0.5, 5)},
			logOf(func(x ...float64) float64 { return bet(x).CDF(x[0]) }),
			[]float64{0, 2, 2}, []float64{-0.5, 2, 2}, []float64{0.5, -1, 2}, []float64{0.5, 2, 0}),
		scalarCase("beta_lccdf", ir.OpBetaLCCDF, []elem{par(0.05, 0.95), par(0.5, 5), par(0.5, 5)},
			logOf(func(x ...float64) float64 { return bet(x).Survival(x[0]) }),
			[]float64{1, 2, 2}, []float64{1.5, 2, 2}, []float64{0.5, -1, 2}, []float64{0.5, 2, 0}),
		scalarCase("student_t_lcdf", ir.OpStudentTLCDF, []elem{par(-3, 3), par(0.5, 8), par(-2, 2), par(0.3, 3)},
			logOf(func(x ...float64) float64 { return stu(x).CDF(x[0]) }),
			[]float64{1, 0, 0, 1}, []float64{1, 3, 0, -1}),
		scalarCase("student_t_lccdf", ir.OpStudentTLCCDF, []elem{par(-3, 3), par(0.5, 8), par(-2, 2), par(0.3, 3)},
			logOf(func(x ...float64) float64 { return stu(x).Survival(x[0]) }),
			[]float64{1, 0, 0, 1}, []float64{1, 3, 0, -1}),
		scalarCase("inv_gamma_lcdf", ir.OpInverseGammaLCDF, []elem{par(0.1, 5), par(0.5, 5), par(0.3, 3)},
			logOf(func(x ...float64) float64 { return invGam(x).CDF(x[0]) }),
			[]float64{-1, 2, 1}, []float64{0, 2, 1}, []float64{1, -2, 1}, []float64{1, 2, 0}),
		scalarCase("inv_gamma_lccdf", ir.OpInverseGammaLCCDF, []elem{par(0.1, 5), par(0.5, 5), par(0.3, 3)},
			logOf(func(x ...float64) float64 { return invGam(x).Survival(x[0]) }),
			[]float64{1, -2, 1}, []float64{1, 2, 0}),
		// The half-t: F = 2F_t(y) - 1 and 1 - F = 2(1 - F_t(y)).
		scalarCase("half_student_t_lcdf", ir.OpHalfStudentTLCDF, []elem{par(0.1, 3), par(0.5, 8), par(0.3, 3)},
			logOf(func(x ...float64) float64 { return 2*halfT(x).CDF(x[0]) - 1 }),
			[]float64{-1, 3, 1}, []float64{0, 3, 1}, []float64{1, -3, 1}, []float64{1, 3, 0}),
		scalarCase("half_student_t_lccdf", ir.OpHalfStudentTLCCDF, []elem{par(0.1, 3), par(0.5, 8), par(0.3, 3)},
			logOf(func(x ...float64) float64 { return 2 * halfT(x).Survival(x[0]) }),
			[]float64{1, -3, 1}, []float64{1, 3, 0}),
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
// differences, accurate to 1e-6, for every argument (the shapes of the
// gamma, beta and Student's t included, small and large). Reference values from mpmath at 40
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
		// The gamma: log P(α, βy) and log Q(α, βy), with small and
		// large shapes.
		{"gamma log F at x = 1e-200, α = 2", ir.OpGammaLCDF, []float64{1e-200, 2, 1}, -921.72718437817821895},
		{"gamma log F at x = 1e-300, α = 0.1", ir.OpGammaLCDF, []float64{1e-300, 0.1, 1}, -69.027680348561534626},
		{"gamma log(1-F) at x = 1e-300, α = 0.1", ir.OpGammaLCCDF, []float64{1e-300, 0.1, 1}, -1.0511370061117737819e-30},
		{"gamma log(1-F) at x = 1000, α = 3", ir.OpGammaLCCDF, []float64{500, 3, 2}, -986.87563662392700614},
		{"gamma log F at x = 30, α = 0.1", ir.OpGammaLCDF, []float64{30, 0.1, 1}, -4.4767665800126927276e-16},
		{"gamma log F at x = 1e-5, α = 0.001", ir.OpGammaLCDF, []float64{1e-5, 0.001, 1}, -0.010936541856671911484},
		{"gamma log(1-F) at x = 1e-5, α = 0.001", ir.OpGammaLCCDF, []float64{1e-5, 0.001, 1}, -4.5211089200801784619},
		{"gamma log F at the centre, α = 1000", ir.OpGammaLCDF, []float64{250, 1000, 4}, -0.68477186329031014615},
		{"gamma log(1-F) at x = 1040, α = 1000", ir.OpGammaLCCDF, []float64{1040, 1000, 1}, -2.2631056484770427731},
		{"gamma log(1-F) at x = 1.5e-8, α = 200", ir.OpGammaLCCDF, []float64{150, 200, 1}, -0.000057098515831312139183},
		// The beta: log I_y(α, β) and log I_{1-y}(β, α).
		{"beta log F at y = 1e-100", ir.OpBetaLCDF, []float64{1e-100, 2, 3}, -458.72525912958108176},
		{"beta log(1-F) at y = 1e-100", ir.OpBetaLCCDF, []float64{1e-100, 2, 3}, -6.0000000000000002399e-200},
		{"beta log(1-F) at y = 0.99, β = 30", ir.OpBetaLCCDF, []float64{0.99, 2, 30}, -134.73084292504956293},
		{"beta log F at y = 0.99, β = 30", ir.OpBetaLCDF, []float64{0.99, 2, 30}, -3.0700000000000817746e-59},
		{"beta log F at y = 1e-200, shapes 0.05", ir.OpBetaLCDF, []float64{1e-200, 0.05, 0.05}, -23.715164406755722816},
		{"beta log(1-F) at y = 0.3, shapes 0.05", ir.OpBetaLCCDF, []float64{0.3, 0.05, 0.05}, -0.65434641712283885517},
		{"beta log F, shapes 300 and 500", ir.OpBetaLCDF, []float64{0.3, 300, 500}, -12.717410738269364169},
		{"beta log(1-F) at y = 0.98, shapes 500 and ½", ir.OpBetaLCCDF, []float64{0.98, 500, 0.5}, -7.0022603054945601961e-6},
		{"beta log F at y = 0.98, shapes 500 and ½", ir.OpBetaLCDF, []float64{0.98, 500, 0.5}, -11.869281061373372156},
		// Student's t: ½ I_{ν/(ν+z²)}(ν/2, ½) below the centre.
		{"Student t log F at z = -1e5, ν = 3", ir.OpStudentTLCDF, []float64{-1e5, 3, 0, 1}, -34.441052956226085279},
		{"Student t log(1-F) at z = -1e5, ν = 3", ir.OpStudentTLCCDF, []float64{-2e5 + 1, 3, 1, 2}, -1.1026577904466279024e-15},
		{"Student t log(1-F) at z = 1e5, ν = 3", ir.OpStudentTLCCDF, []float64{1e5, 3, 0, 1}, -34.441052956226085279},
		{"Student t log F at z = -1e8, ν = 0.7", ir.OpStudentTLCDF, []float64{-1e8, 0.7, 0, 1}, -14.062988860799293985},
		{"Student t log F at z = -40, ν = 50", ir.OpStudentTLCDF, []float64{-40, 50, 0, 1}, -90.277853011201139187},
		{"Student t log F at z = 40, ν = 50", ir.OpStudentTLCDF, []float64{40, 50, 0, 1}, -6.2062118921863527931e-40},
		{"Student t log(1-F) at z = 0.1, ν = 2.5", ir.OpStudentTLCCDF, []float64{0.1, 2.5, 0, 1}, -0.768079213937727455},
		{"Student t log F at z = -0.001, ν = 4", ir.OpStudentTLCDF, []float64{-0.001, 4, 0, 1}, -0.69389746179428222409},
		{"Student t log F at z = -5, ν = 1000", ir.OpStudentTLCDF, []float64{-5, 1000, 0, 1}, -14.89914709045073534},
		{"Student t log F at z = 5, ν = 1000", ir.OpStudentTLCDF, []float64{6, 1000, 1, 1}, -3.3836287547714281318e-7},
		{"Student t log F at z = -1e10, ν = 1 (the Cauchy's)", ir.OpStudentTLCDF, []float64{-1e10, 1, 0, 1}, -24.170580815789857014},
		// The inverse gamma: log Q(α, β/y) and log P(α, β/y).
		{"inverse gamma log F at β/y = 1000", ir.OpInverseGammaLCDF, []float64{0.001, 3, 1}, -986.87563662392698536},
		{"inverse gamma log(1-F) at β/y = 1e-200", ir.OpInverseGammaLCCDF, []float64{1e200, 2, 1}, -921.72718437817821886},
		{"inverse gamma log(1-F) at β/y = 2000, α = ½", ir.OpInverseGammaLCCDF, []float64{0.001, 0.5, 2}, -3.2496587186309355112e-871},
		{"inverse gamma log F, α = 50", ir.OpInverseGammaLCDF, []float64{0.2, 50, 10}, -0.73148957572927021273},
		{"inverse gamma log(1-F), α = 0.05", ir.OpInverseGammaLCCDF, []float64{3, 0.05, 1}, -0.042798536196788703826},
		// The half-t: log I_{z²/w}(½, ν/2) and log I_{ν/w}(ν/2, ½).
		{"half-t log F at z = 1e-8, ν = 3", ir.OpHalfStudentTLCDF, []float64{1e-8, 3, 1}, -18.728422413015929874},
		{"half-t log(1-F) at z = 1e5, ν = 3", ir.OpHalfStudentTLCCDF, []float64{2e5, 3, 2}, -33.74790577566613997},
		{"half-t log F at z = 1e5, ν = 3", ir.OpHalfStudentTLCDF, []float64{1e5, 3, 1}, -2.2053155808932570206e-15},
		{"half-t log F at z = 1e-6, ν = 0.6", ir.OpHalfStudentTLCDF, []float64{1e-6, 0.6, 1}, -14.383053824864715972},
		{"half-t log(1-F) at z = 20, ν = 40", ir.OpHalfStudentTLCCDF, []float64{20, 40, 1}, -49.989098488528333811},
		{"half-t log(1-F) at z = 0.7, ν = 2.5", ir.OpHalfStudentTLCCDF, []float64{0.7, 2.5, 1}, -0.60990048525256052966},
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
			central := func(h float64) float64 {
				xp, xm := append([]float64(nil), c.x...), append([]float64(nil), c.x...)
				xp[i] += h
				xm[i] -= h
				vp, _ := tailAt(t, c.op, xp...)
				vm, _ := tailAt(t, c.op, xm...)
				return (vp - vm) / (xp[i] - xm[i])
			}
			// Richardson's extrapolation of steps h and h/2: the
			// large shapes' tails (y^499) are too steep for one step.
			fd := (4*central(h/2) - central(h)) / 3
			if math.IsNaN(fd) || math.IsInf(fd, 0) ||
				math.Abs(gi-fd) > 1e-6*math.Max(math.Abs(fd), 1e-300) && math.Abs(gi-fd) > 1e-12 {
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
		{"gamma", ir.OpGammaLCDF, ir.OpGammaLCCDF, []float64{2.3, 1.4},
			func(y float64, p []float64) float64 { return distuv.Gamma{Alpha: p[0], Beta: p[1]}.Prob(y) }, 0, math.NaN(), 0.1, 5},
		{"beta", ir.OpBetaLCDF, ir.OpBetaLCCDF, []float64{2.5, 1.7},
			func(y float64, p []float64) float64 { return distuv.Beta{Alpha: p[0], Beta: p[1]}.Prob(y) }, 0, math.NaN(), 0.05, 0.95},
		// Student's t from -200 (the mass below is 1e-14 at ν = 7), the
		// rule's nodes split at μ - 3 where the density rises.
		{"student_t", ir.OpStudentTLCDF, ir.OpStudentTLCCDF, []float64{7, 0.4, 1.3},
			func(y float64, p []float64) float64 { return distuv.StudentsT{Nu: p[0], Mu: p[1], Sigma: p[2]}.Prob(y) }, -200, -2.6, -2, 4},
		{"inv_gamma", ir.OpInverseGammaLCDF, ir.OpInverseGammaLCCDF, []float64{3.2, 1.5},
			func(y float64, p []float64) float64 { return distuv.InverseGamma{Alpha: p[0], Beta: p[1]}.Prob(y) }, 0, math.NaN(), 0.1, 4},
		{"half_student_t", ir.OpHalfStudentTLCDF, ir.OpHalfStudentTLCCDF, []float64{4.5, 1.2},
			func(y float64, p []float64) float64 { return 2 * distuv.StudentsT{Nu: p[0], Sigma: p[1]}.Prob(y) }, 0, math.NaN(), 0.05, 4},
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

// TestTailsClosedForms: the families whose tails reduce to another's at
// one shape agree with it, value and gradient in the arguments they
// share, to 1e-12: the gamma with α = 1 is the exponential, the beta
// with α = β = 1 the uniform on (0, 1), Student's t with ν = 1 the
// Cauchy; and the beta with β = 1 has F = y^α, so log F = α log y and
// its partial in α is log y.
func TestTailsClosedForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for range 20 {
		y, s, m := 3*rng.Float64()+0.01, 2*rng.Float64()+0.2, 4*rng.Float64()-2
		u := rng.Float64()
		for _, c := range []struct {
			name     string
			op, same ir.Op
			x, sameX []float64
			pairs    [][2]int // (argument of op, argument of same) with equal partials
		}{
			{"gamma(1, β) log F", ir.OpGammaLCDF, ir.OpExponentialLCDF, []float64{y, 1, s}, []float64{y, s}, [][2]int{{0, 0}, {2, 1}}},
			{"gamma(1, β) log(1-F)", ir.OpGammaLCCDF, ir.OpExponentialLCCDF, []float64{y, 1, s}, []float64{y, s}, [][2]int{{0, 0}, {2, 1}}},
			{"beta(1, 1) log F", ir.OpBetaLCDF, ir.OpUniformLCDF, []float64{u, 1, 1}, []float64{u, 0, 1}, [][2]int{{0, 0}}},
			{"beta(1, 1) log(1-F)", ir.OpBetaLCCDF, ir.OpUniformLCCDF, []float64{u, 1, 1}, []float64{u, 0, 1}, [][2]int{{0, 0}}},
			{"student_t(1) log F", ir.OpStudentTLCDF, ir.OpCauchyLCDF, []float64{m, 1, 0.3, s}, []float64{m, 0.3, s}, [][2]int{{0, 0}, {2, 1}, {3, 2}}},
			{"student_t(1) log(1-F)", ir.OpStudentTLCCDF, ir.OpCauchyLCCDF, []float64{m, 1, 0.3, s}, []float64{m, 0.3, s}, [][2]int{{0, 0}, {2, 1}, {3, 2}}},
			{"half_student_t(1) log F", ir.OpHalfStudentTLCDF, ir.OpHalfCauchyLCDF, []float64{y, 1, s}, []float64{y, s}, [][2]int{{0, 0}, {2, 1}}},
			{"half_student_t(1) log(1-F)", ir.OpHalfStudentTLCCDF, ir.OpHalfCauchyLCCDF, []float64{y, 1, s}, []float64{y, s}, [][2]int{{0, 0}, {2, 1}}},
			// 1/Y for Y inverse gamma is gamma: F_IG(y) = 1 - F_Γ(1/y).
			{"inverse gamma log F", ir.OpInverseGammaLCDF, ir.OpGammaLCCDF, []float64{y, 2 * s, s}, []float64{1 / y, 2 * s, s}, [][2]int{{1, 1}, {2, 2}}},
			{"inverse gamma log(1-F)", ir.OpInverseGammaLCCDF, ir.OpGammaLCDF, []float64{y, 2 * s, s}, []float64{1 / y, 2 * s, s}, [][2]int{{1, 1}, {2, 2}}},
		} {
			v, g := tailAt(t, c.op, c.x...)
			w, gw := tailAt(t, c.same, c.sameX...)
			if math.Abs(v-w) > 1e-12*math.Max(1, math.Abs(w)) {
				t.Errorf("%s at %v = %.17g, closed form %.17g", c.name, c.x, v, w)
			}
			for _, p := range c.pairs {
				if a, b := g[p[0]], gw[p[1]]; math.Abs(a-b) > 1e-12*math.Max(1, math.Abs(b)) {
					t.Errorf("%s at %v: partial %d = %.17g, closed form %.17g", c.name, c.x, p[0], a, b)
				}
			}
		}
		a := 5*rng.Float64() + 0.05
		v, g := tailAt(t, ir.OpBetaLCDF, u, a, 1)
		if want := a * math.Log(u); math.Abs(v-want) > 1e-12*math.Max(1, math.Abs(want)) ||
			math.Abs(g[0]-a/u) > 1e-12*a/u || math.Abs(g[1]-math.Log(u)) > 1e-10*math.Max(1, -math.Log(u)) {
			t.Errorf("beta(%v, 1) log F at %v = %.17g, ∂ %v; want %.17g, ∂y %v, ∂α %v", a, u, v, g, want, a/u, math.Log(u))
		}
	}
}

// TestTailsComplement: for every family with tails, exp(log F) and
// exp(log(1-F)) sum to one (log-sum-exp 0 to 1e-13) at random arguments
// of its supports: the variate around the parameters' scale and far out.
func TestTailsComplement(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 9))
	opNamed := func(name string) ir.Op {
		for op := ir.Op(1); op < ir.NumOps; op++ {
			if ir.Def(op).Name == name {
				return op
			}
		}
		t.Fatalf("no op %s", name)
		return ir.OpNop
	}
	draw := func(support string) float64 {
		switch support {
		case "Positive":
			return math.Exp(3 * rng.NormFloat64())
		case "UnitInterval":
			return 1 / (1 + math.Exp(-4*rng.NormFloat64()))
		}
		return 5 * rng.NormFloat64()
	}
	for _, d := range opdef.All() {
		if d.LCDF == nil {
			continue
		}
		base, _, _ := strings.Cut(d.Name, "_lp")
		lcdf, lccdf := opNamed(base+"_lcdf"), opNamed(base+"_lccdf")
		for range 200 {
			x := make([]float64, len(d.Args))
			for i, a := range d.Args[1:] {
				x[i+1] = draw(a.Support)
			}
			if strings.HasPrefix(d.Support, "Bounded") { // the uniform: (-1, 2)
				x[1], x[2] = -1, 2
			}
			x[0] = draw(d.Support)
			if d.Support == "Real" {
				x[0] *= math.Exp(2 * rng.NormFloat64())
			}
			if strings.HasPrefix(d.Support, "Bounded") {
				x[0] = -1 + 3*rng.Float64()
			}
			lf, _ := tailAt(t, lcdf, x...)
			ls, _ := tailAt(t, lccdf, x...)
			if s := opdef.LogAddExp(lf, ls); !(math.Abs(s) <= 1e-13) {
				t.Errorf("%s at %v: log F = %v, log(1-F) = %v, log(F + 1-F) = %v", d.Family, x, lf, ls, s)
			}
		}
	}
}
