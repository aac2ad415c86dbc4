package ppl

import (
	"math"
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
		{"duplicate name", func(m *Model) { m.Normal("a", 0, 1); m.Normal("a", 0, 1) }, "a", []string{"already used"}},
		{"unknown name", func(m *Model) { m.Normal("a", 0, 1); m.Lookup("b") }, "b", []string{"no variable", "a"}},
		{"empty name", func(m *Model) { m.Normal("", 0, 1) }, "", []string{"needs a name"}},
		{"bracket in a name", func(m *Model) { m.Normal("a[1]", 0, 1) }, "a[1]", []string{"brackets"}},
		{"observed twice", func(m *Model) { m.Normal("y", 0, 1).Observe(1.0).Observe(2.0) }, "y", []string{"already observed"}},
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
			if tc.name != "variables of two models" && m.Err() != e {
				t.Errorf("m.Err() = %v, want the panicked error", m.Err())
			}
			if _, err := m.Compile(); m.Err() != nil && err == nil {
				t.Error("Compile succeeded on a model with an error")
			}
		})
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
		{"Categorical over rows of logits", m.Categorical("cat", [][]float64{{0, 1}, {1, 0}, {0, 0}}), []int{3}},
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
