package posteriordb

import (
	"math"

	"github.com/gobayes/gobayes/ppl"
)

// The small models of accel's tests, written with ppl here because accel
// must not import ppl; TestFixtures compiles them into the fixture sets
// irtest.Kernels and irtest.Small. A model's name is its fixture's name.

// kernelModels exercise each of accel/vec's lockstep kernels, with
// scalars broadcasting against vectors and data against parameters
// (accel/vec's TestKernelsAgainstFrame runs every one of them).
var kernelModels = map[string]func(m *ppl.Model){
	"normal scalar params": func(m *ppl.Model) {
		mu := m.Normal("mu", 0, 2)
		s := m.HalfNormal("s", 1)
		m.Normal("y", mu, s, ppl.Observed(kernelData))
	},
	"normal vector params": func(m *ppl.Model) {
		mu := m.Normal("mu", 0, 1, ppl.Size(4))
		s := m.LogNormal("s", 0, 1)
		m.Normal("y", ppl.Add(mu, 1), s, ppl.Observed(kernelData))
	},
	"elementwise": func(m *ppl.Model) {
		data := kernelData
		x := m.Normal("x", 0, 1, ppl.Size(4))
		z := m.Normal("z", 0, 1)
		m.LogDensity("t1", ppl.Sum(ppl.Mul(ppl.Exp(ppl.Neg(ppl.Square(x))), data)))
		m.LogDensity("t2", ppl.Sum(ppl.Div(ppl.Sub(x, z), ppl.Add(ppl.Exp(z), 1))))
		m.LogDensity("t3", ppl.Log(ppl.Add(ppl.Sqrt(ppl.Exp(z)), 2)))
		m.LogDensity("t4", ppl.Sum(ppl.Div(data, ppl.Add(ppl.Square(x), 1))))
		m.LogDensity("t5", ppl.Neg(ppl.Sum(ppl.Mul(ppl.Mul(z, x), ppl.Sub(x, data)))))
	},
	"mixture": mixture4,
	"log_mix": func(m *ppl.Model) {
		data := kernelData
		th := m.Beta("theta", 2, 2)
		mu := m.Normal("mu", 0, 3, ppl.Size(2))
		m.LogDensity("mix", ppl.Sum(ppl.LogMix(th, ppl.LogPDF("Normal", data, ppl.At(mu, 0), 1), ppl.LogPDF("Normal", data, ppl.At(mu, 1), 1))))
	},
	// Bijectors of bounded parameters: shared scalar and vector
	// bounds, bounds that are parameters (per chain), both kinds of
	// interval.
	"bounds": func(m *ppl.Model) {
		lo := m.Normal("lo", 0, 1)
		m.Normal("a", 0, 2, ppl.Lower(-1), ppl.Size(3))
		m.Normal("b", 0, 2, ppl.Upper([]float64{1, 2, 3}), ppl.Size(3))
		m.Normal("c", 0, 1, ppl.Bounds(-1, 2), ppl.Size(2))
		m.Normal("d", 0, 1, ppl.Bounds([]float64{-1, 0}, []float64{0, 5}), ppl.Size(2))
		m.Normal("e", lo, 1, ppl.Lower(lo))
		m.Normal("f", lo, 1, ppl.Upper(ppl.Add(lo, 1)), ppl.Size(2))
		m.Normal("g", 0, 1, ppl.Bounds(lo, ppl.Add(lo, ppl.Exp(lo))))
		m.Normal("h", 0, 1, ppl.Bounds(-2, lo), ppl.Size(3))
	},
	// Location-scale priors and likelihoods (shared scales, scales
	// per chain, scalar and vector, pointwise inside a mixture).
	"location-scale": func(m *ppl.Model) {
		data := kernelData
		tau := m.HalfCauchy("tau", 5)
		s := m.HalfNormal("s", 2.5)
		m.HalfNormal("hn", []float64{1, 2, 0.5}, ppl.Size(3))
		mu := m.Cauchy("mu", 0, 10)
		th := m.Cauchy("th", mu, tau, ppl.Size(4))
		m.HalfCauchy("hc", s, ppl.Size(2))
		m.LogNormal("ln", 0, 1.5, ppl.Size(2))
		m.LogNormal("lnv", mu, s, ppl.Size(2))
		m.LogNormal("yl", th, s, ppl.Observed([]float64{0.5, 1.5, 2, 3}))
		m.Cauchy("yc", th, []float64{1, 2, 3, 0.5}, ppl.Observed(data))
		m.Normal("yn", th, []float64{1, 2, 3, 0.5}, ppl.Observed(data))
		m.Normal("yt", 1.5, tau, ppl.Observed(data))
		m.Normal("yp", mu, 2, ppl.Observed(data))
		m.LogDensity("mixc", ppl.LogSumExp(ppl.LogPDF("Cauchy", data, mu, s)))
		m.LogDensity("mixh", ppl.LogSumExp(ppl.LogPDF("HalfNormal", tau, []float64{1, 2})))
	},
	// The other scalar densities: shared and per-chain parameters,
	// observed and latent variates, pointwise.
	"densities": func(m *ppl.Model) {
		data := kernelData
		pos := []float64{0.3, 1.2, 2.5, 0.7}
		nu := m.Gamma("nu", 2, 0.1)
		lam := m.Exponential("lam", 1)
		ig := m.InverseGamma("ig", 3, 2)
		mu := m.Normal("mu", 0, 1)
		m.Exponential("ex", lam, ppl.Observed(pos))
		m.Exponential("exv", []float64{1, 2}, ppl.Size(2))
		m.Gamma("gy", ig, lam, ppl.Observed(pos))
		m.Gamma("gv", []float64{1, 2, 3}, 1.5, ppl.Size(3))
		m.InverseGamma("igy", 2, ig, ppl.Observed(pos))
		m.InverseGamma("igv", lam, []float64{1, 0.5}, ppl.Size(2))
		m.StudentT("t", nu, 0, 1, ppl.Size(3))
		m.StudentT("ty", 4, mu, ig, ppl.Observed(data))
		m.StudentT("tv", []float64{3, 5, 30}, mu, 2, ppl.Size(3))
		m.HalfStudentT("ht", 3, 2)
		m.HalfStudentT("hty", nu, ig, ppl.Observed(pos))
		m.LogDensity("mixt", ppl.LogSumExp(ppl.LogPDF("StudentT", data, nu, mu, 1)))
		m.LogDensity("mixg", ppl.LogSumExp(ppl.LogPDF("Gamma", pos, ig, 2)))
	},
	// Non-centred hierarchical likelihoods θ = μ + τ·z (the fused
	// affine kernel): a data σ per element, a scalar σ, either
	// operand order.
	"non-centred": func(m *ppl.Model) {
		data := kernelData
		mu := m.Normal("mu", 0, 5)
		tau := m.HalfCauchy("tau", 5)
		z := m.Normal("z", 0, 1, ppl.Size(4))
		m.Normal("y", ppl.Add(mu, ppl.Mul(tau, z)), []float64{1, 2, 0.5, 3}, ppl.Observed(data))
		m.Normal("y2", ppl.Add(ppl.Mul(z, mu), tau), 1.5, ppl.Observed(data))
		// θ as a deterministic output (a view of the add's slots).
		th := m.Deterministic("theta", ppl.Add(tau, ppl.Mul(z, tau)))
		m.Normal("y3", th, []float64{2, 1, 1, 3}, ppl.Observed(data))
	},
	// Time-series structure: linear recurrences (per-chain and shared
	// coefficients and initial values), concat, slice.
	"sequences": func(m *ppl.Model) {
		data := kernelData
		x0 := m.Normal("x0", 0, 1)
		a := m.Normal("a", 0, 1, ppl.Size(4))
		phi := m.Normal("phi", 0, 0.5)
		r := ppl.LinearRecurrence(x0, a, phi)
		m.Normal("y", r, 1, ppl.Observed(data))
		r2 := ppl.LinearRecurrence(0.5, []float64{1, 0, -1, 2}, ppl.Concat(phi, phi, 0.9, ppl.At(a, 1)))
		m.Normal("y2", ppl.Concat(r2, x0), 2, ppl.Observed(append([]float64{1}, data...)))
		m.LogDensity("s", ppl.Neg(ppl.Sum(ppl.Square(ppl.Slice(ppl.Concat(a, r), 2, 5)))))
	},
	// Generalised linear models: Poisson and logistic regressions,
	// with an invalid observation (a non-count, a non-binary y), and
	// pointwise.
	"glm": func(m *ppl.Model) {
		x := [][]float64{{1, 0.5}, {1, -1.5}, {1, 2}, {1, 0.1}}
		beta := m.Normal("beta", 0, 2, ppl.Size(2))
		eta := ppl.MatVec(x, beta)
		m.PoissonLog("k", eta, ppl.Observed([]float64{0, 3, 12, 1}))
		m.BernoulliLogit("b", eta, ppl.Observed([]float64{1, 0, 1, 1}))
		m.LogDensity("kp", ppl.LogSumExp(ppl.LogPDF("PoissonLog", []float64{2, 0, 1, 5}, eta)))
		m.LogDensity("bp", ppl.LogSumExp(ppl.LogPDF("BernoulliLogit", []float64{0, 0, 1, 0}, eta)))
	},
	"glm invalid data": func(m *ppl.Model) {
		beta := m.Normal("beta", 0, 2, ppl.Size(2))
		// The invalid term is -Inf; the log-sum-exp keeps the valid one.
		m.LogDensity("k", ppl.LogSumExp(ppl.LogPDF("PoissonLog", []float64{1.5, 3}, beta)))
		m.LogDensity("b", ppl.LogSumExp(ppl.LogPDF("BernoulliLogit", []float64{0.5, 1}, beta)))
		m.Normal("z", 0, 1)
	},
	// Linear regressions (the fused sufficient-statistics kernel):
	// a per-chain σ, a data σ, a large offset in y (the centring's
	// accuracy) and collinear columns (no least-squares fit).
	"regression": func(m *ppl.Model) {
		x := [][]float64{{1, 0.5}, {1, -1.5}, {1, 2}, {1, 0.1}, {1, -0.3}}
		y := []float64{1.1, -2, 3.5, 0.2, 0.1}
		beta := m.Normal("beta", 0, 2, ppl.Size(2))
		s := m.HalfNormal("s", 1)
		m.Normal("y", ppl.MatVec(x, beta), s, ppl.Observed(y))
		m.Normal("y2", ppl.MatVec(x, beta), 0.7, ppl.Observed(y))
		// Intercepts and slopes as per-chain scalars times data.
		a, c, e := m.Normal("a", 0, 1), m.Normal("c", 0, 1), m.Normal("e", 0, 1)
		x1, x2 := []float64{0.5, -1.5, 2, 0.1, -0.3}, []float64{1, 0, -1, 2, 0.5}
		m.Normal("y3", ppl.Add(a, ppl.Mul(c, x1)), s, ppl.Observed(y))
		m.Normal("y4", ppl.Add(ppl.MatVec(x, beta), a), s, ppl.Observed(y))
		m.Normal("y5", ppl.Add(ppl.Mul(x1, c), ppl.Add(a, ppl.Mul(e, x2))), 0.3, ppl.Observed(y))
	},
	"regression offset": func(m *ppl.Model) {
		x := [][]float64{{1, 0.5}, {1, -1.5}, {1, 2}, {1, 0.1}, {1, -0.3}}
		y := []float64{1000.1, 998.7, 1002.1, 1000.05, 999.6}
		beta := m.Normal("beta", 1000, 10, ppl.Size(2))
		s := m.HalfNormal("s", 1)
		m.Normal("y", ppl.MatVec(x, beta), s, ppl.Observed(y))
	},
	"regression collinear": func(m *ppl.Model) {
		x := [][]float64{{1, 2}, {1, 2}, {-1, -2}, {0.5, 1}}
		beta := m.Normal("beta", 0, 2, ppl.Size(2))
		s := m.HalfCauchy("s", 1)
		m.Normal("y", ppl.MatVec(x, beta), s, ppl.Observed(kernelData))
	},
	"fallback ops": func(m *ppl.Model) {
		x := m.Normal("x", 0, 1, ppl.Size(3))
		m.Gamma("y", ppl.Softplus(x), ppl.Logistic(ppl.At(x, 0)), ppl.Observed([]float64{1, 2, 3}))
	},
}

// kernelData is the observed vector most kernel models share.
var kernelData = []float64{0.3, -1.2, 2.5, 0.7}

// mixture4 is bench/rwmh's one-dimensional mixture of four normals.
func mixture4(m *ppl.Model) {
	x := m.Flat("x")
	m.LogDensity("mix", ppl.LogSumExp(ppl.Add(ppl.LogPDF("Normal", x, []float64{-2, 0, 3.2, 2.5}, []float64{1.2, 1, 5, 2.8}),
		[]float64{math.Log(0.2), math.Log(0.3), math.Log(0.1), math.Log(0.4)})))
}

// smallModels are the models accel's tests and benchmarks name one by
// one; the comment of each says who reads it.
var smallModels = map[string]func(m *ppl.Model){
	// accel/vec's TestNoAllocation: a fallback op, and every kind of
	// lockstep and fused kernel.
	"allocation fallback": func(m *ppl.Model) {
		mu := m.Normal("mu", 0, 1, ppl.Size(2))
		m.Gamma("y", ppl.Softplus(mu), 1, ppl.Observed([]float64{1, 2}))
	},
	"allocation kernels": func(m *ppl.Model) {
		y := []float64{1, 2, 0.5}
		mu := m.Normal("mu", 0, 5)
		tau := m.HalfCauchy("tau", 5)
		z := m.Normal("z", 0, 1, ppl.Size(3))
		m.Normal("y", ppl.Add(mu, ppl.Mul(tau, z)), y, ppl.Observed(y))
		beta := m.StudentT("beta", 4, 0, 1, ppl.Size(2))
		s := m.Gamma("s", 2, 1)
		m.Normal("y2", ppl.MatVec([][]float64{{1, 0}, {1, 1}, {1, 2}}, beta), s, ppl.Observed(y))
		w := m.Normal("w", 0, 1, ppl.Bounds(0, 1))
		m.InverseGamma("v", 2, w)
		r := ppl.LinearRecurrence(mu, z, w)
		m.Cauchy("y3", ppl.Concat(r, ppl.Slice(z, 0, 1)), 2, ppl.Observed([]float64{1, 2, 3, 4}))
		m.LogNormal("y4", mu, tau, ppl.Observed(y))
		m.Exponential("e", 1, ppl.Size(2))
	},
	// accel/vec's TestDensityForm: the mixture has a density form, the
	// mixture with anything else per chain has none.
	"density mixture": mixture4,
	"density mixture, second variable": func(m *ppl.Model) {
		mixture4(m)
		m.Normal("z", 0, 1)
	},
	"density mixture, a term of x": func(m *ppl.Model) {
		x := m.Flat("x")
		m.LogDensity("mix", ppl.LogSumExp(ppl.Add(ppl.LogPDF("Normal", x, []float64{-2, 0, 3.2, 2.5}, []float64{1.2, 1, 5, 2.8}),
			[]float64{math.Log(0.2), math.Log(0.3), math.Log(0.1), math.Log(0.4)})))
		m.LogDensity("t", ppl.Neg(ppl.Square(x)))
	},
	// accel/vec's BenchmarkMixtureForward: bench/rwmh's mixture.
	"gauss_mix4": func(m *ppl.Model) {
		x := m.Flat("x")
		logW := []float64{math.Log(0.2), math.Log(0.3), math.Log(0.1), math.Log(0.4)}
		m.LogDensity("mixture", ppl.LogSumExp(ppl.Add(ppl.LogPDF("Normal", x, []float64{-2, 0, 3.2, 2.5}, []float64{1.2, 1, 5, 2.8}), logW)))
	},
	// accel/vec's TestLinearNormalNearFit: a regression whose response
	// sits far from zero (y ≈ 1000 + noise), two likelihoods to fuse.
	"linear offset": func(m *ppl.Model) {
		x := [][]float64{{1, 0.5}, {1, -1.5}, {1, 2}, {1, 0.1}, {1, -0.3}, {1, 1.2}}
		y := []float64{1000.6, 998.4, 1002.1, 1000.05, 999.6, 1001.3}
		beta := m.Flat("beta", ppl.Size(2))
		s := m.HalfNormal("s", 1)
		m.Normal("y", ppl.MatVec(x, beta), s, ppl.Observed(y))
		m.Normal("y2", ppl.MatVec(x, beta), 0.5, ppl.Observed(y))
	},
	// accel/vec's TestAffineNormalWritesOutput: a deterministic
	// θ = μ + τ·z that a fused non-centred likelihood reads.
	"affine theta": func(m *ppl.Model) {
		mu := m.Normal("mu", 0, 5)
		tau := m.HalfCauchy("tau", 5)
		z := m.Normal("z", 0, 1, ppl.Size(3))
		th := m.Deterministic("theta", ppl.Add(mu, ppl.Mul(tau, z)))
		m.Normal("y", th, []float64{1, 2, 3}, ppl.Observed([]float64{0.5, -1, 2}))
	},
}
