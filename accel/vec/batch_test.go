package vec_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/vec"
	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl"
)

// agree reports whether got matches the reference want to 1e-12 relative
// (absolute near zero), infinities and NaN alike.
func agree(got, want float64) bool {
	if got == want || (math.IsNaN(got) && math.IsNaN(want)) {
		return true
	}
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}

// checkAgainstFrame evaluates p for chains positions, lockstep and with
// ir.Frame one at a time (the reference semantics, planned and unfused),
// and compares log densities and gradients.
func checkAgainstFrame(t *testing.T, name string, p *ir.Program, chains int, radius float64) {
	t.Helper()
	for _, unfused := range []bool{false, true} {
		checkAgainstFrameOnce(t, name, p, chains, radius, unfused)
	}
}

func checkAgainstFrameOnce(t *testing.T, name string, p *ir.Program, chains int, radius float64, unfused bool) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, uint64(chains)))
	xs := make([]float64, chains*p.Dim)
	for i := range xs {
		xs[i] = radius * (2*rng.Float64() - 1)
	}
	checkPositions(t, name, p, xs, unfused)
}

// checkAtBoundary is checkAgainstFrame with one coordinate of each chain
// far out (a bounded parameter's transform at its bound, in floating
// point, or beyond where exp overflows) and the others in (-1, 1).
func checkAtBoundary(t *testing.T, name string, p *ir.Program) {
	t.Helper()
	far := []float64{-40, 40, -800, 800, -1e5, 1e5, 0}
	d := p.Dim
	chains := 2 * len(far) * d
	rng := rand.New(rand.NewPCG(5, uint64(d)))
	xs := make([]float64, chains*d)
	for c := 0; c < chains; c++ {
		for j := 0; j < d; j++ {
			xs[c*d+j] = 2*rng.Float64() - 1
		}
		xs[c*d+(c/len(far))%d] = far[c%len(far)]
	}
	for _, unfused := range []bool{false, true} {
		checkPositions(t, name, p, xs, unfused)
	}
}

// checkPositions compares the lockstep evaluation of p at chain-major
// positions xs with ir.Frame one chain at a time.
func checkPositions(t *testing.T, name string, p *ir.Program, xs []float64, unfused bool) {
	t.Helper()
	d := p.Dim
	chains := len(xs) / d
	b := vec.New(p, chains)
	lps, grads := make([]float64, chains), make([]float64, chains*d)
	// Twice: the second call must not see state left by the first.
	for rep := 0; rep < 2; rep++ {
		b.LogDensityGrad(xs, lps, grads)
	}
	lpsOnly := make([]float64, chains)
	b.LogDensity(xs, lpsOnly)
	f := ir.NewFrame(p)
	f.Unfused = unfused
	g := make([]float64, d)
	finite := 0
	for c := 0; c < chains; c++ {
		want := f.Gradient(xs[c*d:(c+1)*d], g)
		if !agree(lps[c], want) || !agree(lpsOnly[c], want) {
			t.Errorf("%s chain %d: log density %v (forward only %v), ir.Frame %v", name, c, lps[c], lpsOnly[c], want)
			continue
		}
		if math.IsInf(want, 0) {
			continue
		}
		finite++
		for j := 0; j < d; j++ {
			if !agree(grads[c*d+j], g[j]) {
				t.Errorf("%s chain %d: gradient[%d] %v, ir.Frame %v", name, c, j, grads[c*d+j], g[j])
				break
			}
		}
	}
	if finite == 0 {
		t.Errorf("%s: no chain had a finite log density: the comparison tested nothing", name)
	}
}

// Every posteriordb model, lockstep against the reference, at random
// positions in (-1, 1) on the unconstrained scale and with one coordinate
// far out.
func TestPosteriordbAgainstFrame(t *testing.T) {
	for _, name := range posteriordb.Cases() {
		t.Run(name, func(t *testing.T) {
			c := posteriordb.Require(t, name)
			m, err := posteriordb.Model(name, c)
			if err != nil {
				t.Fatal(err)
			}
			cm, err := m.Compile()
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstFrame(t, name, cm.Program(), 7, 1)
			checkAtBoundary(t, name, cm.Program())
		})
	}
}

// Small models that exercise each lockstep kernel, with scalars
// broadcasting against vectors and data against parameters.
func TestKernelsAgainstFrame(t *testing.T) {
	data := []float64{0.3, -1.2, 2.5, 0.7}
	models := map[string]func(m *ppl.Model){
		"normal scalar params": func(m *ppl.Model) {
			mu := m.Normal("mu", 0, 2)
			s := m.HalfNormal("s", 1)
			m.Normal("y", mu, s, ppl.Observed(data))
		},
		"normal vector params": func(m *ppl.Model) {
			mu := m.Normal("mu", 0, 1, ppl.Size(4))
			s := m.LogNormal("s", 0, 1)
			m.Normal("y", ppl.Add(mu, 1), s, ppl.Observed(data))
		},
		"elementwise": func(m *ppl.Model) {
			x := m.Normal("x", 0, 1, ppl.Size(4))
			z := m.Normal("z", 0, 1)
			m.LogDensity("t1", ppl.Sum(ppl.Mul(ppl.Exp(ppl.Neg(ppl.Square(x))), data)))
			m.LogDensity("t2", ppl.Sum(ppl.Div(ppl.Sub(x, z), ppl.Add(ppl.Exp(z), 1))))
			m.LogDensity("t3", ppl.Log(ppl.Add(ppl.Sqrt(ppl.Exp(z)), 2)))
			m.LogDensity("t4", ppl.Sum(ppl.Div(data, ppl.Add(ppl.Square(x), 1))))
			m.LogDensity("t5", ppl.Neg(ppl.Sum(ppl.Mul(ppl.Mul(z, x), ppl.Sub(x, data)))))
		},
		"mixture": func(m *ppl.Model) {
			x := m.Flat("x")
			m.LogDensity("mix", ppl.LogSumExp(ppl.Add(ppl.LogPDF("Normal", x, []float64{-2, 0, 3.2, 2.5}, []float64{1.2, 1, 5, 2.8}),
				[]float64{math.Log(0.2), math.Log(0.3), math.Log(0.1), math.Log(0.4)})))
		},
		"log_mix": func(m *ppl.Model) {
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
			m.Normal("y", ppl.MatVec(x, beta), s, ppl.Observed(data))
		},
		"fallback ops": func(m *ppl.Model) {
			x := m.Normal("x", 0, 1, ppl.Size(3))
			m.Gamma("y", ppl.Softplus(x), ppl.Logistic(ppl.At(x, 0)), ppl.Observed([]float64{1, 2, 3}))
		},
	}
	// Models whose every op must have a lockstep kernel (else the
	// comparison would test package ir against itself).
	lockstep := map[string]bool{"glm": true, "glm invalid data": true, "sequences": true, "non-centred": true, "densities": true, "bounds": true, "location-scale": true, "regression": true, "regression offset": true, "regression collinear": true}
	// Regression likelihoods each model must fuse (linearNormal).
	affine := map[string]int{"non-centred": 3}
	linear := map[string]int{"regression": 5, "regression offset": 1, "regression collinear": 1}
	for name, build := range models {
		m := ppl.NewModel(name)
		build(m)
		cm, err := m.Compile()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ops := vec.FallbackOps(vec.New(cm.Program(), 1)); lockstep[name] && len(ops) > 0 {
			t.Errorf("%s: ops %v run per chain through package ir", name, ops)
		}
		if n := vec.LinearNormals(vec.New(cm.Program(), 1)); n != linear[name] {
			t.Errorf("%s: %d regression likelihoods fused, want %d", name, n, linear[name])
		}
		if n := vec.AffineNormals(vec.New(cm.Program(), 1)); n != affine[name] {
			t.Errorf("%s: %d non-centred likelihoods fused, want %d", name, n, affine[name])
		}
		for _, chains := range []int{1, 5} {
			checkAgainstFrame(t, name, cm.Program(), chains, 2)
		}
		// Far in the tails (the fused mixture's underflow path), and
		// one coordinate at a time at the bounds.
		if p := cm.Program(); p.Dim <= 4 {
			checkAgainstFrame(t, name, p, 9, 3000)
		}
		checkAtBoundary(t, name, cm.Program())
	}
}

// No allocation per evaluation: a fallback op, and every kind of
// lockstep and fused kernel.
func TestNoAllocation(t *testing.T) {
	models := map[string]func(m *ppl.Model){
		"fallback": func(m *ppl.Model) {
			mu := m.Normal("mu", 0, 1, ppl.Size(2))
			m.Gamma("y", ppl.Softplus(mu), 1, ppl.Observed([]float64{1, 2}))
		},
		"kernels": func(m *ppl.Model) {
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
	}
	for name, build := range models {
		m := ppl.NewModel(name)
		build(m)
		cm, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		b := vec.New(cm.Program(), 16)
		if n := testing.AllocsPerRun(10, b.Gradient); n != 0 {
			t.Errorf("%s: Gradient allocates %v times per call", name, n)
		}
		if n := testing.AllocsPerRun(10, b.Forward); n != 0 {
			t.Errorf("%s: Forward allocates %v times per call", name, n)
		}
		if name == "kernels" {
			if ops := vec.FallbackOps(b); len(ops) > 0 {
				t.Errorf("%s: ops %v run per chain through package ir", name, ops)
			}
			if vec.LinearNormals(b) != 1 || vec.AffineNormals(b) != 1 {
				t.Errorf("%s: %d regression and %d non-centred likelihoods fused, want 1 and 1", name, vec.LinearNormals(b), vec.AffineNormals(b))
			}
		}
	}
}

// The density form of a one-dimensional mixture: shift + log of
// ForwardDensity's sums (LogFromDensity) must give Forward's LP, near the
// components, far in the tails (where the sum underflows and the
// log-sum-exp is redone) and at ±Inf; a model with anything else per
// chain (a bounded variable's transform, a second dimension) has no
// density form.
func TestDensityForm(t *testing.T) {
	build := func(extra func(m *ppl.Model, x *ppl.RV)) *vec.Batch {
		m := ppl.NewModel("mix")
		x := m.Flat("x")
		m.LogDensity("mix", ppl.LogSumExp(ppl.Add(ppl.LogPDF("Normal", x, []float64{-2, 0, 3.2, 2.5}, []float64{1.2, 1, 5, 2.8}),
			[]float64{math.Log(0.2), math.Log(0.3), math.Log(0.1), math.Log(0.4)})))
		if extra != nil {
			extra(m, x)
		}
		cm, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		return vec.New(cm.Program(), 11)
	}
	b := build(nil)
	if !b.DensityForm() {
		t.Fatal("a one-dimensional mixture has no density form")
	}
	ys := []float64{0, -2, 3.2, 17, -40, 300, -1e4, 1e150, math.Inf(1), math.Inf(-1), 0.5}
	copy(b.X(), ys)
	b.Forward()
	want := append([]float64(nil), b.LP...)
	dens := make([]float64, len(ys))
	for i := range dens {
		dens[i] = math.NaN() // ForwardDensity must write every chain
	}
	b.ForwardDensity(dens)
	for c, y := range ys {
		got := b.LogFromDensity(dens[c], y)
		if !(got == want[c] || math.Abs(got-want[c]) <= 1e-14*math.Abs(want[c])) {
			t.Errorf("y=%g: shift + log s = %g, Forward gives %g", y, got, want[c])
		}
	}
	for name, extra := range map[string]func(m *ppl.Model, x *ppl.RV){
		"second variable": func(m *ppl.Model, x *ppl.RV) { m.Normal("z", 0, 1) },
		"a term of x":     func(m *ppl.Model, x *ppl.RV) { m.LogDensity("t", ppl.Neg(ppl.Square(x))) },
	} {
		if build(extra).DensityForm() {
			t.Errorf("%s: density form claimed for a model with more than the mixture", name)
		}
	}
}
