package ppl

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// regression builds y ~ Normal(a + b·x, s) over containers x and y, with
// a deterministic mean.
func regression(t *testing.T, x, y []float64) (*Model, Expr) {
	t.Helper()
	m := NewModel("reg")
	xc := m.Data("x", x)
	yc := m.Data("y", y)
	a := m.Normal("a", 0, 10)
	b := m.Normal("b", 0, 10)
	s := m.HalfNormal("s", 2)
	mu := m.Deterministic("mu", a.Add(b.Mul(xc)))
	m.Normal("obs", mu, s, Observed(yc))
	return m, mu
}

func simulate(n int, seed uint64) (x, y []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	for range n {
		xi := rng.NormFloat64()
		x = append(x, xi)
		y = append(y, 1+2*xi+0.5*rng.NormFloat64())
	}
	return x, y
}

// plainRegression is the same model with the data as Go values.
func plainRegression(x, y []float64) *Model {
	m := NewModel("reg")
	a := m.Normal("a", 0, 10)
	b := m.Normal("b", 0, 10)
	s := m.HalfNormal("s", 2)
	mu := m.Deterministic("mu", a.Add(b.Mul(x)))
	m.Normal("obs", mu, s, Observed(y))
	return m
}

func logDensityAt(t *testing.T, m *Model, q []float64) float64 {
	t.Helper()
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return c.LogDensity(q)
}

func TestSetDataSameAndNewShape(t *testing.T) {
	x1, y1 := simulate(30, 1)
	x2, y2 := simulate(30, 2)
	x3, y3 := simulate(11, 3)
	m, _ := regression(t, x1, y1)
	q := []float64{0.7, 1.9, -0.4}
	if got, want := logDensityAt(t, m, q), logDensityAt(t, plainRegression(x1, y1), q); math.Abs(got-want) > 1e-9 {
		t.Fatalf("container model density %v, plain %v", got, want)
	}
	// Same shape: the density is the one of a model built on the new data.
	m.SetData("x", x2)
	m.SetData("y", y2)
	if got, want := logDensityAt(t, m, q), logDensityAt(t, plainRegression(x2, y2), q); math.Abs(got-want) > 1e-9 {
		t.Fatalf("after SetData of the same shape: density %v, want %v", got, want)
	}
	// Another shape: x first leaves obs without fitting data.
	m.SetData("x", x3)
	if got := m.Lookup("obs").Shape(); !slices.Equal(got, []int{11}) {
		t.Fatalf("obs has shape %v after 11 new x; want [11]", got)
	}
	err := catch(func() { m.Sample(Chains(1), Draws(10), Warmup(10)) })
	if err == nil || !strings.Contains(err.Error(), "obs") || !strings.Contains(err.Error(), "SetData") {
		t.Fatalf("Sample with observations of the old shape: err %v; want one naming obs and SetData", err)
	}
	m.SetData("y", y3)
	if got, want := logDensityAt(t, m, q), logDensityAt(t, plainRegression(x3, y3), q); math.Abs(got-want) > 1e-9 {
		t.Fatalf("after SetData of a new shape: density %v, want %v", got, want)
	}
	if got := m.Lookup("mu").Shape(); !slices.Equal(got, []int{11}) {
		t.Fatalf("mu has shape %v; want [11]", got)
	}
}

func TestPosteriorPredictiveWithData(t *testing.T) {
	x, y := simulate(60, 4)
	m, mu := regression(t, x, y)
	fit := m.Sample(Chains(2), Draws(400), Warmup(400), Seed(5))
	xNew := []float64{-2, 0, 0.5, 3}
	pred := m.PosteriorPredictive(fit, WithData("x", xNew), Seed(6))
	a, b := meanOf(t, fit, "a"), meanOf(t, fit, "b")
	for i, xi := range xNew {
		want := a + b*xi
		gotMu := meanOf(t, pred, elementName("mu", i))
		if math.Abs(gotMu-want) > 1e-9 {
			t.Errorf("mu[%d] mean %v; want a+b·x = %v (the mean of the draws)", i, gotMu, want)
		}
		gotY := meanOf(t, pred, elementName("obs", i))
		if math.Abs(gotY-want) > 0.15 { // sd of a mean of 800 draws of sd ~0.5
			t.Errorf("obs[%d] mean %v; want about %v", i, gotY, want)
		}
	}
	if got := len(pred.Columns); got != 2*len(xNew) {
		t.Fatalf("predictive columns %v; want obs and mu at the 4 new points", pred.Columns)
	}
	// The model is as it was: 60 observations, the old mean, and it fits.
	if got := m.Lookup("obs").Shape(); !slices.Equal(got, []int{60}) {
		t.Fatalf("after WithData, obs has shape %v; want [60]", got)
	}
	if got := len(mu.Shape()); got != 1 || mu.Shape()[0] != 60 {
		t.Fatalf("a handle from before has shape %v; want [60]", mu.Shape())
	}
	ll := m.LogLik(fit)
	if got := len(ll.Columns); got != 60 {
		t.Fatalf("LogLik after WithData has %d columns; want 60", got)
	}
	// LogLik at new data for one call.
	llNew := m.LogLik(fit, WithData("x", xNew), WithData("y", []float64{-3, 1, 2, 7}))
	if got := len(llNew.Columns); got != 4 {
		t.Fatalf("LogLik WithData has %d columns; want 4", got)
	}
}

// elementName is the column name of element i (0-based) of a vector.
func elementName(name string, i int) string {
	return name + "[" + strconv.Itoa(i) + "]"
}

// meanOf is the mean of a column's draws over all chains.
func meanOf(t *testing.T, p interface{ Flat(string) []float64 }, col string) float64 {
	t.Helper()
	d := p.Flat(col)
	if len(d) == 0 {
		t.Fatalf("no draws of %s", col)
	}
	s := 0.0
	for _, v := range d {
		s += v
	}
	return s / float64(len(d))
}

func TestSetDataHandlesAndErrors(t *testing.T) {
	x, y := simulate(20, 7)
	m, mu := regression(t, x, y)
	// An expression made before new data follows them.
	m.SetData("x", x[:5])
	m.SetData("y", y[:5])
	d := m.Deterministic("mu2", mu.Mul(2))
	if got := d.Shape(); !slices.Equal(got, []int{5}) {
		t.Fatalf("Deterministic of a handle from before SetData has shape %v; want [5]", got)
	}
	if got := m.Lookup("x").Shape(); !slices.Equal(got, []int{5}) {
		t.Fatalf("Lookup(x) has shape %v; want [5]", got)
	}

	for _, c := range []struct {
		name string
		f    func()
		want string
	}{
		{"unknown container", func() { m.SetData("z", x) }, "no data container"},
		{"NaN", func() { m.SetData("x", []float64{1, math.NaN(), 2, 3, 4}) }, "NaN"},
		{"container of an expression", func() { m.Data("w", mu) }, "Go values"},
		{"observe an expression of a container", func() {
			m.Normal("o2", 0, 1, Observed(Log(m.Lookup("y").Mul(0).Add(1))))
		}, "container"},
		{"Where on a container", func() { Where(m.Lookup("x"), 1.0, 2.0) }, "container"},
	} {
		err := catch(c.f)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v; want one saying %q", c.name, err, c.want)
		}
	}
	// The model is unchanged by the mistakes.
	if _, err := m.Compile(); err != nil {
		t.Fatal(err)
	}

	// A parameter whose shape would follow the data.
	m2 := NewModel("p")
	xc := m2.Data("x", []float64{1, 2, 3})
	m2.Normal("z", xc, 1)
	err := catch(func() { m2.SetData("x", []float64{1, 2}) })
	if err == nil || !strings.Contains(err.Error(), "parameter z") {
		t.Fatalf("SetData changing a parameter's shape: err %v; want one naming parameter z", err)
	}
	if got := m2.Lookup("x").Shape()[0]; got != 3 {
		t.Fatalf("a failed SetData left x with %d elements; want the 3 it had", got)
	}
	m2.SetData("x", []float64{4, 5, 6}) // the same shape is fine
	c, err := m2.Compile()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.LogDensity([]float64{4, 5, 6}), -3*0.5*math.Log(2*math.Pi); math.Abs(got-want) > 1e-12 {
		t.Fatalf("z ~ Normal(new x, 1) at the new x: %v; want %v", got, want)
	}
}

func TestSetDataFunctions(t *testing.T) {
	// Mean, MatVec, Index and Binomial trials follow a new length.
	m := NewModel("f")
	X := m.Data("X", [][]float64{{1, 0}, {0, 1}, {1, 1}})
	n := m.Data("n", []int{5, 6, 7})
	k := m.Data("k", []int{1, 2, 3})
	beta := m.Normal("beta", 0, 1, Size(2))
	eta := MatVec(X, beta)
	m.Deterministic("center", Mean(eta))
	m.Deterministic("first", Index(eta, []int{0}))
	m.BinomialLogit("y", n, eta, Observed(k))
	err := catch(func() { m.SetData("X", [][]float64{{1, 2}, {3, 4}}) })
	if err == nil || !strings.Contains(err.Error(), `SetData("X")`) || !strings.Contains(err.Error(), "y") {
		t.Fatalf("new rows of X alone (trials of 3 rows): err %v; want one naming SetData(\"X\") and y", err)
	}
	m.SetData("X", [][]float64{{1, 2}, {3, 4}}, "n", []int{10, 20}, "k", []int{4, 5})
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	q := []float64{0.3, 0.2}
	vals, err := c.Constrain(q)
	if err != nil {
		t.Fatal(err)
	}
	e0, e1 := 1*0.3+2*0.2, 3*0.3+4*0.2
	if got, want := vals["center"][0], (e0+e1)/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("Mean over 2 new rows: %v; want %v", got, want)
	}
	if got := vals["first"][0]; math.Abs(got-e0) > 1e-12 {
		t.Errorf("Index: %v; want %v", got, e0)
	}
	lbinom := func(n, k, eta float64) float64 {
		lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
		return lg(n+1) - lg(k+1) - lg(n-k+1) + k*eta - n*math.Log1p(math.Exp(eta))
	}
	prior := -0.5*(0.3*0.3+0.2*0.2) - math.Log(2*math.Pi)
	if got, want := c.LogDensity(q), prior+lbinom(10, 4, e0)+lbinom(20, 5, e1); math.Abs(got-want) > 1e-9 {
		t.Errorf("binomial on the new rows: %v; want %v", got, want)
	}
	// Counts above the new trials are refused, naming y.
	err = catch(func() { m.SetData("k", []int{11, 5}) })
	if err == nil || !strings.Contains(err.Error(), "y") {
		t.Errorf("counts above trials: err %v; want one naming y", err)
	}
}

// catch runs f and returns the *Error it panicked with, if any.
func catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			var e *Error
			if re, ok := r.(*Error); ok {
				e = re
			}
			if e == nil {
				panic(r)
			}
			err = e
		}
	}()
	f()
	return nil
}

func TestSetDataCensored(t *testing.T) {
	m := NewModel("c")
	x := m.Data("x", []float64{1, 2, 3})
	y := m.Data("y", []float64{1.5, 2.5, 10})
	mu := m.Normal("mu", 0, 5)
	m.Normal("obs", mu.Add(x), 1, Censored(nil, 10.0), Observed(y))
	m.SetData("x", []float64{0, 1, 2}) // the same shape: fine
	err := catch(func() { m.SetData("x", []float64{1, 2}, "y", []float64{1, 2}) })
	if err == nil || !strings.Contains(err.Error(), "censored variable obs") {
		t.Fatalf("a censored variable's new shape: err %v; want one naming it", err)
	}
	err = catch(func() { m.Normal("obs2", mu, 1, Censored(nil, x), Observed(y)) })
	if err == nil || !strings.Contains(err.Error(), "container") {
		t.Fatalf("censoring bounds from a container: err %v", err)
	}
}

// Data errors name the element by its coordinate when its dimension has
// labels.
func TestDataErrorsByCoordinate(t *testing.T) {
	m := NewModel("c")
	m.Coords("school", "A", "B", "C")
	mu := m.Normal("mu", 0, 1)
	for _, c := range []struct {
		data []float64
		fam  string
		want string
	}{
		{[]float64{1, math.NaN(), 3}, "Normal", "at index 1 (school=B)"},
		{[]float64{1, 2, -3}, "Poisson", "at index 2 (school=C)"},
	} {
		err := catch(func() {
			if c.fam == "Normal" {
				m.Normal("y_"+c.fam, mu, 1, Dims("school"), Observed(c.data))
			} else {
				m.Poisson("y_"+c.fam, 2.0, Dims("school"), Observed(c.data))
			}
		})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v; want one saying %q", c.fam, err, c.want)
		}
	}
}
