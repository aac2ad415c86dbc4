package ppl

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// everyTransform is a model with one parameter per bijector.
func everyTransform() *Model {
	m := NewModel("transforms")
	m.Normal("a", 0, 1)
	m.HalfNormal("b", 1)
	m.Normal("c", 0, 1, Upper(3))
	m.Beta("d", 2, 2)
	m.Normal("e", 0, 1, Size(3), Ordered())
	m.HalfNormal("f", 1, Size(3), PositiveOrdered())
	alpha1 := m.Uniform("alpha1", 0, 1)
	m.Flat("beta1", Bounds(0, Sub(1, alpha1)))
	m.Dirichlet("g", []float64{1, 2, 3})
	m.LKJCorrChol("h", 3, 2)
	m.Dirichlet("rows", []float64{1, 1, 1}, Size(2))
	return m
}

// TestTransformRoundTrip maps random unconstrained points to constrained
// values and back.
func TestTransformRoundTrip(t *testing.T) {
	needOps(t, ir.OpDirichletLPDF, ir.OpLKJCorrCholLPDF, ir.OpBetaLPDF, ir.OpUniformLPDF)
	c, err := everyTransform().Compile()
	if err != nil {
		t.Fatal(err)
	}
	// Oracle: the unconstrained lengths follow from the bijectors' domains
	// (simplex of 3: 2; 3×3 correlation Cholesky factor: 3).
	wantLen := map[string]int{"a": 1, "b": 1, "c": 1, "d": 1, "e": 3, "f": 3, "alpha1": 1, "beta1": 1, "g": 2, "h": 3, "rows": 4}
	dim := 0
	for _, p := range c.Params() {
		if p.Len != wantLen[p.Name] {
			t.Errorf("%s: %d unconstrained slots, want %d", p.Name, p.Len, wantLen[p.Name])
		}
		dim += wantLen[p.Name]
	}
	if c.Dim() != dim {
		t.Fatalf("Dim = %d, want %d", c.Dim(), dim)
	}
	d := c.NewDensity()
	rng := rand.New(rand.NewPCG(3, 4))
	draw := make([]float64, c.VarLen())
	for range 20 {
		x := make([]float64, c.Dim())
		for i := range x {
			x[i] = 4*rng.Float64() - 2
		}
		d.Constrained(x, draw)
		back, err := c.UnconstrainDraw(draw)
		if err != nil {
			t.Fatal(err)
		}
		for i := range x {
			if math.Abs(back[i]-x[i]) > 1e-9*math.Max(1, math.Abs(x[i])) {
				t.Errorf("slot %d: %v → constrained → %v", i, x[i], back[i])
			}
		}
		vals, err := c.Constrain(x)
		if err != nil {
			t.Fatal(err)
		}
		// Support checks on the constrained values.
		if vals["b"][0] <= 0 || vals["c"][0] >= 3 || vals["d"][0] <= 0 || vals["d"][0] >= 1 {
			t.Errorf("bounds violated: b=%v c=%v d=%v", vals["b"], vals["c"], vals["d"])
		}
		if e := vals["e"]; !(e[0] < e[1] && e[1] < e[2]) {
			t.Errorf("e = %v is not increasing", e)
		}
		if f := vals["f"]; !(0 < f[0] && f[0] < f[1] && f[1] < f[2]) {
			t.Errorf("f = %v is not positive and increasing", f)
		}
		if a, b := vals["alpha1"][0], vals["beta1"][0]; !(b > 0 && b < 1-a) {
			t.Errorf("beta1 = %v outside (0, 1 - alpha1 = %v)", b, 1-a)
		}
		if g := vals["g"]; math.Abs(g[0]+g[1]+g[2]-1) > 1e-12 {
			t.Errorf("g = %v does not sum to 1", g)
		}
		for row := range 2 {
			if r := vals["rows"][3*row : 3*row+3]; math.Abs(r[0]+r[1]+r[2]-1) > 1e-12 {
				t.Errorf("row %d of rows = %v does not sum to 1", row, r)
			}
		}
		h := vals["h"]
		for i := range 3 {
			s := 0.0
			for j := range 3 {
				s += h[3*i+j] * h[3*i+j]
			}
			if math.Abs(s-1) > 1e-12 {
				t.Errorf("row %d of h has squared norm %v, want 1", i, s)
			}
		}
		// The named form gives the same point.
		named := map[string]any{}
		for _, p := range c.Params() {
			named[p.Name] = vals[p.Name]
		}
		back2, err := c.Unconstrain(named)
		if err != nil {
			t.Fatal(err)
		}
		for i := range x {
			if math.Abs(back2[i]-back[i]) > 1e-12 {
				t.Errorf("Unconstrain slot %d = %v, UnconstrainDraw %v", i, back2[i], back[i])
			}
		}
	}
}

// TestUnconstrainErrors checks that bad initial values name the parameter.
func TestUnconstrainErrors(t *testing.T) {
	m := NewModel("t")
	m.Normal("mu", 0, 1)
	m.HalfNormal("sigma", 1)
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		vals map[string]any
		v    string
	}{
		{map[string]any{"mu": 0.0}, "sigma"},
		{map[string]any{"mu": 0.0, "sigma": -1.0}, "sigma"},
		{map[string]any{"mu": []float64{1, 2}, "sigma": 1.0}, "mu"},
		{map[string]any{"mu": 0.0, "sigma": 1.0, "tau": 1.0}, "tau"},
	}
	for _, tc := range cases {
		_, err := c.Unconstrain(tc.vals)
		e, ok := err.(*Error)
		if !ok || e.Var != tc.v {
			t.Errorf("Unconstrain(%v) = %v, want an *Error naming %s", tc.vals, err, tc.v)
		}
	}
	x, err := c.Unconstrain(map[string]any{"mu": 0.5, "sigma": math.E})
	if err != nil || x[0] != 0.5 || math.Abs(x[1]-1) > 1e-15 {
		t.Errorf("Unconstrain = %v, %v; want [0.5 1]", x, err)
	}
}

// TestUnconstrainAt checks partial initial values: given parameters are
// set, the others keep their place in x0.
func TestOrderedPositiveFamily(t *testing.T) {
	m := NewModel("t")
	m.HalfNormal("s", 1, Size(3), Ordered())
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	if tr := c.Params()[0].Transform; tr != "positive_ordered" {
		t.Errorf("an ordered HalfNormal vector uses %s, want positive_ordered", tr)
	}
}

func TestUnconstrainAt(t *testing.T) {
	m := NewModel("t")
	m.Normal("mu", 0, 1)
	m.HalfNormal("sigma", 1)
	m.Normal("z", 0, 1, Size(2))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	x0 := []float64{0.3, -0.7, 1.1, -1.9}
	x, err := c.UnconstrainAt(x0, map[string]any{"sigma": 2.0})
	if err != nil {
		t.Fatal(err)
	}
	// Oracle: sigma = 2 is log 2 unconstrained; the rest is x0.
	want := []float64{0.3, math.Log(2), 1.1, -1.9}
	for i := range want {
		if math.Abs(x[i]-want[i]) > 1e-12 {
			t.Errorf("x = %v, want %v", x, want)
			break
		}
	}
}

// TestEveryTransformGradient checks the gradient of a model using every
// bijector (Jacobians and bound expressions included) against finite
// differences.
func TestEveryTransformGradient(t *testing.T) {
	c, err := everyTransform().Compile()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 5 {
		x := make([]float64, c.Dim())
		for i := range x {
			x[i] = 2*rng.Float64() - 1
		}
		irtest.CheckGradient(t, c.Program(), x, 1e-6)
	}
}
