package vec_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/accel/vec"
)

// BenchmarkFamilies times the lockstep gradient of one likelihood term
// over 200 observations for 64 chains, in the shapes the samplers meet
// (a GLM's shared data y and a linear predictor per chain; the normal's
// regression, mixture and standard shapes), in thread CPU per chain: the
// before/after check of a change to a family's kernels (run it on both
// trees in one script, see bench/README.md).
func BenchmarkFamilies(b *testing.B) {
	const n, chains = 200, 64
	rng := rand.New(rand.NewPCG(5, 5))
	data := func(f func() float64) irtest.Arg {
		v := make([]float64, n)
		for i := range v {
			v[i] = f()
		}
		return irtest.Const([]int{n}, v...)
	}
	counts := data(func() float64 { return math.Floor(8 * rng.Float64()) })
	binary := data(func() float64 { return math.Floor(2 * rng.Float64()) })
	ys := data(func() float64 { return 4*rng.Float64() - 2 })
	sigmas := data(func() float64 { return 0.5 + rng.Float64() })
	for _, c := range []struct {
		name string
		op   ir.Op
		ints []int
		args []irtest.Arg
	}{
		{"poisson_log", ir.OpPoissonLogLPMF, nil, []irtest.Arg{counts, irtest.Param(-1, 2, n)}},
		{"bernoulli_logit", ir.OpBernoulliLogitLPMF, nil, []irtest.Arg{binary, irtest.Param(-3, 3, n)}},
		{"poisson", ir.OpPoissonLPMF, nil, []irtest.Arg{counts, irtest.Param(0.5, 4, n)}},
		{"binomial_logit", ir.OpBinomialLogitLPMF, nil, []irtest.Arg{counts, data(func() float64 { return 8 }), irtest.Param(-2, 2, n)}},
		{"student_t", ir.OpStudentTLPDF, nil, []irtest.Arg{ys, irtest.Param(2, 8), irtest.Param(-1, 1, n), irtest.Param(0.5, 2)}},
		{"gamma", ir.OpGammaLPDF, nil, []irtest.Arg{sigmas, irtest.Param(0.5, 3), irtest.Param(0.5, 3, n)}},
		{"half_normal_prior", ir.OpHalfNormalLPDF, nil, []irtest.Arg{irtest.Param(0.1, 3, n), irtest.Const(nil, 2)}},
		{"normal", ir.OpNormalLPDF, nil, []irtest.Arg{ys, irtest.Param(-1, 1, n), irtest.Param(0.5, 2)}},
		{"normal_data_sigma", ir.OpNormalLPDF, nil, []irtest.Arg{ys, irtest.Param(-1, 1, n), sigmas}},
		{"normal_mixture_pointwise", ir.OpNormalLPDF, []int{1}, []irtest.Arg{ys, irtest.Param(-1, 1), irtest.Param(0.5, 2)}},
		{"normal_std", ir.OpNormalLPDF, nil, []irtest.Arg{irtest.Param(-2, 2, n), irtest.Const(nil, 0), irtest.Const(nil, 1)}},
		// Tails (censored data, a regression's shape): a costly one, then
		// cheap ones, where the cost of the loop itself shows.
		{"normal_lcdf", ir.OpNormalLCDF, nil, []irtest.Arg{ys, irtest.Param(-1, 1, n), irtest.Param(0.5, 2)}},
		{"gamma_lcdf", ir.OpGammaLCDF, nil, []irtest.Arg{sigmas, irtest.Param(0.5, 3), irtest.Param(0.5, 3, n)}},
		{"exponential_lccdf", ir.OpExponentialLCCDF, nil, []irtest.Arg{sigmas, irtest.Param(0.5, 3, n)}},
		{"logistic_lccdf", ir.OpLogisticLCCDF, nil, []irtest.Arg{ys, irtest.Param(-1, 1, n), irtest.Param(0.5, 2)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			p, err := irtest.BuildProgram(func(bl *ir.Builder, in []ir.ID) (ir.ID, error) {
				lp, err := bl.Emit(c.op, in, c.ints, -1)
				if err != nil || c.ints == nil {
					return lp, err
				}
				return bl.Emit(ir.OpSum, []ir.ID{lp}, nil, -1)
			}, c.args...)
			if err != nil {
				b.Fatal(err)
			}
			xs := make([]float64, 0, chains*p.Dim)
			for range chains {
				xs = append(xs, irtest.Point(rng, c.args...)...)
			}
			bt := vec.New(p, chains)
			lps, grads := make([]float64, chains), make([]float64, chains*p.Dim)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var t int64
			for b.Loop() {
				t0 := threadCPU()
				bt.LogDensityGrad(xs, lps, grads)
				t += threadCPU() - t0
			}
			b.ReportMetric(float64(t)/float64(b.N*chains), "vec-ns/chain")
		})
	}
}
