package ppl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// build runs f, which builds a model, and returns the *Error it panicked
// with (nil when it did not).
func build(f func(m *Model)) (m *Model, e *Error) {
	m = NewModel("t")
	defer func() {
		if r := recover(); r != nil {
			e = r.(*Error)
		}
	}()
	f(m)
	return m, nil
}

// TestBuildErrors checks that each mistake is reported when the model is
// built, names the variable and says what is wrong.
func TestBuildErrors(t *testing.T) {
	cases := []struct {
		name  string
		build func(m *Model)
		v     string   // the variable the error must name
		msg   []string // substrings of the message
	}{
		{"negative scale given as data", func(m *Model) { m.Normal("x", 0, -1) }, "x", []string{"sigma", "-1", "positive"}},
		{"NaN parameter", func(m *Model) { m.Normal("x", math.NaN(), 1) }, "x", []string{"mu", "NaN"}},
		{"parameters of different shapes", func(m *Model) { m.Normal("x", []float64{1, 2, 3}, []float64{1, 2}) }, "x", []string{"[3]", "[2]"}},
		{"Size against parameter shape", func(m *Model) { m.Normal("x", []float64{1, 2}, 1, Size(3)) }, "x", []string{"[2]", "[3]"}},
		{"NaN in data", func(m *Model) { m.Normal("y", 0, 1).Observe([]float64{1, math.NaN()}) }, "y", []string{"NaN", "index 1"}},
		{"data of the wrong shape", func(m *Model) { m.Normal("y", 0, 1, Size(3)).Observe([]float64{1, 2}) }, "y", []string{"[2]", "[3]"}},
		{"non-integer counts", func(m *Model) { m.Poisson("k", 3).Observe([]float64{1, 1.5}) }, "k", []string{"1.5", "whole number"}},
		{"Bernoulli outcome 2", func(m *Model) { m.Bernoulli("b", 0.5).Observe([]int{0, 2}) }, "b", []string{"0 or 1"}},
		{"negative data for a positive family", func(m *Model) { m.Exponential("w", 1).Observe([]float64{-1}) }, "w", []string{"-1"}},
		{"more successes than trials", func(m *Model) { m.Binomial("s", []int{3, 4}, 0.5).Observe([]int{2, 5}) }, "s", []string{"index 1", "exceeds", "n = 4"}},
		{"probability above one", func(m *Model) { m.Bernoulli("b", 1.5) }, "b", []string{"p", "1.5"}},
		{"a name used by another kind", func(m *Model) { m.Normal("a", 0, 1); m.Deterministic("a", 2.0) }, "a", []string{"already used", "random variable", "NewModel"}},
		{"unknown name", func(m *Model) { m.Normal("a", 0, 1); m.Lookup("b") }, "b", []string{"no variable", "a"}},
		{"empty name", func(m *Model) { m.Normal("", 0, 1) }, "", []string{"needs a name"}},
		{"bracket in a name", func(m *Model) { m.Normal("a[1]", 0, 1) }, "a[1]", []string{"brackets"}},
		{"bounds on observed data", func(m *Model) { m.Normal("y", 0, 1, Lower(0)).Observe([]float64{1}) }, "y", []string{"truncated"}},
		{"parameters as data", func(m *Model) {
			a := m.Normal("a", 0, 1)
			m.Normal("y", 0, 1).Observe(Mul(a, 2))
		}, "y", []string{"not an expression of the model's parameters"}},
		{"Ordered scalar", func(m *Model) { m.Normal("o", 0, 1, Ordered()) }, "o", []string{"vectors"}},
		{"lower above upper", func(m *Model) { m.Normal("u", 0, 1, Bounds(2, 1)) }, "u", []string{"not below"}},
		{"wrong parameter count", func(m *Model) { m.Var("v", family("Normal"), []any{1.0}) }, "v", []string{"takes 2 parameters"}},
		{"nil variable", func(m *Model) {
			var r *RV
			m.Normal("n", r, 1)
		}, "n", []string{"nil"}},
		{"unsupported data type", func(m *Model) { m.Normal("s", "zero", 1) }, "s", []string{"string"}},
		{"Add of mismatched shapes", func(m *Model) {
			x := m.Normal("x", 0, 1, Size(3))
			Add(x, []float64{1, 2})
		}, "Add(x, data[2])", []string{"[3]", "[2]"}},
		{"index out of range", func(m *Model) {
			x := m.Normal("x", 0, 1, Size(3))
			Index(x, []int{0, 3})
		}, "Index(x)", []string{"3", "0-based"}},
		{"MatVec mismatch", func(m *Model) {
			b := m.Normal("b", 0, 1, Size(3))
			MatVec([][]float64{{1, 2}}, b)
		}, "MatVec(data[1 2], b)", []string{"do not multiply"}},
		{"variables of two models", func(m *Model) {
			other := NewModel("other")
			a := other.Normal("a", 0, 1)
			m.Normal("b", a, 1)
		}, "b", []string{"other"}},
		{"LinearRecurrence from a vector", func(m *Model) {
			LinearRecurrence(Mul(m.Normal("x0", 0, 1), []float64{1, 2}), 1.0, 0.5)
		}, "LinearRecurrence(Mul[2], 1, 0.5)", []string{"[2]", "scalar"}},
		{"mixture weights not a simplex", func(m *Model) {
			m.Mixture("y", []float64{0.5, 0.6}, []Component{NormalComp(0, 1), NormalComp(1, 1)})
		}, "y", []string{"sums to"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, e := build(tc.build)
			if e == nil {
				t.Fatal("no error")
			}
			if e.Var != tc.v {
				t.Errorf("error names %q, want %q: %v", e.Var, tc.v, e)
			}
			for _, s := range tc.msg {
				if !strings.Contains(e.Msg, s) {
					t.Errorf("message %q does not contain %q", e.Msg, s)
				}
			}
			if !strings.HasPrefix(e.Error(), "ppl: ") {
				t.Errorf("error %q lacks the package prefix", e.Error())
			}
			if err := m.Err(); err == error(e) {
				t.Errorf("the failed call's error stuck to the model: m.Err() = %v", err)
			}
		})
	}
}

// TestFailedCallLeavesModel checks that a builder call that fails takes
// nothing with it and leaves nothing behind: the model lists the same
// variables, claims no new name (the corrected call then succeeds under
// it), has no error, and samples as before.
func TestFailedCallLeavesModel(t *testing.T) {
	m := NewModel("t")
	mu := m.Normal("mu", 0, 5)
	y := m.Normal("y", mu, 1, Size(3))
	y.Observe([]float64{0.5, 1, 1.5})
	before := m.String()
	for _, c := range []struct {
		name string
		call func()
	}{
		{"bad parameter", func() { m.Normal("sigma", 0, -1) }},
		{"observed data of the wrong shape as an option", func() { m.Normal("z", mu, 1, Size(2), Observed([]float64{1, 2, 3})) }},
		{"non-integer counts as an option", func() { m.Poisson("k", 3, Observed([]float64{1, 1.5})) }},
		{"Observe of the wrong shape", func() { m.Normal("w", mu, 1, Size(3)).Observe([]float64{1, 2}) }},
		{"observed again with data of another shape", func() { y.Observe([]float64{1, 2}) }},
		{"a name used by another kind", func() { m.Deterministic("mu", Add(mu, 1.0)) }},
		{"redefined with another shape while in use", func() { m.Normal("mu", 0, 1, Size(3)) }},
		{"redefined by itself", func() { m.Normal("mu", Sum(y), 1) }},
		{"unknown name", func() { m.Lookup("sigma") }},
		{"deterministic of another model", func() { m.Deterministic("d", NewModel("o").Normal("a", 0, 1)) }},
		{"log-density term of another model", func() { m.LogDensity("lp", NewModel("o").Normal("a", 0, 1)) }},
		{"mixture weights not a simplex", func() {
			m.Mixture("mix", []float64{0.5, 0.6}, []Component{NormalComp(0, 1), NormalComp(1, 1)})
		}},
	} {
		var err error
		func() {
			defer Catch(&err)
			c.call()
		}()
		if err == nil {
			t.Fatalf("%s: no error", c.name)
		}
		// The variable "w" of the Observe case was added before Observe
		// failed: it stays, unobserved, and is the only trace allowed.
		if c.name == "Observe of the wrong shape" {
			if got := m.Lookup("w").(*RV); got.IsObserved() || !slices.Equal(got.Shape(), []int{3}) {
				t.Fatalf("%s: w is observed %v with shape %v after the failed Observe", c.name, got.IsObserved(), got.Shape())
			}
			before = m.String()
			continue
		}
		if got := m.String(); got != before {
			t.Fatalf("%s: the model changed:\n%s\nwas\n%s", c.name, got, before)
		}
		if err := m.Err(); err != nil {
			t.Fatalf("%s: m.Err() = %v", c.name, err)
		}
	}
	// The names of the failed calls are free: the corrected calls succeed.
	m.Normal("sigma", 0, 1, Lower(0))
	m.Normal("z", mu, 1, Size(2), Observed([]float64{1, 2}))
	m.Poisson("k", 3, Observed([]float64{1, 2}))
	fit := m.Sample(Seed(1), Chains(1), Warmup(100), Draws(100))
	if fit.Draws() != 100 {
		t.Fatalf("%d draws after the failed calls, want 100", fit.Draws())
	}
}

// TestCellRunAgain runs the cells of a model twice, as a notebook user
// does: the second run finds the variables, deterministic quantities and
// terms the first one made and returns them. A cell changed and run again
// replaces what it made: each change below gives the model that the
// changed cells build from scratch (the same listing, the same log
// density and the same predictive program's outputs at random points), and
// the handles held from before (theta) are the same variables.
func TestCellRunAgain(t *testing.T) {
	type cells struct {
		muScale, lower, shift, penalty float64
		obs, sd                        []float64
		thetaFam                       string
	}
	nb := inNotebook(t)
	build := func(m *Model, c cells) *RV {
		nb.cell() // each build runs the cells again
		mu := m.Normal("mu", 0, c.muScale)
		tau := m.HalfCauchy("tau", 5)
		var theta *RV
		if c.thetaFam == "t" {
			theta = m.StudentT("theta", 4, mu, tau, Size(3))
		} else {
			theta = m.Normal("theta", mu, tau, Size(3))
		}
		m.Normal("y", theta, c.sd).Observe(c.obs)
		m.Normal("bounded", 0, 1, Lower(c.lower), Upper(1))
		m.Deterministic("mu_plus", Add(mu, c.shift))
		m.LogDensity("penalty", Mul(tau, c.penalty))
		return theta
	}
	base := cells{muScale: 5, lower: -1, shift: 1, penalty: -0.01, obs: []float64{28, 8, -3}, sd: []float64{15, 10, 16}}
	m := NewModel("schools")
	theta := build(m, base)
	first := m.String()
	if again := build(m, base); again != theta || m.String() != first {
		t.Fatalf("the same cells run again changed the model:\n%s\nwas\n%s", m.String(), first)
	}
	changes := map[string]func(*cells){
		"another prior scale": func(c *cells) { c.muScale = 6 },
		"another family":      func(c *cells) { c.thetaFam = "t" },
		"other bounds":        func(c *cells) { c.lower = -2 },
		"other data":          func(c *cells) { c.obs = []float64{28, 8, -2} },
		"other data scales":   func(c *cells) { c.sd = []float64{14, 10, 16} },
		"another quantity":    func(c *cells) { c.shift = 2 },
		"another term":        func(c *cells) { c.penalty = -0.02 },
	}
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(name string, c cells) {
		t.Helper()
		if got := build(m, c); got != theta {
			t.Errorf("%s: theta is a new variable; the handle held from before no longer stands for it", name)
		}
		fresh := NewModel("schools")
		build(fresh, c)
		if m.String() != fresh.String() {
			t.Fatalf("%s: the model run again is\n%s\nbuilt afresh\n%s", name, m, fresh)
		}
		for range 3 {
			q := make([]float64, 6)
			for i := range q {
				q[i] = rng.NormFloat64()
			}
			if a, b := logDensityAt(t, m, q), logDensityAt(t, fresh, q); a != b {
				t.Errorf("%s: log density %v, built afresh %v", name, a, b)
			}
		}
		if err := m.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	for _, name := range []string{"another prior scale", "another family", "other bounds", "other data", "other data scales", "another quantity", "another term"} {
		c := base
		changes[name](&c)
		check(name, c)
		check(name+", undone", base)
	}
	all := base
	for _, f := range changes {
		f(&all)
	}
	check("all at once", all)
	fit := m.Sample(Seed(1), Chains(1), Warmup(200), Draws(200))
	if fit.Column("mu_plus") < 0 || fit.Column("theta[2]") < 0 {
		t.Errorf("the redefined model samples %v", fit.Columns)
	}
}

// TestRedefineRefused checks the redefinitions that cannot be made in
// place: a new shape for a variable or quantity others were built from,
// a definition that uses itself directly or through other variables, a
// name of another kind. Each is an error naming the variable and what to
// do, and leaves the model as it was.
func TestRedefineRefused(t *testing.T) {
	m := NewModel("t")
	mu := m.Normal("mu", 0, 5)
	tau := m.HalfNormal("tau", 1)
	theta := m.Normal("theta", mu, tau, Size(3))
	d := m.Deterministic("spread", Mul(tau, 2.0))
	m.Normal("w", d, 1)
	m.Normal("y", theta, 1).Observe([]float64{1, 2, 3})
	before := m.String()
	cases := []struct {
		name, v string
		call    func()
		msg     []string
	}{
		{"shape of a variable in use", "mu", func() { m.Normal("mu", 0, 5, Size(2)) }, []string{"was a scalar", "of shape [2]", "theta", "NewModel"}},
		{"shape of a quantity in use", "spread", func() { m.Deterministic("spread", Mul(theta, 2.0)) }, []string{"was a scalar", "of shape [3]", "w", "NewModel"}},
		{"a variable by itself", "mu", func() { m.Normal("mu", Sum(theta), 1) }, []string{"loop", "mu", "theta"}},
		{"a quantity by itself", "spread", func() { m.Deterministic("spread", Add(d, 1.0)) }, []string{"itself"}},
		{"through a quantity", "tau", func() { m.HalfNormal("tau", Exp(m.Lookup("w"))) }, []string{"loop", "tau", "w"}},
		{"another kind", "theta", func() { m.Deterministic("theta", Mul(mu, 2.0)) }, []string{"already used", "NewModel"}},
		{"observed again, another shape", "y", func() { m.Lookup("y").(*RV).Observe([]float64{1, 2}) }, []string{"[2]", "[3]"}},
	}
	nb := inNotebook(t)
	for _, c := range cases {
		var err error
		nb.cell() // each case is a cell run again
		func() {
			defer Catch(&err)
			c.call()
		}()
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("%s: error %v, want an *Error", c.name, err)
			continue
		}
		if e.Var != c.v {
			t.Errorf("%s: the error names %q, want %q: %v", c.name, e.Var, c.v, e)
		}
		for _, s := range c.msg {
			if !strings.Contains(e.Msg, s) {
				t.Errorf("%s: message %q lacks %q", c.name, e.Msg, s)
			}
		}
		if got := m.String(); got != before {
			t.Fatalf("%s: the refused call changed the model:\n%s\nwas\n%s", c.name, got, before)
		}
		if err := m.Err(); err != nil {
			t.Fatalf("%s: the model no longer compiles: %v", c.name, err)
		}
	}
	// A shape may change while nothing uses the variable.
	m.Normal("free", 0, 1)
	nb.cell()
	if r := m.Normal("free", 0, 1, Size(4)); !slices.Equal(r.Shape(), []int{4}) {
		t.Errorf("an unused variable's new shape: %v", r.Shape())
	}
}

// TestRedefineReorders checks that a variable redefined over one made
// after it comes after it: the predictive draws variables in the model's
// order, and a prior predictive of mu ~ Normal(alpha, 0.001) must draw
// alpha first.
func TestRedefineReorders(t *testing.T) {
	nb := inNotebook(t)
	m := NewModel("t")
	m.Normal("mu", 0, 1)
	alpha := m.Normal("alpha", 10, 1)
	nb.cell()
	m.Normal("mu", alpha, 0.001)
	prior := m.PriorPredictive(200, Seed(2))
	a, mu := prior.Chains[0].Values[prior.Column("alpha")], prior.Chains[0].Values[prior.Column("mu")]
	for i := range a {
		if math.Abs(a[i]-mu[i]) > 0.01 {
			t.Fatalf("draw %d: alpha %v, mu %v: mu was not drawn around alpha", i, a[i], mu[i])
		}
	}
	if s := m.String(); strings.Index(s, "alpha ~") > strings.Index(s, "mu ~") {
		t.Errorf("mu is listed before alpha, which it uses:\n%s", s)
	}
}

// TestDataRunAgain: a data container's cell run again with other data
// gives them to it, as SetData does.
func TestDataRunAgain(t *testing.T) {
	m := NewModel("t")
	x := m.Data("x", []float64{1, 2, 3})
	b := m.Normal("b", 0, 1)
	m.Normal("y", Mul(b, x), 1, Observed([]float64{2, 4, 6}))
	nb := inNotebook(t)
	m.Data("x", []float64{1, 2, 4})
	fresh := NewModel("t")
	x2 := fresh.Data("x", []float64{1, 2, 4})
	b2 := fresh.Normal("b", 0, 1)
	fresh.Normal("y", Mul(b2, x2), 1, Observed([]float64{2, 4, 6}))
	for _, q := range []float64{-1, 0.3, 2} {
		if a, b := logDensityAt(t, m, []float64{q}), logDensityAt(t, fresh, []float64{q}); a != b {
			t.Errorf("at b = %v: %v, built afresh %v", q, a, b)
		}
	}
	// What SetData refuses, the cell run again refuses, naming the
	// variable, and the container keeps its data.
	m2 := NewModel("p")
	m2.Normal("z", m2.Data("x", []float64{1, 2, 3}), 1)
	nb.cell()
	err := catch(func() { m2.Data("x", []float64{1, 2}) })
	if err == nil || !strings.Contains(err.Error(), "parameter z") {
		t.Fatalf("new data changing a parameter's shape: err %v; want one naming parameter z", err)
	}
	if got := m2.Lookup("x").Shape(); !slices.Equal(got, []int{3}) {
		t.Errorf("the refused data left x of shape %v", got)
	}
}

// TestCompileErrors checks mistakes found only when the whole model is
// known.
func TestCompileErrors(t *testing.T) {
	m := NewModel("t")
	m.Poisson("k", 2)
	_, err := m.Compile()
	e, ok := err.(*Error)
	if !ok || e.Var != "k" || !strings.Contains(e.Msg, "discrete") {
		t.Fatalf("latent Poisson: got %v, want an *Error naming k as discrete", err)
	}
}

// TestCatch checks that Catch turns a build panic into an error and lets
// other panics through.
func TestCatch(t *testing.T) {
	f := func() (err error) {
		defer Catch(&err)
		NewModel("t").Normal("x", 0, -2)
		return nil
	}
	if err := f(); err == nil || !strings.Contains(err.Error(), "x") {
		t.Errorf("Catch gave %v, want the error naming x", err)
	}
	defer func() {
		if r := recover(); r != "other" {
			t.Errorf("recovered %v, want the other panic", r)
		}
	}()
	func() {
		var err error
		defer Catch(&err)
		panic("other")
	}()
}

// TestShapes checks the shapes the builder infers.
func TestShapes(t *testing.T) {
	m := NewModel("shapes")
	a := m.Normal("a", 0, 1)
	v := m.Normal("v", 0, 1, Size(4))
	w := m.Normal("w", []float64{1, 2, 3}, 1)
	mat := m.Normal("mat", 0, 1, Shape(2, 3))
	y := m.Normal("y", a, 1).Observe([]float64{1, 2, 3, 4, 5})
	cases := []struct {
		name string
		e    Expr
		want []int
	}{
		{"scalar", a, nil},
		{"Size", v, []int{4}},
		{"from parameters", w, []int{3}},
		{"Shape", mat, []int{2, 3}},
		{"observed takes the data's shape", y, []int{5}},
		{"broadcast", Add(a, v), []int{4}},
		{"Sum", Sum(v), nil},
		{"MatVec", MatVec(mat, w), []int{2}},
		{"Index vector", Index(v, []int{0, 0, 3}), []int{3}},
		{"Index rows", Index(mat, []int{1, 1, 0, 1}), []int{4, 3}},
		{"At", At(v, 2), nil},
		{"Concat", Concat(a, v, w), []int{8}},
		{"Stack", Stack(w, w), []int{2, 3}},
		{"Reshape", Reshape(mat, 3, 2), []int{3, 2}},
		{"CovExpQuad", CovExpQuad([]float64{1, 2, 3}, a, 1), []int{3, 3}},
		{"Cholesky", Cholesky(AddDiag(CovExpQuad(w, 1, 1), 1e-9)), []int{3, 3}},
		{"LogPDF", LogPDF("Normal", w, a, 1), []int{3}},
		{"MultiNormalChol with Size", m.MultiNormalChol("mvn", []float64{0, 0}, [][]float64{{1, 0}, {0, 1}}, Size(5)), []int{5, 2}},
		{"Dirichlet rows", m.Dirichlet("rows", []float64{1, 1, 1}, Size(4)), []int{4, 3}},
		{"LKJ", m.LKJCorrChol("L", 3, 1), []int{3, 3}},
		{"Categorical over rows of logits", m.CategoricalLogit("cat", [][]float64{{0, 1}, {1, 0}, {0, 0}}), []int{3}},
		{"Row", Row(mat, 1), []int{3}},
		{"Col", Col(mat, 2), []int{2}},
		{"DiagPreMultiply", DiagPreMultiply([]float64{1, 2}, mat), []int{2, 3}},
		{"Scan", Scan(4, []any{a}, []any{v}, func(c, x []Expr) ([]Expr, Expr) {
			n := Add(c[0], x[0])
			return []Expr{n}, Stack(n, n)
		}), []int{4, 2}},
	}
	for _, tc := range cases {
		if got := tc.e.Shape(); !equalShape(got, tc.want) {
			t.Errorf("%s: shape %v, want %v", tc.name, got, tc.want)
		}
	}
}

func equalShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestCategoricalTakesProbabilities: Categorical takes probabilities (a
// Dirichlet simplex here) and CategoricalLogit logits. 60 observations
// with counts 30, 20, 10 under a flat Dirichlet prior give the posterior
// Dirichlet(31, 21, 11): means 0.492, 0.333, 0.175. Read as logits (as
// Categorical once did), the probabilities come out far from that.
func TestCategoricalTakesProbabilities(t *testing.T) {
	var y []int
	for k, n := range []int{30, 20, 10} {
		for range n {
			y = append(y, k)
		}
	}
	m := NewModel("cat")
	p := m.Dirichlet("p", []float64{1, 1, 1})
	m.Categorical("y", p).Observe(y)
	fit := m.Sample(Seed(3), Chains(2), Warmup(500), Draws(1000), LiveProgress(false))
	for k, want := range []float64{31.0 / 63, 21.0 / 63, 11.0 / 63} {
		col := fmt.Sprintf("p[%d]", k)
		got := 0.0
		for _, v := range fit.Flat(col) {
			got += v / float64(len(fit.Flat(col)))
		}
		if math.Abs(got-want) > 0.02 {
			t.Errorf("posterior mean of %s = %.3f, want %.3f (Dirichlet(31, 21, 11))", col, got, want)
		}
	}
	for _, c := range []struct {
		p   any
		msg string
	}{
		{[]float64{0.5, 0.6}, "sums to"},
		{[]float64{0.5, 0, 0.5}, "positive"},
		{[]float64{1}, "K ≥ 2"},
	} {
		var err error
		func() {
			defer Catch(&err)
			NewModel("bad").Categorical("y", c.p)
		}()
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Categorical(%v): error %v, want one saying %q", c.p, err, c.msg)
		}
	}
}

// TestDimsAndCoords: named dimensions label the summary, the warnings,
// column lookups and the model listing by coordinate; mistakes in them
// name the variable where they are written.
func TestDimsAndCoords(t *testing.T) {
	m := NewModel("schools")
	m.Coords("school", "Choate", "Deerfield", "Phillips")
	mu := m.Normal("mu", 0, 5)
	z := m.Normal("z", 0, 1, Size(3), Dims("school"))
	theta := m.Deterministic("theta", mu.Add(z.Mul(2.0)), Dims("school"))
	m.Normal("y", theta, 10.0, Dims("school")).Observe([]float64{28, 8, -3})
	if s := m.String(); !strings.Contains(s, "z[school=3] ~ Normal(0, 1)") || !strings.Contains(s, "theta[school=3] =") {
		t.Errorf("the listing does not show the dims:\n%s", s)
	}
	fit := m.Sample(Seed(1), Chains(2), Warmup(200), Draws(200), LiveProgress(false))
	text := fit.Summary().String()
	for _, want := range []string{"theta[Choate]", "theta[Phillips]", "z[Deerfield]"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %s:\n%s", want, text)
		}
	}
	if !slices.Equal(fit.Flat("theta[Deerfield]"), fit.Flat("theta[1]")) {
		t.Error("theta[Deerfield] and theta[1] are not the same column")
	}
	if pp := m.PosteriorPredictive(fit); pp.Summary().Rows[0].Name != "y[Choate]" {
		t.Errorf("posterior predictive rows start with %s, want y[Choate]", pp.Summary().Rows[0].Name)
	}
	for _, c := range []struct {
		build func(m *Model)
		v     string
		msg   string
	}{
		{func(m *Model) { m.Normal("a", 0, 1, Size(3), Dims("x", "y")) }, "a", "2 dimensions"},
		{func(m *Model) { m.Coords("school", "A", "B"); m.Normal("a", 0, 1, Size(3), Dims("school")) }, "a", "2 coordinates"},
	} {
		bad := NewModel("bad")
		var err error
		func() { defer Catch(&err); c.build(bad) }() // refused where it is written
		if err == nil || !strings.Contains(err.Error(), c.v) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("error %v, want one naming %s and saying %q", err, c.v, c.msg)
		}
	}
	m.Coords("school", "Choate", "Deerfield", "Phillips") // the same again: a cell run again
}
