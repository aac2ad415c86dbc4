package ir_test

import (
	"math"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// BenchmarkFamilies times the log density and gradient of each family
// defined in accel/opdef as a likelihood over benchN observations: one
// parameter per observation and one shared (the memoised kind), the
// shape of a regression. It is the before/after check of moving a
// family from hand-written loops to generated ones: run it on both
// trees in one script (see bench/README.md).
func BenchmarkFamilies(b *testing.B) {
	y := func(lo, hi float64) irtest.Arg { return irtest.Const([]int{benchN}, benchData(lo, hi)...) }
	floor := func(v []float64) []float64 {
		for i := range v {
			v[i] = math.Floor(v[i])
		}
		return v
	}
	counts := irtest.Const([]int{benchN}, floor(benchData(0, 10))...)
	trials := irtest.Const([]int{benchN}, floor(benchData(10, 12))...)
	binary := irtest.Const([]int{benchN}, floor(benchData(0, 2))...)
	vec := func(lo, hi float64) irtest.Arg { return irtest.Param(lo, hi, benchN) }
	for _, c := range []struct {
		name string
		op   ir.Op
		args []irtest.Arg
	}{
		// The normal in four shapes: a regression (one σ), measurement
		// errors as data (eight schools), a vector of latents with one μ
		// and σ, and a standard normal prior.
		{"normal", ir.OpNormalLPDF, []irtest.Arg{y(-2, 2), vec(-1, 1), irtest.Param(0.5, 2)}},
		{"normal_data_sigma", ir.OpNormalLPDF, []irtest.Arg{y(-2, 2), vec(-1, 1), y(0.5, 2)}},
		{"normal_latent", ir.OpNormalLPDF, []irtest.Arg{vec(-2, 2), irtest.Param(-1, 1), irtest.Param(0.5, 2)}},
		{"normal_std", ir.OpNormalLPDF, []irtest.Arg{vec(-2, 2), irtest.Const(nil, 0), irtest.Const(nil, 1)}},
		{"half_normal", ir.OpHalfNormalLPDF, []irtest.Arg{y(0.1, 3), vec(0.5, 2)}},
		{"half_cauchy", ir.OpHalfCauchyLPDF, []irtest.Arg{y(0.1, 3), vec(0.5, 2)}},
		{"cauchy", ir.OpCauchyLPDF, []irtest.Arg{y(-2, 2), vec(-1, 1), irtest.Param(0.5, 2)}},
		{"lognormal", ir.OpLogNormalLPDF, []irtest.Arg{y(0.1, 5), vec(-1, 1), irtest.Param(0.5, 2)}},
		{"exponential", ir.OpExponentialLPDF, []irtest.Arg{y(0.1, 4), vec(0.5, 3)}},
		{"gamma", ir.OpGammaLPDF, []irtest.Arg{y(0.1, 4), irtest.Param(0.5, 3), vec(0.5, 3)}},
		{"inv_gamma", ir.OpInvGammaLPDF, []irtest.Arg{y(0.1, 4), vec(0.5, 3), irtest.Param(0.5, 3)}},
		{"laplace", ir.OpLaplaceLPDF, []irtest.Arg{y(-2, 2), vec(-1, 1), irtest.Param(0.5, 2)}},
		{"logistic", ir.OpLogisticLPDF, []irtest.Arg{y(-2, 2), vec(-1, 1), irtest.Param(0.5, 2)}},
		{"uniform", ir.OpUniformLPDF, []irtest.Arg{y(-0.9, 0.9), irtest.Param(-3, -1), irtest.Param(1, 3)}},
		{"weibull", ir.OpWeibullLPDF, []irtest.Arg{y(0.1, 4), irtest.Param(0.5, 3), vec(0.5, 3)}},
		{"beta", ir.OpBetaLPDF, []irtest.Arg{y(0.05, 0.95), vec(0.5, 5), irtest.Param(0.5, 5)}},
		{"bernoulli", ir.OpBernoulliLPMF, []irtest.Arg{binary, vec(0.05, 0.95)}},
		{"binomial", ir.OpBinomialLPMF, []irtest.Arg{counts, trials, vec(0.05, 0.95)}},
		{"binomial_logit", ir.OpBinomialLogitLPMF, []irtest.Arg{counts, trials, vec(-3, 3)}},
		{"poisson", ir.OpPoissonLPMF, []irtest.Arg{counts, vec(0.5, 8)}},
		{"neg_binomial_2", ir.OpNegBinomialLPMF, []irtest.Arg{counts, vec(0.5, 8), irtest.Param(0.5, 5)}},
		// Student's t with ν a parameter, then ν data (a robust regression's fixed ν).
		{"student_t", ir.OpStudentTLPDF, []irtest.Arg{y(-2, 2), irtest.Param(2, 8), vec(-1, 1), irtest.Param(0.5, 2)}},
		{"student_t_fixed_nu", ir.OpStudentTLPDF, []irtest.Arg{y(-2, 2), irtest.Const(nil, 4), vec(-1, 1), irtest.Param(0.5, 2)}},
		{"half_student_t", ir.OpHalfStudentTLPDF, []irtest.Arg{y(0.1, 3), irtest.Param(2, 8), vec(0.5, 2)}},
		// Tails (censored and truncated data): a costly one, then cheap
		// ones, where the cost of the loop itself shows.
		{"normal_lcdf", ir.OpNormalLCDF, []irtest.Arg{y(-2, 2), vec(-1, 1), irtest.Param(0.5, 2)}},
		{"gamma_lcdf", ir.OpGammaLCDF, []irtest.Arg{y(0.1, 4), irtest.Param(0.5, 3), vec(0.5, 3)}},
		{"exponential_lccdf", ir.OpExponentialLCCDF, []irtest.Arg{y(0.1, 4), vec(0.5, 3)}},
		{"logistic_lccdf", ir.OpLogisticLCCDF, []irtest.Arg{y(-2, 2), vec(-1, 1), irtest.Param(0.5, 2)}},
	} {
		b.Run(c.name, func(b *testing.B) { benchOp(b, c.op, c.args...) })
	}
}
