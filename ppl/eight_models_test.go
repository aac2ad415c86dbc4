package ppl_test

// The eight models of issue 12 written twice: before, with what the API
// offered when the issue was filed (prefix calls, hand-written
// marginalisation and loops over draws), and after, with what it offers
// now (methods, formulas, enumeration, draws as arrays). Each pair must
// compute the same thing; TestEightModelsLines counts their lines.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/dist"
	"github.com/gobayes/gobayes/ppl/posterior"
)

var (
	emX   = [][]float64{{0.5, -1}, {1.5, 0.2}, {-0.3, 0.8}, {2, -0.5}, {-1.2, -0.1}, {0.1, 1.1}}
	emY01 = []int{1, 1, 0, 1, 0, 0}
	emN   = []int{10, 12, 9, 11}
	emK   = []int{3, 6, 2, 5}
	emX1  = []float64{0.3, -0.4, 1.2, 0.8}
	emE   = []float64{1.5, 0.7, 2.2, 1.1}
	emC   = []int{2, 0, 5, 3}
	emS   = []float64{-1.2, 0.4, 2.8, 3.1, -0.7, 2.5}
	emT   = []float64{0.1, 0.5, 0.4, 0.9, 1.3, 1.1, 1.6}
	emD   = []float64{0, 1, 2, 3, 4, 5}
	emP   = []float64{6, 7, 5, 2, 1, 3}
)

// 1. Logistic regression and its predictive accuracy.
func beforeLogistic(fit *posterior.Posterior) (*ppl.Model, float64) {
	m := ppl.NewModel("logistic")
	a := m.Normal("a", 0, 2.5)
	b := m.Normal("b", 0, 2.5, ppl.Size(2))
	p := m.Deterministic("p", ppl.Logistic(ppl.Add(a, ppl.MatVec(emX, b))))
	_ = p
	m.Bernoulli("y", m.Lookup("p")).Observe(emY01)
	if fit == nil {
		return m, 0
	}
	start := fit.Column("p[0]")
	right := 0
	for i := range emY01 {
		s, n := 0.0, 0
		for _, ch := range fit.Chains {
			for _, v := range ch.Values[start+i] {
				s += v
				n++
			}
		}
		pred := 0
		if s/float64(n) >= 0.5 {
			pred = 1
		}
		if pred == emY01[i] {
			right++
		}
	}
	return m, float64(right) / float64(len(emY01))
}

func afterLogistic(fit *posterior.Posterior) (*ppl.Model, float64) {
	m := ppl.NewModel("logistic")
	a := m.Normal("a", 0, 2.5)
	b := m.Normal("b", 0, 2.5, ppl.Size(2))
	m.Bernoulli("y", m.Deterministic("p", a.Add(ppl.MatVec(emX, b)).Logistic()), ppl.Observed(emY01))
	if fit == nil {
		return m, 0
	}
	return m, fit.Array("p").Accuracy(toFloat(emY01))
}

// 2. Hierarchical binomial (rats), non-centred.
func beforeBinomial() *ppl.Model {
	m := ppl.NewModel("rats")
	mu := m.Normal("mu", 0, 2)
	sigma := m.HalfNormal("sigma", 1)
	z := m.Normal("z", 0, 1, ppl.Size(4))
	theta := m.Deterministic("theta", ppl.Logistic(ppl.Add(mu, ppl.Mul(sigma, z))))
	m.Binomial("k", emN, theta).Observe(emK)
	return m
}

func afterBinomial() *ppl.Model {
	m := ppl.NewModel("rats")
	m.Normal("mu", 0, 2)
	m.HalfNormal("sigma", 1)
	m.Normal("z", 0, 1, ppl.Size(4))
	m.Binomial("k", emN, m.Let("theta", "logistic(mu + sigma * z)"), ppl.Observed(emK))
	return m
}

// 3. Poisson regression with an exposure offset.
func beforePoisson() *ppl.Model {
	m := ppl.NewModel("offset")
	a := m.Normal("a", 0, 2)
	b := m.Normal("b", 0, 1)
	m.PoissonLog("y", ppl.Add(ppl.Log(emE), ppl.Add(a, ppl.Mul(b, emX1)))).Observe(emC)
	return m
}

func afterPoisson() *ppl.Model {
	m := ppl.NewModel("offset")
	m.Normal("a", 0, 2)
	m.Normal("b", 0, 1)
	m.PoissonLog("y", m.Formula("log(e) + a + b * x", ppl.Using("e", emE), ppl.Using("x", emX1)), ppl.Observed(emC))
	return m
}

// 4. Ordered two-component mixture.
func beforeMixture() *ppl.Model {
	m := ppl.NewModel("mixture")
	w := m.Beta("w", 2, 2)
	mu := m.Normal("mu", 0, 5, ppl.Size(2), ppl.Ordered())
	sd := m.HalfNormal("sd", 2)
	m.Mixture("y", w, []ppl.Component{ppl.Comp(dist.Normal, ppl.At(mu, 0), sd), ppl.Comp(dist.Normal, ppl.At(mu, 1), sd)}).Observe(emS)
	return m
}

func afterMixture() *ppl.Model {
	m := ppl.NewModel("mixture")
	w := m.Beta("w", 2, 2)
	mu := m.Normal("mu", 0, 5, ppl.Size(2), ppl.Ordered())
	sd := m.HalfNormal("sd", 2)
	m.Mixture("y", w, []ppl.Component{ppl.Comp(dist.Normal, mu.At(0), sd), ppl.Comp(dist.Normal, mu.At(1), sd)}, ppl.Observed(emS))
	return m
}

// 5. Robust regression with Student-t noise.
func beforeRobust() *ppl.Model {
	m := ppl.NewModel("robust")
	a := m.Normal("a", 0, 5)
	b := m.Normal("b", 0, 5)
	nu := m.Gamma("nu", 2, 0.1)
	sigma := m.HalfNormal("sigma", 2)
	m.StudentT("y", nu, ppl.Add(a, ppl.Mul(b, emX1)), sigma).Observe(emS[:4])
	return m
}

func afterRobust() *ppl.Model {
	m := ppl.NewModel("robust")
	a := m.Normal("a", 0, 5)
	b := m.Normal("b", 0, 5)
	nu := m.Gamma("nu", 2, 0.1)
	m.StudentT("y", nu, a.Add(b.Mul(emX1)), m.HalfNormal("sigma", 2), ppl.Observed(emS[:4]))
	return m
}

// 6. AR(1).
func beforeAR1() *ppl.Model {
	m := ppl.NewModel("ar1")
	alpha := m.Normal("alpha", 0, 1)
	beta := m.Normal("beta", 0, 1)
	sigma := m.HalfNormal("sigma", 1)
	n := len(emT)
	m.Normal("y", ppl.Add(alpha, ppl.Mul(beta, emT[:n-1])), sigma).Observe(emT[1:])
	return m
}

func afterAR1() *ppl.Model {
	m := ppl.NewModel("ar1")
	m.Normal("alpha", 0, 1)
	m.Normal("beta", 0, 1)
	m.Normal("y", m.Formula("alpha + beta * prev", ppl.Using("prev", emT[:len(emT)-1])), m.HalfNormal("sigma", 1), ppl.Observed(emT[1:]))
	return m
}

// 7. A local-level Kalman filter written with Scan: the step's predicted
// mean and variance, and the observation's log density.
func beforeKalman() *ppl.Model {
	m := ppl.NewModel("kalman")
	q := m.HalfNormal("q", 1)
	r := m.HalfNormal("r", 1)
	lls := ppl.Scan(len(emT), []any{0.0, 10.0}, []any{emT}, func(c, x []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		p := ppl.Add(c[1], ppl.Square(q))
		s := ppl.Add(p, ppl.Square(r))
		k := ppl.Div(p, s)
		v := ppl.Sub(x[0], c[0])
		mean := ppl.Add(c[0], ppl.Mul(k, v))
		vr := ppl.Mul(ppl.Sub(1, k), p)
		ll := ppl.LogPDF("Normal", x[0], c[0], ppl.Sqrt(s))
		return []ppl.Expr{mean, vr}, ll
	})
	m.LogDensity("filter", ppl.Sum(lls))
	return m
}

func afterKalman() *ppl.Model {
	m := ppl.NewModel("kalman")
	q := m.HalfNormal("q", 1)
	r := m.HalfNormal("r", 1)
	lls := ppl.Scan(len(emT), []any{0.0, 10.0}, []any{emT}, func(c, x []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		p, s := c[1].Add(q.Square()), c[1].Add(q.Square()).Add(r.Square())
		k := p.Div(s)
		return []ppl.Expr{c[0].Add(k.Mul(x[0].Sub(c[0]))), ppl.Sub(1, k).Mul(p)}, ppl.LogPDF("Normal", x[0], c[0], s.Sqrt())
	})
	m.LogDensity("filter", lls.Sum())
	return m
}

// 8. A changepoint in counts: by hand, the day summed out with LogSumExp
// over one log-likelihood per day; after, the day written as a variable.
func beforeChangepoint() *ppl.Model {
	m := ppl.NewModel("changepoint")
	early := m.Exponential("early", 0.2)
	late := m.Exponential("late", 0.2)
	n := len(emP)
	terms := make([]any, n)
	for s := 0; s < n; s++ {
		var lps []any
		for t := 0; t < n; t++ {
			rate := any(late)
			if t < s {
				rate = early
			}
			lps = append(lps, ppl.LogPDF("Poisson", emP[t], rate))
		}
		terms[s] = ppl.Add(math.Log(1/float64(n)), ppl.Sum(ppl.Concat(lps...)))
	}
	m.LogDensity("marginal", ppl.LogSumExp(ppl.Concat(terms...)))
	return m
}

func afterChangepoint() *ppl.Model {
	m := ppl.NewModel("changepoint")
	early := m.Exponential("early", 0.2)
	late := m.Exponential("late", 0.2)
	uniform := []float64{1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6}
	s := m.Categorical("s", uniform)
	m.Poisson("y", late.Add(early.Sub(late).Mul(ppl.Step(s.Sub(emD)))), ppl.Observed(emP))
	return m
}

func toFloat(xs []int) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

// Each pair computes the same log density at random points (and the
// logistic pair the same accuracy from one fit).
func TestEightModelsAgree(t *testing.T) {
	pairs := []struct {
		name          string
		before, after func() *ppl.Model
	}{
		{"logistic", func() *ppl.Model { m, _ := beforeLogistic(nil); return m }, func() *ppl.Model { m, _ := afterLogistic(nil); return m }},
		{"binomial", beforeBinomial, afterBinomial},
		{"poisson", beforePoisson, afterPoisson},
		{"mixture", beforeMixture, afterMixture},
		{"robust", beforeRobust, afterRobust},
		{"ar1", beforeAR1, afterAR1},
		{"kalman", beforeKalman, afterKalman},
		{"changepoint", beforeChangepoint, afterChangepoint},
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, p := range pairs {
		cb, err := p.before().Compile()
		if err != nil {
			t.Fatalf("%s before: %v", p.name, err)
		}
		ca, err := p.after().Compile()
		if err != nil {
			t.Fatalf("%s after: %v", p.name, err)
		}
		if cb.Dim() != ca.Dim() {
			t.Fatalf("%s: %d parameters before, %d after", p.name, cb.Dim(), ca.Dim())
		}
		for range 3 {
			q := make([]float64, cb.Dim())
			for i := range q {
				q[i] = 0.5 * rng.NormFloat64()
			}
			if a, b := cb.LogDensity(q), ca.LogDensity(q); math.Abs(a-b) > 1e-9*math.Max(1, math.Abs(a)) {
				t.Errorf("%s at %v: before %v, after %v", p.name, q, a, b)
			}
		}
	}
	m, _ := afterLogistic(nil)
	fit := m.Sample(ppl.Seed(1), ppl.Chains(2), ppl.Warmup(200), ppl.Draws(200), ppl.LiveProgress(false))
	_, before := beforeLogistic(fit)
	_, after := afterLogistic(fit)
	if before != after {
		t.Errorf("accuracy: %v by the loop, %v by Array.Accuracy", before, after)
	}
}

// TestEightModelsLines counts the lines of each pair (code lines of the
// function bodies: no blank or comment-only lines) and reports them; the
// figure in the closing note of issue 12 comes from here
// (go test ./ppl -run EightModelsLines -v).
func TestEightModelsLines(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "eight_models_test.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("eight_models_test.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	count := map[string]int{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !(strings.HasPrefix(fd.Name.Name, "before") || strings.HasPrefix(fd.Name.Name, "after")) {
			continue
		}
		from, to := fset.Position(fd.Body.Lbrace).Line, fset.Position(fd.Body.Rbrace).Line
		n := 0
		for _, l := range lines[from : to-1] {
			if s := strings.TrimSpace(l); s != "" && !strings.HasPrefix(s, "//") {
				n++
			}
		}
		count[fd.Name.Name] = n
	}
	var names []string
	for k := range count {
		if strings.HasPrefix(k, "before") {
			names = append(names, strings.TrimPrefix(k, "before"))
		}
	}
	sort.Strings(names)
	tb, ta := 0, 0
	for _, n := range names {
		b, a := count["before"+n], count["after"+n]
		if a == 0 {
			t.Errorf("%s has no after", n)
		}
		tb, ta = tb+b, ta+a
		t.Logf("%-12s %3d → %3d lines", n, b, a)
	}
	t.Logf("%-12s %3d → %3d lines", "total", tb, ta)
	if len(names) != 8 {
		t.Errorf("%d models; want the issue's eight", len(names))
	}
}
