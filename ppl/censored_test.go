package ppl

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/ppl/diag"
)

// Independent oracles: Φ from math.Erfc, the normal log density by hand.
func normCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }
func normLogPDF(y, mu, s float64) float64 {
	z := (y - mu) / s
	return -0.5*z*z - math.Log(s) - 0.5*math.Log(2*math.Pi)
}

// caught runs f and returns the error it panicked with (nil for none).
func caught(f func()) (err error) {
	defer Catch(&err)
	f()
	return nil
}

// TestLogCDFFunctions: LogCDF, LogCCDF, LogPhi and Phi in a log density,
// against math.Erfc and the closed forms, with the gradient against
// finite differences; a family without a CDF is an error naming it.
func TestLogCDFFunctions(t *testing.T) {
	m := NewModel("tails")
	a := m.Flat("a")
	b := m.Flat("b", Size(2))
	m.LogDensity("normal", Sum(LogCDF("Normal", b, a, 2.0)))
	m.LogDensity("weibull", LogCCDF("Weibull", Exp(a), 1.5, 2.0))
	m.LogDensity("probit", Add(Sum(LogPhi(b)), Phi(a)))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0.3, -1.2, 0.8}
	want := math.Log(normCDF((-1.2-0.3)/2)) + math.Log(normCDF((0.8-0.3)/2)) -
		math.Pow(math.Exp(0.3)/2, 1.5) +
		math.Log(normCDF(-1.2)) + math.Log(normCDF(0.8)) + normCDF(0.3)
	if got := c.LogDensity(x); math.Abs(got-want) > 1e-12 {
		t.Errorf("log density %.15g, want %.15g", got, want)
	}
	irtest.CheckGradient(t, c.Program(), x, 1e-6)
	// Probit far out: log Φ(-40) (mpmath: -804.60844201375378817).
	m2 := NewModel("probit")
	e := m2.Flat("eta")
	m2.LogDensity("lp", LogPhi(e))
	c2, err := m2.Compile()
	if err != nil {
		t.Fatal(err)
	}
	if got := c2.LogDensity([]float64{-40}); math.Abs(got+804.60844201375378817) > 1e-9 {
		t.Errorf("LogPhi(-40) = %v", got)
	}
	for fam, want := range map[string]string{
		"Flat":      "Flat is improper",
		"Poisson":   "Poisson is discrete",
		"Dirichlet": "Dirichlet is multivariate",
	} {
		err := caught(func() { LogCDF(fam, 1.0, 1.0, 1.0) })
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("LogCDF(%q): %v, want an error saying %q", fam, err, want)
		}
	}
}

// TestCensoredDensity: a censored regression's log density and its
// pointwise log-likelihood, term by term, against the hand-written
// formula (lower bounds per observation, one upper bound), and the
// gradient against finite differences.
func TestCensoredDensity(t *testing.T) {
	xs := []float64{0, 1, 2, 3, 4, 5}
	y := []float64{-1.5, 0.3, 3.0, 1.2, 5, -1}
	lower := []float64{-1, -2, -1, -1, -1, -0.5}
	const upper = 3.0
	m := NewModel("tobit")
	a := m.Flat("a")
	b := m.Flat("b")
	s := m.HalfFlat("s")
	m.Normal("y", Add(a, Mul(b, xs)), s, Censored(lower, upper), Observed(y))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	terms := func(a, b, s float64) []float64 {
		out := make([]float64, len(y))
		for i, v := range y {
			mu := a + b*xs[i]
			switch {
			case v <= lower[i]:
				out[i] = math.Log(normCDF((lower[i] - mu) / s))
			case v >= upper:
				out[i] = math.Log(1 - normCDF((upper-mu)/s))
			default:
				out[i] = normLogPDF(v, mu, s)
			}
		}
		return out
	}
	x := []float64{0.4, 0.3, math.Log(1.3)}
	want := x[2] // HalfFlat's log-Jacobian
	for _, v := range terms(0.4, 0.3, 1.3) {
		want += v
	}
	if got := c.LogDensity(x); math.Abs(got-want) > 1e-10 {
		t.Errorf("log density %.15g, want %.15g", got, want)
	}
	irtest.CheckGradient(t, c.Program(), x, 1e-6)
	if c.LogLikLen() != len(y) {
		t.Fatalf("LogLikLen %d, want %d", c.LogLikLen(), len(y))
	}
	out := make([]float64, len(y))
	if err := c.PointwiseLogLik([]float64{0.4, 0.3, 1.3}, out); err != nil {
		t.Fatal(err)
	}
	for i, w := range terms(0.4, 0.3, 1.3) {
		if math.Abs(out[i]-w) > 1e-10 {
			t.Errorf("log-likelihood term %d = %.15g, want %.15g", i, out[i], w)
		}
	}
	// Replicated data are censored as the data are: clipped to the bounds.
	rng := rand.New(rand.NewPCG(1, 2))
	sawUpper := false
	for range 50 {
		rep, err := c.PosteriorPredictive(rng, []float64{0.4, 0.3, 1.3})
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range rep["y"] {
			if v < lower[i] || v > upper {
				t.Fatalf("replicated y[%d] = %v outside [%v, %v]", i, v, lower[i], upper)
			}
			sawUpper = sawUpper || v == upper
		}
	}
	if !sawUpper {
		t.Error("no replicated value censored at the upper bound")
	}
}

// posteriorByQuadrature is the mean and sd of the density exp(logp) on
// [lo, hi], by the trapezoid rule on a fine grid.
func posteriorByQuadrature(logp func(float64) float64, lo, hi float64) (mean, sd float64) {
	const n = 20000
	h := (hi - lo) / n
	lps := make([]float64, n+1)
	top := math.Inf(-1)
	for i := range lps {
		lps[i] = logp(lo + float64(i)*h)
		top = math.Max(top, lps[i])
	}
	var z, m1, m2 float64
	for i, lp := range lps {
		w := math.Exp(lp - top)
		if i == 0 || i == n {
			w /= 2
		}
		x := lo + float64(i)*h
		z += w
		m1 += w * x
		m2 += w * x * x
	}
	mean = m1 / z
	return mean, math.Sqrt(m2/z - mean*mean)
}

// checkPosterior compares the draws of col with a mean (to 5 MCSE) and an
// sd (to 10%).
func checkPosterior(t *testing.T, fit interface {
	ByChain(string) [][]float64
}, col string, mean, sd float64) {
	t.Helper()
	ch := fit.ByChain(col)
	flat := diag.Flatten(ch)
	var m1, m2 float64
	for _, v := range flat {
		m1 += v
		m2 += v * v
	}
	n := float64(len(flat))
	got := m1 / n
	gsd := math.Sqrt(m2/n - got*got)
	if se := diag.MCSEMean(ch); math.Abs(got-mean) > 5*se {
		t.Errorf("%s: mean %.4f, want %.4f ± %.4f (5 MCSE)", col, got, mean, 5*se)
	}
	if math.Abs(gsd-sd) > 0.1*sd {
		t.Errorf("%s: sd %.4f, want %.4f within 10%%", col, gsd, sd)
	}
}

// TestCensoredPosterior: a right-censored normal mean (σ = 1 known, flat
// prior) sampled with NUTS against its posterior by quadrature,
// Π φ(yᵢ-μ) · (1 - Φ(2-μ))^k with Φ from math.Erfc.
func TestCensoredPosterior(t *testing.T) {
	if testing.Short() {
		t.Skip("sampling")
	}
	y := []float64{0.2, 1.4, 2, 2, 0.9, -0.3, 2}
	m := NewModel("censored_mean")
	mu := m.Flat("mu")
	m.Normal("y", mu, 1, Censored(nil, 2.0), Observed(y))
	mean, sd := posteriorByQuadrature(func(mu float64) float64 {
		lp := 0.0
		for _, v := range y {
			if v >= 2 {
				lp += math.Log(normCDF(mu - 2))
			} else {
				lp += normLogPDF(v, mu, 1)
			}
		}
		return lp
	}, -10, 15)
	fit := m.Sample(Seed(3), Chains(4), Warmup(500), Draws(1000), LiveProgress(false))
	checkPosterior(t, fit, "mu", mean, sd)
	ll := m.LogLik(fit)
	if ll.Vars[0].Shape[0] != len(y) {
		t.Errorf("LogLik has %v terms, want %d", ll.Vars[0].Shape, len(y))
	}
}

// TestCensoredRecovery: a Tobit model (censored below at -1 and above
// at 3) recovers the mean and sd that simulated 300 observations, within
// 4 posterior sd; ignoring the censoring would shrink σ well below.
func TestCensoredRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("sampling")
	}
	const trueMu, trueSigma, lo, hi = 1.5, 2.0, -1.0, 3.0
	rng := rand.New(rand.NewPCG(42, 7))
	y := make([]float64, 300)
	censored := 0
	for i := range y {
		y[i] = math.Min(hi, math.Max(lo, trueMu+trueSigma*rng.NormFloat64()))
		if y[i] == lo || y[i] == hi {
			censored++
		}
	}
	if censored < 60 {
		t.Fatalf("only %d censored observations; the test needs many", censored)
	}
	m := NewModel("tobit")
	mu := m.Normal("mu", 0, 10)
	sigma := m.HalfNormal("sigma", 5)
	m.Normal("y", mu, sigma, Censored(lo, hi), Observed(y))
	fit := m.Sample(Seed(11), Chains(4), Warmup(500), Draws(500), LiveProgress(false))
	for _, c := range []struct {
		col  string
		want float64
	}{{"mu", trueMu}, {"sigma", trueSigma}} {
		row := fit.Summary(c.col).Rows[0]
		if math.Abs(row.Mean-c.want) > 4*row.SD {
			t.Errorf("%s: posterior mean %.3f (sd %.3f), simulated with %v", c.col, row.Mean, row.SD, c.want)
		}
		if r := diag.Rhat(fit.ByChain(c.col)); r > 1.01 {
			t.Errorf("%s: R-hat %.3f", c.col, r)
		}
	}
}

// TestTruncatedDensity: an observed truncated normal's log density is the
// normal's minus log(Φ(β) - Φ(α)), finite and accurate however far in a
// tail the bounds lie (references from mpmath at 50 digits), with its
// gradient; prior draws fall inside the bounds.
func TestTruncatedDensity(t *testing.T) {
	for _, c := range []struct {
		name       string
		lower, up  any
		y, want    float64
		gradAtZero bool
	}{
		{"above 10σ", 10.0, nil, 10.5, -2.812653382692202163433302, true},
		{"in the upper tail", 40.0, 41.0, 40.5, -16.43549651945088457265951, true},
		{"in the lower tail", -41.0, -40.0, -40.5, -16.43549651945088457265951, true},
		{"central", -1.0, 2.0, 0.5, normLogPDF(0.5, 0, 1) - math.Log(normCDF(2)-normCDF(-1)), true},
		{"below", nil, 0.0, -0.5, normLogPDF(-0.5, 0, 1) - math.Log(0.5), true},
	} {
		m := NewModel("truncated")
		mu := m.Flat("mu")
		m.Normal("y", mu, 1, Truncated(c.lower, c.up), Observed(c.y))
		cm, err := m.Compile()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := cm.LogDensity([]float64{0}); math.Abs(got-c.want) > 1e-9*math.Max(1, math.Abs(c.want)) {
			t.Errorf("%s: log density %.15g, want %.15g", c.name, got, c.want)
		}
		irtest.CheckGradient(t, cm.Program(), []float64{0.1}, 1e-6)
	}
	// A vector of bounds, one per observation, and prior draws inside.
	m := NewModel("truncated_vec")
	mu := m.Normal("mu", 0, 1)
	m.Normal("y", mu, 2, Truncated([]float64{0, 1, 2}, 5.0), Observed([]float64{0.5, 1.5, 4}))
	cm, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0.7}
	want := normLogPDF(0.7, 0, 1)
	for i, v := range []float64{0.5, 1.5, 4} {
		want += normLogPDF(v, 0.7, 2) - math.Log(normCDF((5-0.7)/2)-normCDF((float64(i)-0.7)/2))
	}
	if got := cm.LogDensity(x); math.Abs(got-want) > 1e-10 {
		t.Errorf("vector bounds: log density %.15g, want %.15g", got, want)
	}
	irtest.CheckGradient(t, cm.Program(), x, 1e-6)
	prior, err := cm.PriorPredictive(rand.New(rand.NewPCG(5, 6)), 200)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range prior["y"] {
		for i, v := range d {
			if v < float64(i) || v > 5 {
				t.Fatalf("prior draw y[%d] = %v outside [%d, 5]", i, v, i)
			}
		}
	}
}

// TestTruncatedPosterior: the mean of normal data truncated to [0, 2.5]
// (σ = 1 known, flat prior) against its posterior by quadrature,
// Π φ(yᵢ-μ) / (Φ(2.5-μ) - Φ(-μ)); and latent truncated variables against
// their closed-form means: the normal's μ + σ(φ(α)-φ(β))/(Φ(β)-Φ(α)) and
// the exponential's 1/λ - U e^{-λU}/(1 - e^{-λU}) on (0, U).
func TestTruncatedPosterior(t *testing.T) {
	if testing.Short() {
		t.Skip("sampling")
	}
	y := []float64{0.3, 1.9, 2.2, 0.8, 1.1, 2.4, 0.1, 1.6, 1.3, 2.0, 0.6, 1.8}
	m := NewModel("truncated_mean")
	mu := m.Flat("mu")
	m.Normal("y", mu, 1, Truncated(0.0, 2.5), Observed(y))
	mean, sd := posteriorByQuadrature(func(mu float64) float64 {
		lp := 0.0
		for _, v := range y {
			lp += normLogPDF(v, mu, 1) - math.Log(normCDF(2.5-mu)-normCDF(-mu))
		}
		return lp
	}, -6, 9)
	fit := m.Sample(Seed(4), Chains(4), Warmup(500), Draws(1000), LiveProgress(false))
	checkPosterior(t, fit, "mu", mean, sd)

	m2 := NewModel("latent_truncated")
	const nmu, nsigma, a, b = 0.5, 1.2, -0.3, 1.0
	m2.Normal("x", nmu, nsigma, Truncated(a, b))
	const rate, up = 0.7, 2.0
	m2.Exponential("e", rate, Truncated(nil, up))
	fit2 := m2.Sample(Seed(8), Chains(4), Warmup(500), Draws(2000), LiveProgress(false))
	al, be := (a-nmu)/nsigma, (b-nmu)/nsigma
	pdf := func(z float64) float64 { return math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) }
	z := normCDF(be) - normCDF(al)
	xMean := nmu + nsigma*(pdf(al)-pdf(be))/z
	xVar := nsigma * nsigma * (1 + (al*pdf(al)-be*pdf(be))/z - math.Pow((pdf(al)-pdf(be))/z, 2))
	checkPosterior(t, fit2, "x", xMean, math.Sqrt(xVar))
	eMean := 1/rate - up*math.Exp(-rate*up)/(-math.Expm1(-rate*up))
	ch := diag.Flatten(fit2.ByChain("e"))
	got, top := 0.0, 0.0
	for _, v := range ch {
		got += v / float64(len(ch))
		top = math.Max(top, v)
	}
	if se := diag.MCSEMean(fit2.ByChain("e")); math.Abs(got-eMean) > 5*se {
		t.Errorf("truncated exponential: mean %.4f, want %.4f ± %.4f", got, eMean, 5*se)
	}
	if top >= up {
		t.Errorf("truncated exponential: a draw %v at or above %v", top, up)
	}
}

// TestCensoredTruncatedErrors: the mistakes name the variable and say
// what is wrong.
func TestCensoredTruncatedErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(m *Model)
		want string
	}{
		{"discrete", func(m *Model) { m.Poisson("v", 3, Censored(nil, 5.0), Observed([]float64{1, 5})) }, "Poisson is discrete"},
		{"multivariate", func(m *Model) { m.Dirichlet("v", []float64{1, 1, 1}, Truncated(0.0, nil)) }, "Dirichlet is multivariate"},
		{"improper", func(m *Model) { m.HalfFlat("v", Truncated(1.0, nil)) }, "HalfFlat is improper"},
		{"lower ≥ upper (censored)", func(m *Model) { m.Normal("v", 0, 1, Censored(2.0, 1.0), Observed(1.5)) }, "is not below"},
		{"lower ≥ upper (truncated)", func(m *Model) { m.Normal("v", 0, 1, Truncated(2.0, 2.0)) }, "is not below"},
		{"data outside", func(m *Model) { m.Normal("v", 0, 1, Truncated(0.0, 1.0), Observed([]float64{0.5, 1.5})) }, "must lie in"},
		{"data outside vector bounds", func(m *Model) {
			m.Normal("v", 0, 1, Truncated([]float64{0, 1}, nil), Observed([]float64{0.5, 0.5}))
		}, "outside the truncation bounds"},
		{"both", func(m *Model) { m.Normal("v", 0, 1, Censored(0.0, nil), Truncated(0.0, nil)) }, "not both"},
		{"Truncated and Bounds", func(m *Model) { m.Normal("v", 0, 1, Bounds(0, 1), Truncated(0.0, nil)) }, "do not give Lower"},
		{"bound count", func(m *Model) { m.Normal("v", 0, 1, Censored([]float64{0, 1}, nil), Observed([]float64{1, 2, 3})) }, "2 censoring bounds for 3"},
		{"nothing", func(m *Model) { m.Normal("v", 0, 1, Censored(nil, nil), Observed(1.0)) }, "censors nothing"},
		{"below the support", func(m *Model) { m.Exponential("v", 1, Truncated(-1.0, nil)) }, "below the support"},
		{"expression bound", func(m *Model) {
			s := m.HalfNormal("s", 1)
			m.Normal("v", 0, 1, Censored(s, nil), Observed(1.0))
		}, "censoring bounds are data"},
	} {
		m := NewModel("errors")
		err := caught(func() { c.f(m) })
		if err == nil || !strings.Contains(err.Error(), "v:") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming v and saying %q", c.name, err, c.want)
		}
	}
	// Censoring a parameter is an error when the model compiles.
	m := NewModel("latent")
	m.Normal("v", 0, 1, Censored(0.0, nil))
	if err := m.Err(); err == nil || !strings.Contains(err.Error(), "Censored applies to observed variables") {
		t.Errorf("latent censored: %v", err)
	}
	// A cell run again makes the same variable; with other bounds it
	// replaces it, as the changed cell would build it afresh.
	nb := inNotebook(t)
	m2 := NewModel("rerun")
	a := m2.Normal("v", 0, 1, Censored(nil, 2.0), Observed([]float64{1, 2}))
	nb.cell()
	if b := m2.Normal("v", 0, 1, Censored(nil, 2.0), Observed([]float64{1, 2})); a != b {
		t.Error("the same Censored variable made twice")
	}
	nb.cell()
	if b := m2.Normal("v", 0, 1, Censored(nil, 3.0), Observed([]float64{1, 3})); a != b {
		t.Error("other censoring bounds: a new variable")
	}
	fresh := NewModel("rerun")
	fresh.Normal("v", 0, 1, Censored(nil, 3.0), Observed([]float64{1, 3}))
	if m2.String() != fresh.String() || logDensityAt(t, m2, nil) != logDensityAt(t, fresh, nil) {
		t.Errorf("other censoring bounds:\n%s\nbuilt afresh\n%s", m2, fresh)
	}
}

// TestTruncatedShapes: vector bounds give an observed variable with
// scalar parameters its shape; a latent one takes it from Size, and a
// cell run again finds the same variable.
func TestTruncatedShapes(t *testing.T) {
	m := NewModel("shapes")
	y := m.Normal("y", 0, 1, Truncated([]float64{0, 1}, nil), Observed([]float64{0.5, 1.5}))
	if got := y.Shape(); len(got) != 1 || got[0] != 2 {
		t.Errorf("observed shape %v, want [2]", got)
	}
	x := m.Normal("x", 0, 1, Size(2), Truncated([]float64{0, 1}, 3.0))
	inNotebook(t).cell()
	if again := m.Normal("x", 0, 1, Size(2), Truncated([]float64{0, 1}, 3.0)); again != x {
		t.Error("a truncated latent made twice")
	}
	if err := caught(func() { m.Normal("z", 0, 1, Truncated([]float64{0, 1}, nil)) }); err == nil || !strings.Contains(err.Error(), "shape") {
		t.Errorf("latent vector bounds without Size: %v", err)
	}
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
}
