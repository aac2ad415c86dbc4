package ppl

import (
	"math"
	"strings"
	"testing"
)

// valuesAt are the model's deterministic quantities at the unconstrained
// point q.
func valuesAt(t *testing.T, m *Model, q []float64) map[string][]float64 {
	t.Helper()
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	v, err := c.Constrain(q)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFormulaValues(t *testing.T) {
	m := NewModel("f")
	mu := m.Normal("mu", 0, 5)
	tau := m.Normal("tau", 0, 1) // unconstrained, so q is the value
	z := m.Normal("z", 0, 1, Size(3))
	x := []float64{0.5, -1, 2}
	g := []int{2, 0, 0, 1}
	m.Let("theta", "mu + tau * z")
	m.Deterministic("theta_methods", mu.Add(tau.Mul(z)))
	m.Let("per_obs", "z[g] * 2 - mu / 4", Using("g", g))
	m.Let("curve", "exp(-tau * x) + x^2 + clip(x, 0, 1) + mean(x)", Using("x", x))
	m.Let("lp", "normal_lpdf(x, mu, 1.5) + abs(-tau)", Using("x", x))
	m.Let("one", "z[1] + pi")
	m.Let("powers", "-2^2 + 2^3^2 - 8/4/2 + 2*3^2")
	q := []float64{0.3, -0.7, 1, 2, 3}
	v := valuesAt(t, m, q)
	mv, tv, zv := q[0], q[1], q[2:]
	check := func(name string, want []float64) {
		t.Helper()
		got := v[name]
		if len(got) != len(want) {
			t.Fatalf("%s = %v; want %v", name, got, want)
		}
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("%s[%d] = %v; want %v", name, i, got[i], want[i])
			}
		}
	}
	check("theta", v["theta_methods"])
	check("theta", []float64{mv + tv*zv[0], mv + tv*zv[1], mv + tv*zv[2]})
	var per []float64
	for _, j := range g {
		per = append(per, zv[j]*2-mv/4)
	}
	check("per_obs", per)
	var curve, lp []float64
	for _, xi := range x {
		curve = append(curve, math.Exp(-tv*xi)+xi*xi+math.Min(math.Max(xi, 0), 1)+(0.5-1+2)/3)
		lp = append(lp, -0.5*math.Log(2*math.Pi)-math.Log(1.5)-0.5*math.Pow((xi-mv)/1.5, 2)+math.Abs(tv))
	}
	check("curve", curve)
	check("lp", lp)
	check("one", []float64{zv[1] + math.Pi})
	check("powers", []float64{-4 + 512 - 1 + 18})
	// A cell run again: the same quantity.
	inNotebook(t)
	if a, b := m.Let("theta", "mu + tau * z"), m.Lookup("theta"); a.node() != b.(*node).node() {
		t.Errorf("Let run again made another node")
	}
}

func TestFormulaErrors(t *testing.T) {
	m := NewModel("f")
	m.Normal("mu", 0, 5)
	m.Normal("z", 0, 1, Size(3))
	m.Data("x", []float64{1, 2})
	m.Data("frac", []float64{0.5})
	for _, c := range []struct {
		src  string
		opts []Option
		want []string
	}{
		{"mu + * z", nil, []string{"column 6", "expected a number"}},
		{"2 * (mu + z", nil, []string{"column 12", "expected \")\""}},
		{"mu + nosuch", nil, []string{"column 6", "nosuch is not a name", "mu, x, z"}},
		{"z[g]", nil, []string{"column 3", "Using(\"g\""}},
		{"z[g]", []Option{Using("g", []int{0, 3})}, []string{"column 1", "index 3", "0-based"}},
		{"z[g]", []Option{Using("g", []float64{0.5})}, []string{"not a whole number"}},
		{"mu + z * x", nil, []string{"column 6", "shapes [3] and [2] differ"}},
		{"mu == 1", nil, []string{"column 4", "unexpected \"==\""}},
		{"mu + foo(z)", nil, []string{"column 6", "no function foo"}},
		{"exp(mu, z)", nil, []string{"exp takes 1 argument"}},
		{"wibble_lpdf(z, 0, 1)", nil, []string{"no family \"wibble\""}},
		{"z[frac]", nil, []string{"frac", "not a whole number"}}, // a container of ids must hold whole numbers
	} {
		err := catch(func() { m.Formula(c.src, c.opts...) })
		if err == nil {
			t.Errorf("%q: no error", c.src)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error %q does not say %q", c.src, err, w)
			}
		}
	}
	err := catch(func() { m.Normal("bad", 0, 1, Using("g", []int{1})) })
	if err == nil || !strings.Contains(err.Error(), "formulas") {
		t.Errorf("Using on a variable: err %v", err)
	}
	if _, err := m.Compile(); err != nil {
		t.Fatalf("the model after the mistakes: %v", err)
	}
}
