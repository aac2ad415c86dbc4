package ppl

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/ppl/diag"
)

// shapeFamily is one of the families whose CDF goes through the
// incomplete gamma or beta function, with oracles from gonum's distuv
// (its CDFs are mathext's GammaIncReg and RegIncBeta: an independent
// implementation) and a latent model for its parameters.
type shapeFamily struct {
	name string
	// params makes the family's parameters as variables of m (HalfFlat,
	// the t's μ Flat), in the family's order.
	params func(m *Model) []any
	// logPDF, cdf and ccdf at y for parameters p.
	logPDF, cdf, ccdf func(y float64, p []float64) float64
	// draw is the parameters' values where the tests look.
	draw []float64
	// Data: observations, censoring bounds and truncation bounds.
	y              []float64
	lower, upper   []float64
	tLower, tUpper float64
}

func shapeFamilies() []shapeFamily {
	gam := func(p []float64) distuv.Gamma { return distuv.Gamma{Alpha: p[0], Beta: p[1]} }
	bet := func(p []float64) distuv.Beta { return distuv.Beta{Alpha: p[0], Beta: p[1]} }
	stu := func(p []float64) distuv.StudentsT { return distuv.StudentsT{Nu: p[0], Mu: p[1], Sigma: p[2]} }
	ig := func(p []float64) distuv.InverseGamma { return distuv.InverseGamma{Alpha: p[0], Beta: p[1]} }
	ht := func(p []float64) distuv.StudentsT { return distuv.StudentsT{Nu: p[0], Sigma: p[1]} }
	two := func(m *Model) []any { return []any{m.HalfFlat("a"), m.HalfFlat("b")} }
	return []shapeFamily{
		{name: "Gamma", params: two,
			logPDF: func(y float64, p []float64) float64 { return gam(p).LogProb(y) },
			cdf:    func(y float64, p []float64) float64 { return gam(p).CDF(y) },
			ccdf:   func(y float64, p []float64) float64 { return gam(p).Survival(y) },
			draw:   []float64{2.4, 0.7}, y: []float64{0.5, 2.2, 4, 1.1, 6, 0.2},
			lower: []float64{0.3}, upper: []float64{4, 4, 4, 4, 5, 4}, tLower: 0.1, tUpper: 7},
		{name: "Beta", params: two,
			logPDF: func(y float64, p []float64) float64 { return bet(p).LogProb(y) },
			cdf:    func(y float64, p []float64) float64 { return bet(p).CDF(y) },
			ccdf:   func(y float64, p []float64) float64 { return bet(p).Survival(y) },
			draw:   []float64{1.7, 3.2}, y: []float64{0.05, 0.3, 0.9, 0.45, 0.02, 0.6},
			lower: []float64{0.05}, upper: []float64{0.8}, tLower: 0.01, tUpper: 0.95},
		{name: "StudentT", params: func(m *Model) []any { return []any{m.HalfFlat("nu"), m.Flat("mu"), m.HalfFlat("sigma")} },
			logPDF: func(y float64, p []float64) float64 { return stu(p).LogProb(y) },
			cdf:    func(y float64, p []float64) float64 { return stu(p).CDF(y) },
			ccdf:   func(y float64, p []float64) float64 { return stu(p).Survival(y) },
			draw:   []float64{3.5, 0.4, 1.3}, y: []float64{-4, 0.3, 2.5, -0.7, 9, 1.2},
			lower: []float64{-3}, upper: []float64{5}, tLower: -5, tUpper: 10},
		{name: "InverseGamma", params: two,
			logPDF: func(y float64, p []float64) float64 { return ig(p).LogProb(y) },
			cdf:    func(y float64, p []float64) float64 { return ig(p).CDF(y) },
			ccdf:   func(y float64, p []float64) float64 { return ig(p).Survival(y) },
			draw:   []float64{3.1, 2.2}, y: []float64{0.5, 1.2, 3, 0.2, 0.8, 6},
			lower: []float64{0.3}, upper: []float64{2.5}, tLower: 0.1, tUpper: 8},
		{name: "HalfStudentT", params: func(m *Model) []any { return []any{m.HalfFlat("nu"), m.HalfFlat("sigma")} },
			logPDF: func(y float64, p []float64) float64 { return math.Ln2 + ht(p).LogProb(y) },
			cdf:    func(y float64, p []float64) float64 { return 2*ht(p).CDF(y) - 1 },
			ccdf:   func(y float64, p []float64) float64 { return 2 * ht(p).Survival(y) },
			draw:   []float64{4.5, 1.1}, y: []float64{0.1, 0.9, 3, 0.4, 7, 1.5},
			lower: []float64{0.2}, upper: []float64{2.5}, tLower: 0.05, tUpper: 8},
	}
}

// flat reports whether parameter i is Flat (the t's μ), not HalfFlat.
func (f shapeFamily) flat(i int) bool { return f.name == "StudentT" && i == 1 }

// position is the unconstrained position of draw: the log of each
// HalfFlat parameter.
func (f shapeFamily) position() []float64 {
	x := make([]float64, len(f.draw))
	for i, v := range f.draw {
		x[i] = math.Log(v)
		if f.flat(i) {
			x[i] = v
		}
	}
	return x
}

// TestShapeFamiliesLogCDF: LogCDF and LogCCDF of the gamma, beta,
// Student's t, inverse gamma and half-t with every parameter a variable,
// summed into a log density: the value against gonum's CDFs to 1e-10, and
// the gradient, shapes included, against finite differences; and
// exp(LogCDF) + exp(LogCCDF) = 1.
func TestShapeFamiliesLogCDF(t *testing.T) {
	for _, f := range shapeFamilies() {
		m := NewModel("tails")
		ps := f.params(m)
		y := m.Flat("y")
		args := append([]any{}, ps...)
		m.LogDensity("lcdf", LogCDF(f.name, y, args...))
		m.LogDensity("lccdf", Mul(0.5, LogCCDF(f.name, y, args...)))
		c, err := m.Compile()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		at := f.y[1]
		x := append(f.position(), at)
		jac := 0.0 // HalfFlat's log-Jacobians
		for i, v := range f.draw {
			if !f.flat(i) {
				jac += math.Log(v)
			}
		}
		lf, ls := math.Log(f.cdf(at, f.draw)), math.Log(f.ccdf(at, f.draw))
		want := jac + lf + 0.5*ls
		if got := c.LogDensity(x); math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
			t.Errorf("%s: log density %.15g, want %.15g", f.name, got, want)
		}
		irtest.CheckGradient(t, c.Program(), x, 1e-6)
		if s := math.Exp(lf) + math.Exp(ls); math.Abs(s-1) > 1e-12 {
			t.Errorf("%s: F + (1-F) = %v", f.name, s)
		}
	}
}

// TestShapeFamiliesCensoredTruncated: Censored and Truncated observations
// of each family, with its parameters latent: every pointwise
// log-likelihood term against the formula from gonum's CDFs and log
// densities (log F(lower) at or below the lower bound, log(1 - F(upper))
// at or above the upper one, else log p; a truncated term log p -
// log(F(upper) - F(lower))), and the gradient in every parameter against
// finite differences.
func TestShapeFamiliesCensoredTruncated(t *testing.T) {
	for _, f := range shapeFamilies() {
		for _, truncated := range []bool{false, true} {
			m := NewModel("limits")
			ps := f.params(m)
			var opt Option
			if truncated {
				opt = Truncated(f.tLower, f.tUpper)
			} else {
				opt = Censored(f.lower, f.upper)
			}
			m.Var("y", family(f.name), ps, opt, Observed(f.y))
			c, err := m.Compile()
			if err != nil {
				t.Fatalf("%s (truncated %v): %v", f.name, truncated, err)
			}
			out := make([]float64, len(f.y))
			if err := c.PointwiseLogLik(f.draw, out); err != nil {
				t.Fatal(err)
			}
			p := f.draw
			for i, v := range f.y {
				var want float64
				lo, hi := f.lower[i%len(f.lower)], f.upper[i%len(f.upper)]
				switch {
				case truncated:
					want = f.logPDF(v, p) - math.Log(f.cdf(f.tUpper, p)-f.cdf(f.tLower, p))
				case v <= lo:
					want = math.Log(f.cdf(lo, p))
				case v >= hi:
					want = math.Log(f.ccdf(hi, p))
				default:
					want = f.logPDF(v, p)
				}
				if math.Abs(out[i]-want) > 1e-10*math.Max(1, math.Abs(want)) {
					t.Errorf("%s (truncated %v): term %d at y = %v = %.15g, want %.15g", f.name, truncated, i, v, out[i], want)
				}
			}
			irtest.CheckGradient(t, c.Program(), f.position(), 1e-6)
		}
	}
}

// TestCensoredGammaSurvival: a gamma survival model with right censoring
// (each subject followed for its own time; 300 subjects, about a third
// still alive at the end) recovers the shape and rate that simulated it,
// within 4 posterior sd, where ignoring the censoring would bias both.
func TestCensoredGammaSurvival(t *testing.T) {
	if testing.Short() {
		t.Skip("sampling")
	}
	const alpha, rate = 2.5, 0.8
	rng := rand.New(rand.NewPCG(21, 5))
	g := distuv.Gamma{Alpha: alpha, Beta: rate, Src: rng}
	n := 300
	y, follow := make([]float64, n), make([]float64, n)
	censored := 0
	for i := range y {
		follow[i] = 1 + 5*rng.Float64()
		y[i] = math.Min(g.Rand(), follow[i])
		if y[i] == follow[i] {
			censored++
		}
	}
	if censored < 60 || censored > 200 {
		t.Fatalf("%d censored of %d: the test wants about a third", censored, n)
	}
	m := NewModel("survival")
	a := m.Gamma("alpha", 2, 0.5)
	b := m.HalfNormal("beta", 2)
	m.Gamma("time", a, b, Censored(nil, follow), Observed(y))
	fit := m.Sample(Seed(5), Chains(4), Warmup(500), Draws(500), LiveProgress(false))
	for _, c := range []struct {
		col  string
		want float64
	}{{"alpha", alpha}, {"beta", rate}} {
		row := fit.Summary(c.col).Rows[0]
		if math.Abs(row.Mean-c.want) > 4*row.SD {
			t.Errorf("%s: posterior mean %.3f (sd %.3f), simulated with %v", c.col, row.Mean, row.SD, c.want)
		}
		if r := diag.Rhat(fit.ByChain(c.col)); r > 1.01 {
			t.Errorf("%s: R-hat %.3f", c.col, r)
		}
	}
}

// TestTruncatedShapePosterior: the shape of truncated data, the only
// unknown, sampled with NUTS against its posterior by quadrature: a
// gamma's α with the rate known, on data truncated to [0.5, 4] (flat
// prior on α > 0), Π p(yᵢ|α) / (F(4|α) - F(0.5|α)) with gonum's CDF; and
// Student's t's ν (flat on ν > 0) on data truncated to [-2, 3]. The
// normaliser's gradient in the shape is what moves these posteriors.
func TestTruncatedShapePosterior(t *testing.T) {
	if testing.Short() {
		t.Skip("sampling")
	}
	for _, c := range []struct {
		name   string
		y      []float64
		lo, hi float64
		model  func(m *Model, shape *RV, y []float64)
		logp   func(shape float64, y []float64) float64
		qlo    float64
		qhi    float64
	}{
		{"gamma α", []float64{0.7, 1.9, 3.1, 2.2, 0.9, 1.4, 3.8, 2.7, 1.1, 2.0, 0.6, 3.3}, 0.5, 4,
			func(m *Model, s *RV, y []float64) { m.Gamma("y", s, 1.2, Truncated(0.5, 4.0), Observed(y)) },
			func(a float64, y []float64) float64 {
				g := distuv.Gamma{Alpha: a, Beta: 1.2}
				lp := 0.0
				for _, v := range y {
					lp += g.LogProb(v) - math.Log(g.CDF(4)-g.CDF(0.5))
				}
				return lp
			}, 0.05, 30},
		{"t ν", []float64{-1.8, 0.3, 2.9, -0.4, 1.1, 0.05, -1.2, 2.2, 0.7, -0.9, 1.6, -1.95, 2.6}, -2, 3,
			func(m *Model, s *RV, y []float64) { m.StudentT("y", s, 0.2, 0.8, Truncated(-2.0, 3.0), Observed(y)) },
			func(nu float64, y []float64) float64 {
				d := distuv.StudentsT{Nu: nu, Mu: 0.2, Sigma: 0.8}
				lp := 0.0
				for _, v := range y {
					lp += d.LogProb(v) - math.Log(d.CDF(3)-d.CDF(-2))
				}
				return lp - nu/10 // the Exponential(0.1) prior below
			}, 0.05, 150},
	} {
		m := NewModel("truncated_shape")
		var s *RV
		if c.name == "t ν" {
			s = m.Exponential("shape", 0.1) // ν's posterior on flat data has a heavy right tail
		} else {
			s = m.HalfFlat("shape")
		}
		c.model(m, s, c.y)
		mean, sd := posteriorByQuadrature(func(v float64) float64 { return c.logp(v, c.y) }, c.qlo, c.qhi)
		fit := m.Sample(Seed(9), Chains(4), Warmup(500), Draws(1500), LiveProgress(false))
		checkPosterior(t, fit, "shape", mean, sd)
	}
}
