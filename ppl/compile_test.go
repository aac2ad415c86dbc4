package ppl

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"gonum.org/v1/gonum/stat/distuv"
)

// needOps skips the test while an op it needs is not implemented yet (the
// ops arrive from other areas).
func needOps(t *testing.T, ops ...ir.Op) {
	t.Helper()
	for _, op := range ops {
		if ir.Def(op).Forward == nil {
			t.Skipf("op %s is not implemented yet", op)
		}
	}
}

func lnNormal(x, mu, sigma float64) float64 {
	return distuv.Normal{Mu: mu, Sigma: sigma}.LogProb(x)
}

// Oracle (hand-derived): log p(x) for Cauchy(0, s) restricted to x > 0 is
// log 2 - log(π s (1 + (x/s)²)).
func lnHalfCauchy(x, s float64) float64 {
	return math.Log(2) - math.Log(math.Pi*s*(1+(x/s)*(x/s)))
}

var (
	schoolsY     = []float64{28, 8, -3, 7, -1, 1, 18, 12}
	schoolsSigma = []float64{15, 10, 16, 11, 9, 11, 10, 18}
)

func eightSchools() *Model {
	m := NewModel("eight_schools")
	mu := m.Normal("mu", 0, 5)
	tau := m.HalfCauchy("tau", 5)
	z := m.Normal("theta_tilde", 0, 1, Size(8))
	theta := m.Deterministic("theta", Add(mu, Mul(tau, z)))
	m.Normal("y", theta, schoolsSigma).Observe(schoolsY)
	return m
}

// eightSchoolsLogDensity is the non-centred eight schools log density
// on the unconstrained scale, written out by hand: tau = exp(x[1]) with
// log-Jacobian x[1].
func eightSchoolsLogDensity(x []float64) float64 {
	mu, tau := x[0], math.Exp(x[1])
	lp := lnNormal(mu, 0, 5) + lnHalfCauchy(tau, 5) + x[1]
	for i := range 8 {
		z := x[2+i]
		lp += lnNormal(z, 0, 1)
		lp += lnNormal(schoolsY[i], mu+tau*z, schoolsSigma[i])
	}
	return lp
}

// TestLogDensityAgainstHandWritten compares compiled log densities of small
// models with the same densities written out with gonum's distuv and
// closed forms, and their gradients with finite differences.
func TestLogDensityAgainstHandWritten(t *testing.T) {
	cases := []struct {
		name  string
		ops   []ir.Op
		build func() *Model
		dim   int
		want  func(x []float64) float64
	}{
		{
			name: "normal mean, observed normal",
			ops:  []ir.Op{ir.OpNormalLPDF},
			build: func() *Model {
				m := NewModel("normal")
				mu := m.Normal("mu", 1, 5)
				m.Normal("y", mu, 2).Observe([]float64{1, 2.5, -3})
				return m
			},
			dim: 1,
			want: func(x []float64) float64 {
				return lnNormal(x[0], 1, 5) + lnNormal(1, x[0], 2) + lnNormal(2.5, x[0], 2) + lnNormal(-3, x[0], 2)
			},
		},
		{
			name: "regression with an explicit term",
			ops:  []ir.Op{ir.OpNormalLPDF, ir.OpMatVec, ir.OpMul},
			build: func() *Model {
				m := NewModel("regression")
				b := m.Normal("b", 0, 1, Size(2))
				X := [][]float64{{1, 0.5}, {1, -1}, {1, 2}}
				m.Normal("y", MatVec(X, b), 0.5).Observe([]float64{0.3, -1, 2})
				m.LogDensity("extra", Mul(-0.5, Dot(b, b)))
				return m
			},
			dim: 2,
			want: func(x []float64) float64 {
				X := [][]float64{{1, 0.5}, {1, -1}, {1, 2}}
				y := []float64{0.3, -1, 2}
				lp := lnNormal(x[0], 0, 1) + lnNormal(x[1], 0, 1) - 0.5*(x[0]*x[0]+x[1]*x[1])
				for i := range y {
					lp += lnNormal(y[i], X[i][0]*x[0]+X[i][1]*x[1], 0.5)
				}
				return lp
			},
		},
		{
			name:  "eight schools, non-centred",
			ops:   []ir.Op{ir.OpNormalLPDF, ir.OpHalfCauchyLPDF, ir.OpLowerFwd, ir.OpLowerLogJ},
			build: eightSchools,
			dim:   10,
			want:  eightSchoolsLogDensity,
		},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			needOps(t, tc.ops...)
			c, err := tc.build().Compile()
			if err != nil {
				t.Fatal(err)
			}
			if c.Dim() != tc.dim {
				t.Fatalf("Dim = %d, want %d", c.Dim(), tc.dim)
			}
			d := c.NewDensity()
			g := make([]float64, c.Dim())
			for range 5 {
				x := make([]float64, c.Dim())
				for i := range x {
					x[i] = rng.Float64()*4 - 2
				}
				got, want := d.LogDensityGrad(x, g), tc.want(x)
				if math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
					t.Errorf("log density at %v = %.15g, want %.15g", x, got, want)
				}
				irtest.CheckGradient(t, c.Program(), x, 1e-6)
			}
			x := make([]float64, c.Dim())
			if a := testing.AllocsPerRun(50, func() { d.LogDensityGrad(x, g) }); a != 0 {
				t.Errorf("LogDensityGrad allocates %v times per call, want 0", a)
			}
		})
	}
}
