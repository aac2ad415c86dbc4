package compile_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/internal/compile"
)

// recurrenceY is a short series for the recurrence models (any values do:
// the general scan path is the oracle).
var recurrenceY = []float64{0.3, -0.5, 1.2, 0.1, -0.8, 0.4, 2.0, -1.1, 0.7, 0.2, -0.3, 1.5}

// ar1Model: y[t] ~ Normal(x[t], sigma), x[t] = mu + phi·x[t-1] + z[t]·tau
// with the innovations z data: a scan with a per-step a and a scalar b.
func ar1Model() *ppl.Model {
	y, T := recurrenceY, len(recurrenceY)
	m := ppl.NewModel("ar1")
	mu := m.Normal("mu", 0, 1)
	phi := m.Uniform("phi", -1, 1)
	sigma := m.HalfNormal("sigma", 1)
	x := ppl.Scan(T, []any{0.1}, []any{y}, func(c, s []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		nx := ppl.Add(mu, ppl.Add(ppl.Mul(phi, c[0]), ppl.Mul(0.5, s[0])))
		return []ppl.Expr{nx}, nx
	})
	m.LogDensity("y", ppl.Sum(ppl.LogPDF("Normal", y, x, sigma)))
	return m
}

// arma11Model is ARMA(1,1) as internal/posteriordb writes it: the error
// is carried, err[t] = y[t] - (mu + phi·y[t-1] + theta·err[t-1]).
func arma11Model() *ppl.Model {
	y, T := recurrenceY, len(recurrenceY)
	m := ppl.NewModel("arma11")
	mu := m.Normal("mu", 0, 10)
	phi := m.Normal("phi", 0, 2)
	theta := m.Normal("theta", 0, 2)
	sigma := m.HalfCauchy("sigma", 2.5)
	err1 := ppl.Sub(y[0], ppl.Add(mu, ppl.Mul(phi, mu)))
	errs := ppl.Scan(T-1, []any{err1}, []any{y[:T-1], y[1:]}, func(c, x []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		nu := ppl.Add(mu, ppl.Add(ppl.Mul(phi, x[0]), ppl.Mul(theta, c[0])))
		e := ppl.Sub(x[1], nu)
		return []ppl.Expr{e}, e
	})
	m.LogDensity("err", ppl.LogPDF("Normal", ppl.Concat(err1, errs), 0, sigma))
	return m
}

// garchY and garchSigma1 are the GARCH(1,1) data of package ppl's
// density tests.
var garchY = []float64{0.3, -0.5, 1.2, 0.1, -0.8, 0.4, 2.0, -1.1}

const garchSigma1 = 0.5

// garchModel is GARCH(1,1) carrying σ, its step next = Sqrt(A + B·carry²)
// (package ppl's density tests check its log density against plain Go).
func garchModel() *ppl.Model {
	y, T := garchY, len(garchY)
	m := ppl.NewModel("garch11")
	mu := m.Flat("mu")
	alpha0 := m.HalfFlat("alpha0")
	alpha1 := m.Flat("alpha1", ppl.Bounds(0, 1))
	beta1 := m.Flat("beta1", ppl.Bounds(0, ppl.Sub(1, alpha1)))
	s := ppl.Scan(T-1, []any{garchSigma1}, []any{y[:T-1]}, func(c, x []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		v := ppl.Add(alpha0, ppl.Add(ppl.Mul(alpha1, ppl.Square(ppl.Sub(x[0], mu))), ppl.Mul(beta1, ppl.Square(c[0]))))
		s := ppl.Sqrt(v)
		return []ppl.Expr{s}, s
	})
	m.Normal("y", mu, ppl.Concat(garchSigma1, s)).Observe(y)
	return m
}

// garchVarModel is GARCH(1,1) carrying the variance σ² and emitting σ.
func garchVarModel() *ppl.Model {
	y, T := garchY, len(garchY)
	m := ppl.NewModel("garch11")
	mu := m.Flat("mu")
	alpha0 := m.HalfFlat("alpha0")
	alpha1 := m.Flat("alpha1", ppl.Bounds(0, 1))
	beta1 := m.Flat("beta1", ppl.Bounds(0, ppl.Sub(1, alpha1)))
	s := ppl.Scan(T-1, []any{garchSigma1 * garchSigma1}, []any{y[:T-1]}, func(c, x []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		v := ppl.Add(alpha0, ppl.Add(ppl.Mul(alpha1, ppl.Square(ppl.Sub(x[0], mu))), ppl.Mul(beta1, c[0])))
		return []ppl.Expr{v}, ppl.Sqrt(v)
	})
	m.Normal("y", mu, ppl.Concat(garchSigma1, s)).Observe(y)
	return m
}

// emitPrevModel emits a function of the carry before the step and of the
// row, so the rewrite needs the shifted carries.
func emitPrevModel() *ppl.Model {
	y, T := recurrenceY, len(recurrenceY)
	m := ppl.NewModel("emitprev")
	a := m.Normal("a", 0, 1)
	b := m.Uniform("b", -1, 1)
	x := ppl.Scan(T, []any{a}, []any{y}, func(c, s []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		nx := ppl.Sub(ppl.Div(ppl.Add(s[0], c[0]), 2), ppl.Neg(ppl.Mul(c[0], b)))
		return []ppl.Expr{nx}, ppl.Add(ppl.Exp(ppl.Mul(0.1, c[0])), ppl.Square(ppl.Sub(nx, s[0])))
	})
	m.LogDensity("x", ppl.Neg(ppl.Sum(x)))
	return m
}

// nestedModel rewrites an inner scan whose step uses the outer step's
// row and carry (placeholders of the enclosing scan) as coefficients.
func nestedModel() *ppl.Model {
	m := ppl.NewModel("nested")
	a := m.Uniform("a", -1, 1)
	inner := []float64{0.5, -1, 2}
	totals := ppl.Scan(4, []any{a}, []any{recurrenceY[:4]}, func(c, row []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		in := ppl.Scan(3, []any{c[0]}, []any{inner}, func(ci, x []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
			n := ppl.Add(ppl.Mul(row[0], x[0]), ppl.Mul(ppl.Mul(0.5, c[0]), ci[0]))
			return []ppl.Expr{n}, ppl.Mul(a, n)
		})
		last := ppl.At(in, 2)
		return []ppl.Expr{last}, last
	})
	m.LogDensity("t", ppl.Neg(ppl.Sum(ppl.Square(totals))))
	return m
}

// nonAffineModel builds a model whose step is not affine in the carry.
func nonAffineModel(step func(c, x, p ppl.Expr) ppl.Expr) func() *ppl.Model {
	return func() *ppl.Model {
		y, T := recurrenceY, len(recurrenceY)
		m := ppl.NewModel("nonaffine")
		p := m.Uniform("p", 0.1, 0.5)
		x := ppl.Scan(T, []any{0.2}, []any{y}, func(c, s []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
			nx := step(c[0], s[0], p)
			return []ppl.Expr{nx}, nx
		})
		m.LogDensity("x", ppl.Neg(ppl.Sum(ppl.Square(x))))
		return m
	}
}

// hasOp reports whether program p or a scan body in it has op.
func hasOp(p *ir.Program, op ir.Op) bool {
	return slices.ContainsFunc(p.Instrs, func(in ir.Instr) bool {
		return in.Op == op || in.Body != nil && hasOp(in.Body, op)
	})
}

// compileBoth compiles a model with scans rewritten where they can be and
// with the general scan path only.
func compileBoth(t *testing.T, build func() *ppl.Model) (fast, general *ppl.Compiled) {
	t.Helper()
	fast, err := build().Compile()
	if err != nil {
		t.Fatal(err)
	}
	compile.SetScanGeneralOnly(true)
	defer compile.SetScanGeneralOnly(false)
	general, err = build().Compile()
	if err != nil {
		t.Fatal(err)
	}
	return fast, general
}

// TestScanAsRecurrence checks that scans with an affine carry update
// compile to OpLinearRecurrence with the log density and gradient of the
// general scan path (the oracle), and that other scans stay scans.
func TestScanAsRecurrence(t *testing.T) {
	cases := []struct {
		name      string
		build     func() *ppl.Model
		rewritten bool
		keepsScan bool // an outer scan stays a scan
	}{
		{"AR(1), per-step a", ar1Model, true, false},
		{"ARMA(1,1) as posteriordb writes it", arma11Model, true, false},
		{"GARCH(1,1) carrying σ²", garchVarModel, true, false},
		{"GARCH(1,1) carrying σ through sqrt", garchModel, true, false},
		{"emitting a function of the previous carry", emitPrevModel, true, false},
		{"inner scan using the outer step's placeholders", nestedModel, true, true},
		{"carry squared", nonAffineModel(func(c, x, p ppl.Expr) ppl.Expr { return ppl.Add(x, ppl.Mul(p, ppl.Square(c))) }), false, true},
		{"carry times carry", nonAffineModel(func(c, x, p ppl.Expr) ppl.Expr { return ppl.Add(x, ppl.Mul(c, ppl.Mul(p, c))) }), false, true},
		{"exp of the carry", nonAffineModel(func(c, x, p ppl.Expr) ppl.Expr { return ppl.Mul(p, ppl.Exp(c)) }), false, true},
		{"divided by the carry", nonAffineModel(func(c, x, p ppl.Expr) ppl.Expr { return ppl.Div(p, ppl.Add(2, c)) }), false, true},
		{"coefficient of a sequence times carry squared under sqrt", nonAffineModel(func(c, x, p ppl.Expr) ppl.Expr { return ppl.Sqrt(ppl.Add(p, ppl.Mul(p, ppl.Square(ppl.Add(c, x))))) }), false, true},
		{"tanh of an affine step", nonAffineModel(func(c, x, p ppl.Expr) ppl.Expr { return ppl.Tanh(ppl.Add(x, ppl.Mul(p, c))) }), false, true},
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fast, general := compileBoth(t, tc.build)
			if hasOp(general.Program(), ir.OpLinearRecurrence) || !hasOp(general.Program(), ir.OpScan) {
				t.Fatal("the general path did not compile a scan")
			}
			rec, scan := hasOp(fast.Program(), ir.OpLinearRecurrence), hasOp(fast.Program(), ir.OpScan)
			if rec != tc.rewritten || scan != tc.keepsScan {
				t.Fatalf("linear recurrence %v, scan %v; want %v, %v", rec, scan, tc.rewritten, tc.keepsScan)
			}
			df, dg := fast.NewDensity(), general.NewDensity()
			gf, gg := make([]float64, fast.Dim()), make([]float64, general.Dim())
			for range 5 {
				x := make([]float64, fast.Dim())
				for i := range x {
					x[i] = rng.Float64()*2 - 1
				}
				lf, lg := df.LogDensityGrad(x, gf), dg.LogDensityGrad(x, gg)
				if math.Abs(lf-lg) > 1e-12*math.Max(1, math.Abs(lg)) {
					t.Errorf("log density at %v = %.17g, the general scan gives %.17g", x, lf, lg)
				}
				for i := range gf {
					if math.Abs(gf[i]-gg[i]) > 1e-12*math.Max(1, math.Abs(gg[i])) {
						t.Errorf("gradient[%d] at %v = %.17g, the general scan gives %.17g", i, x, gf[i], gg[i])
					}
				}
				irtest.CheckGradient(t, fast.Program(), x, 1e-6)
			}
			if a := testing.AllocsPerRun(20, func() { df.LogDensityGrad(gf, gf) }); a != 0 {
				t.Errorf("LogDensityGrad allocates %v times per call, want 0", a)
			}
		})
	}
}

// TestLinearRecurrence compares the explicit LinearRecurrence with the
// same recurrence written as a general scan (the oracle).
func TestLinearRecurrence(t *testing.T) {
	y, T := recurrenceY, len(recurrenceY)
	model := func(explicit bool) func() *ppl.Model {
		return func() *ppl.Model {
			m := ppl.NewModel("lr")
			x0 := m.Normal("x0", 0, 1)
			b := m.Uniform("b", -1, 1)
			var x ppl.Expr
			if explicit {
				x = ppl.LinearRecurrence(x0, ppl.Mul(2, y), b)
			} else {
				x = ppl.Scan(T, []any{x0}, []any{y}, func(c, s []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
					n := ppl.Add(ppl.Mul(2, s[0]), ppl.Mul(b, c[0]))
					return []ppl.Expr{n}, n
				})
			}
			m.LogDensity("x", ppl.Neg(ppl.Sum(ppl.Square(x))))
			return m
		}
	}
	_, general := compileBoth(t, model(false))
	explicit, err := model(true)().Compile()
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range [][]float64{{0.3, -0.2}, {-1, 0.7}, {0, 0}} {
		ge, gg := make([]float64, 2), make([]float64, 2)
		le, lg := explicit.LogDensityGrad(x, ge), general.LogDensityGrad(x, gg)
		if math.Abs(le-lg) > 1e-12*math.Max(1, math.Abs(lg)) || math.Abs(ge[0]-gg[0]) > 1e-12*math.Max(1, math.Abs(gg[0])) || math.Abs(ge[1]-gg[1]) > 1e-12*math.Max(1, math.Abs(gg[1])) {
			t.Errorf("at %v: LinearRecurrence gives %v %v, the scan %v %v", x, le, ge, lg, gg)
		}
	}
}

// TestScanManyStatics runs a general scan (a vector carry) whose step uses
// more outer values than the scan's fixed arrays hold, so the forward and
// reverse sweeps resolve them at every step; the oracle is the same
// recurrence in plain Go.
func TestScanManyStatics(t *testing.T) {
	const K = 20
	y := recurrenceY
	m := ppl.NewModel("statics")
	w := make([]ppl.Expr, K)
	for i := range w {
		w[i] = m.Normal("w"+string(rune('a'+i)), 0, 1)
	}
	x := ppl.Scan(len(y), []any{[]float64{0.1, -0.2}}, []any{y}, func(c, s []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		acc := ppl.Expr(ppl.Mul(0.5, c[0]))
		for i, wi := range w {
			acc = ppl.Add(acc, ppl.Mul(wi, ppl.Mul(float64(i%3)-1, s[0])))
		}
		return []ppl.Expr{acc}, ppl.Sum(ppl.Square(acc))
	})
	m.LogDensity("x", ppl.Neg(ppl.Sum(x)))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 3 {
		pos := make([]float64, c.Dim())
		for i := range pos {
			pos[i] = rng.Float64()*2 - 1
		}
		// Oracle: the priors (standard normals) and the recurrence.
		want := 0.0
		for _, v := range pos {
			want += -0.5*v*v - 0.5*math.Log(2*math.Pi)
		}
		carry := []float64{0.1, -0.2}
		for _, yt := range y {
			d := 0.0
			for i, v := range pos {
				d += v * (float64(i%3) - 1) * yt
			}
			for j := range carry {
				carry[j] = 0.5*carry[j] + d
				want -= carry[j] * carry[j]
			}
		}
		if got := c.LogDensity(pos); math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
			t.Errorf("log density %.15g, want %.15g", got, want)
		}
		irtest.CheckGradient(t, c.Program(), pos, 1e-6)
	}
}
