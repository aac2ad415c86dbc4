package ppl

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Hand-written log densities on the unconstrained scale. Each writes its
// model's density and Jacobians out in plain Go, independently of the
// compiler, from the formulas in ../shared/posteriordb/*/model.md.

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// logJInterval is log |d/dx (lb + (ub-lb)·logistic(x))|.
func logJInterval(x, lb, ub float64) float64 {
	return math.Log(ub-lb) + math.Log(logistic(x)) + math.Log(logistic(-x))
}

var garchY = []float64{0.3, -0.5, 1.2, 0.1, -0.8, 0.4, 2.0, -1.1}

const garchSigma1 = 0.5

func garchModel() *Model {
	y, T := garchY, len(garchY)
	m := NewModel("garch11")
	mu := m.Flat("mu")
	alpha0 := m.HalfFlat("alpha0")
	alpha1 := m.Flat("alpha1", Bounds(0, 1))
	beta1 := m.Flat("beta1", Bounds(0, Sub(1, alpha1)))
	s := Scan(T-1, []any{garchSigma1}, []any{y[:T-1]}, func(c, x []Expr) ([]Expr, Expr) {
		v := Add(alpha0, Add(Mul(alpha1, Square(Sub(x[0], mu))), Mul(beta1, Square(c[0]))))
		s := Sqrt(v)
		return []Expr{s}, s
	})
	m.Normal("y", mu, Concat(garchSigma1, s)).Observe(y)
	return m
}

func garchLogDensity(x []float64) float64 {
	mu, alpha0 := x[0], math.Exp(x[1])
	alpha1 := logistic(x[2])
	beta1 := (1 - alpha1) * logistic(x[3])
	lp := x[1] + logJInterval(x[2], 0, 1) + logJInterval(x[3], 0, 1-alpha1)
	s := garchSigma1
	for t, y := range garchY {
		if t > 0 {
			d := garchY[t-1] - mu
			s = math.Sqrt(alpha0 + alpha1*d*d + beta1*s*s)
		}
		lp += lnNormal(y, mu, s)
	}
	return lp
}

var hmmY = []float64{2.5, 3.1, 9.2, 10.4, 2.9, 11.0}

func hmmModel() *Model {
	y, T := hmmY, len(hmmY)
	m := NewModel("hmm_example")
	theta1 := m.Dirichlet("theta1", []float64{1, 1})
	theta2 := m.Dirichlet("theta2", []float64{1, 1})
	mu := m.Flat("mu", Size(2), PositiveOrdered())
	m.LogDensity("mu_prior", Add(LogPDF("Normal", At(mu, 0), 3, 1), LogPDF("Normal", At(mu, 1), 10, 1)))
	lt1, lt2 := Log(theta1), Log(theta2)
	col0 := Concat(At(lt1, 0), At(lt2, 0)) // log p(state 0 | previous j)
	col1 := Concat(At(lt1, 1), At(lt2, 1))
	g0 := LogPDF("Normal", y[0], mu, 1)
	g := Scan(T-1, []any{g0}, []any{y[1:]}, func(c, x []Expr) ([]Expr, Expr) {
		next := Add(Concat(LogSumExp(Add(c[0], col0)), LogSumExp(Add(c[0], col1))), LogPDF("Normal", x[0], mu, 1))
		return []Expr{next}, next
	})
	m.LogDensity("forward", LogSumExp(Slice(g, 2*(T-2), 2*(T-1))))
	return m
}

func hmmLogDensity(x []float64) float64 {
	t1 := logistic(x[0]) // stick breaking of two: (σ(x), 1-σ(x))
	t2 := logistic(x[1])
	theta := [2][2]float64{{t1, 1 - t1}, {t2, 1 - t2}}
	mu0 := math.Exp(x[2])
	mu := [2]float64{mu0, mu0 + math.Exp(x[3])}
	lp := logJInterval(x[0], 0, 1) + logJInterval(x[1], 0, 1) + x[2] + x[3]
	lp += lnNormal(mu[0], 3, 1) + lnNormal(mu[1], 10, 1)
	var g [2]float64
	for k := range 2 {
		g[k] = lnNormal(hmmY[0], mu[k], 1)
	}
	for t := 1; t < len(hmmY); t++ {
		var n [2]float64
		for k := range 2 {
			a, b := g[0]+math.Log(theta[0][k]), g[1]+math.Log(theta[1][k])
			mx := math.Max(a, b)
			n[k] = mx + math.Log(math.Exp(a-mx)+math.Exp(b-mx)) + lnNormal(hmmY[t], mu[k], 1)
		}
		g = n
	}
	mx := math.Max(g[0], g[1])
	return lp + mx + math.Log(math.Exp(g[0]-mx)+math.Exp(g[1]-mx))
}

var mixY = []float64{-1.2, 0.3, 2.2, 3.1, -0.4, 2.8}

func mixModel() *Model {
	m := NewModel("mix")
	mu := m.Normal("mu", 0, 2, Size(2), Ordered())
	sigma := m.HalfNormal("sigma", 2, Size(2))
	theta := m.Beta("theta", 5, 5)
	m.Mixture("y", theta, []Component{NormalComp(At(mu, 0), At(sigma, 0)), NormalComp(At(mu, 1), At(sigma, 1))}).Observe(mixY)
	return m
}

func lnHalfNormal(x, s float64) float64 { return math.Log(2) + lnNormal(x, 0, s) }

func mixLogDensity(x []float64) float64 {
	mu := [2]float64{x[0], x[0] + math.Exp(x[1])}
	sg := [2]float64{math.Exp(x[2]), math.Exp(x[3])}
	th := logistic(x[4])
	lp := x[1] + x[2] + x[3] + logJInterval(x[4], 0, 1)
	lp += lnNormal(mu[0], 0, 2) + lnNormal(mu[1], 0, 2) + lnHalfNormal(sg[0], 2) + lnHalfNormal(sg[1], 2)
	lp += distuv.Beta{Alpha: 5, Beta: 5}.LogProb(th)
	for _, y := range mixY {
		lp += math.Log(th*math.Exp(lnNormal(y, mu[0], sg[0])) + (1-th)*math.Exp(lnNormal(y, mu[1], sg[1])))
	}
	return lp
}

func mix3Model() *Model {
	m := NewModel("mix3")
	w := m.Dirichlet("w", []float64{2, 2, 2})
	mu := m.Normal("mu", 0, 3, Size(3))
	m.Mixture("y", w, []Component{NormalComp(At(mu, 0), 1), NormalComp(At(mu, 1), 1), NormalComp(At(mu, 2), 1)}).Observe(mixY)
	return m
}

func mix3LogDensity(x []float64) float64 {
	// Stan's stick breaking for K = 3: z_k = logistic(x_k - log(K-1-k)).
	z0 := logistic(x[0] - math.Log(2))
	z1 := logistic(x[1])
	w := [3]float64{z0, (1 - z0) * z1, (1 - z0) * (1 - z1)}
	// log J = Σ_k log z_k + log(1-z_k) + log(remaining stick before k).
	lp := math.Log(z0) + math.Log(1-z0) + math.Log(1-z0) + math.Log(z1) + math.Log(1-z1)
	// Dirichlet(2,2,2): Γ(6)/Γ(2)³ Π w_k.
	lp += math.Log(120) + math.Log(w[0]) + math.Log(w[1]) + math.Log(w[2])
	mu := x[2:5]
	for _, v := range mu {
		lp += lnNormal(v, 0, 3)
	}
	for _, y := range mixY {
		s := 0.0
		for k := range 3 {
			s += w[k] * math.Exp(lnNormal(y, mu[k], 1))
		}
		lp += math.Log(s)
	}
	return lp
}

var (
	gpX = []float64{-2, -0.5, 0.7, 1.9}
	gpK = []float64{1, 0, 3, 7}
)

func gpModel() *Model {
	m := NewModel("gp_pois_regr")
	rho := m.Gamma("rho", 25, 4)
	alpha := m.HalfNormal("alpha", 2)
	ft := m.Normal("f_tilde", 0, 1, Size(len(gpX)))
	L := Cholesky(AddDiag(CovExpQuad(gpX, alpha, rho), 1e-10))
	f := m.Deterministic("f", MatVec(L, ft))
	m.PoissonLog("k", f).Observe(gpK)
	return m
}

func gpLogDensity(x []float64) float64 {
	rho, alpha := math.Exp(x[0]), math.Exp(x[1])
	ft := x[2:]
	n := len(gpX)
	lp := x[0] + x[1]
	lp += distuv.Gamma{Alpha: 25, Beta: 4}.LogProb(rho) + lnHalfNormal(alpha, 2)
	K := mat.NewSymDense(n, nil)
	for i := range n {
		for j := range n {
			d := gpX[i] - gpX[j]
			v := alpha * alpha * math.Exp(-d*d/(2*rho*rho))
			if i == j {
				v += 1e-10
			}
			K.SetSym(i, j, v)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(K) {
		return math.Inf(-1)
	}
	var L mat.TriDense
	ch.LTo(&L)
	for i := range n {
		lp += lnNormal(ft[i], 0, 1)
		f := 0.0
		for j := 0; j <= i; j++ {
			f += L.At(i, j) * ft[j]
		}
		lg, _ := math.Lgamma(gpK[i] + 1)
		lp += gpK[i]*f - math.Exp(f) - lg
	}
	return lp
}

var (
	mvY = [][]float64{{0.5, -1, 2}, {1.5, 0.2, 0.3}, {-0.7, 0.4, 1.1}, {0, 0, 0.5}}
	mvL = [][]float64{{1.2, 0, 0}, {0.3, 0.8, 0}, {-0.4, 0.5, 1.5}}
	mvW = []float64{0.2, 0.3, 0.5}
	mvC = []int{0, 2, 1, 2}
)

func multivariateModel() *Model {
	m := NewModel("mv")
	mu := m.Normal("mu", 0, 1, Size(3))
	a := m.Normal("a", 0, 1, Size(3))
	m.MultiNormalChol("y", mu, mvL).Observe(mvY)
	m.Dirichlet("w", Exp(a)).Observe(mvW)
	m.CategoricalLogit("c", mu).Observe(mvC)
	return m
}

func multivariateLogDensity(x []float64) float64 {
	mu, a := x[:3], x[3:6]
	lp := 0.0
	for i := range 3 {
		lp += lnNormal(mu[i], 0, 1) + lnNormal(a[i], 0, 1)
	}
	// Multivariate normal through its Cholesky factor: solve L z = y - mu,
	// then -½|z|² - Σ log L_ii - (K/2) log 2π.
	for _, y := range mvY {
		var z [3]float64
		for i := range 3 {
			s := y[i] - mu[i]
			for j := range i {
				s -= mvL[i][j] * z[j]
			}
			z[i] = s / mvL[i][i]
			lp += -0.5*z[i]*z[i] - math.Log(mvL[i][i]) - 0.5*math.Log(2*math.Pi)
		}
	}
	// Dirichlet: log Γ(Σα) - Σ log Γ(α_i) + Σ (α_i - 1) log w_i.
	sa := 0.0
	for i := range 3 {
		al := math.Exp(a[i])
		sa += al
		lg, _ := math.Lgamma(al)
		lp += -lg + (al-1)*math.Log(mvW[i])
	}
	lgs, _ := math.Lgamma(sa)
	lp += lgs
	// Categorical over softmax(mu).
	mx := math.Max(mu[0], math.Max(mu[1], mu[2]))
	lse := mx + math.Log(math.Exp(mu[0]-mx)+math.Exp(mu[1]-mx)+math.Exp(mu[2]-mx))
	for _, c := range mvC {
		lp += mu[c] - lse
	}
	return lp
}

// TestModelsAgainstHandWritten compares the compiled log densities of
// models using scans, expression bounds, mixtures, simplexes and Cholesky
// factors with their hand-written densities, and checks their gradients
// against finite differences.
func TestModelsAgainstHandWritten(t *testing.T) {
	cases := []struct {
		name  string
		ops   []ir.Op
		build func() *Model
		dim   int
		want  func([]float64) float64
	}{
		{"garch11 (scan, bound of another parameter)", []ir.Op{ir.OpScan, ir.OpNormalLPDF, ir.OpIntervalFwd}, garchModel, 4, garchLogDensity},
		{"hmm forward algorithm (scan, simplexes)", []ir.Op{ir.OpScan, ir.OpDirichletLPDF, ir.OpSimplexFwd, ir.OpPosOrderedFwd}, hmmModel, 4, hmmLogDensity},
		{"two-component mixture", []ir.Op{ir.OpLogMix, ir.OpBetaLPDF, ir.OpOrderedFwd}, mixModel, 5, mixLogDensity},
		{"three-component mixture", []ir.Op{ir.OpLogMix, ir.OpDirichletLPDF}, mix3Model, 5, mix3LogDensity},
		{"multivariate normal, Dirichlet and categorical data", []ir.Op{ir.OpMultiNormalCholLPDF, ir.OpDirichletLPDF, ir.OpCategoricalLogitLPMF}, multivariateModel, 6, multivariateLogDensity},
		{"gp_pois_regr (Cholesky)", []ir.Op{ir.OpCholesky, ir.OpCovExpQuad, ir.OpPoissonLogLPMF, ir.OpGammaLPDF}, gpModel, 6, gpLogDensity},
	}
	rng := rand.New(rand.NewPCG(5, 6))
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
					x[i] = rng.Float64()*2 - 1
				}
				got, want := d.LogDensityGrad(x, g), tc.want(x)
				if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
					t.Errorf("log density at %v = %.15g, want %.15g", x, got, want)
				}
				irtest.CheckGradient(t, c.Program(), x, 1e-6)
			}
			if a := testing.AllocsPerRun(20, func() { d.LogDensityGrad(g, g) }); a != 0 {
				t.Errorf("LogDensityGrad allocates %v times per call, want 0", a)
			}
		})
	}
}

// TestNestedScan runs a scan inside a scan's step: the outer steps over
// the rows of a matrix, the inner accumulates a·x over a row, carrying the
// running total across rows.
func TestNestedScan(t *testing.T) {
	data := [][]float64{{1, 2, 3}, {4, 5, 6}}
	m := NewModel("nested")
	a := m.Flat("a")
	totals := Scan(2, []any{0.0}, []any{data}, func(c, row []Expr) ([]Expr, Expr) {
		inner := Scan(3, []any{c[0]}, []any{row[0]}, func(ci, x []Expr) ([]Expr, Expr) {
			n := Add(ci[0], Mul(a, x[0]))
			return []Expr{n}, n
		})
		last := At(inner, 2)
		return []Expr{last}, last
	})
	m.LogDensity("t", Sum(totals))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	// Oracle: the totals are 6a and 21a, summing to 27a.
	if got := c.LogDensity([]float64{0.5}); math.Abs(got-13.5) > 1e-12 {
		t.Errorf("log density %v, want 13.5", got)
	}
	irtest.CheckGradient(t, c.Program(), []float64{0.5}, 1e-6)
}

var lkjY = [][]float64{{0.3, -1.2, 0.8}, {1.1, 0.4, -0.6}, {-0.2, 0.9, 0.1}, {0.5, -0.3, -1.4}}

func lkjModel() *Model {
	m := NewModel("lkj")
	L := m.LKJCorrChol("L", 3, 2)
	tau := m.HalfNormal("tau", 1, Size(3))
	m.MultiNormalChol("y", []float64{0, 0, 0}, DiagPreMultiply(tau, L)).Observe(lkjY)
	return m
}

// lkjLogDensity is lkjModel's log density up to a constant: the LKJ
// Cholesky density Π_i L_ii^(K-i-3+2η) (0-based i; Stan's reference),
// the Jacobian of the correlation factor's map by finite differences
// (an oracle independent of the bijector's closed form), and the rest
// written out.
func lkjLogDensity(x []float64) float64 {
	const K, eta = 3, 2.0
	L := make([]float64, 9)
	ir.CholCorrForward(x[:3], L)
	free := func(y, out []float64) {
		l := make([]float64, 9)
		ir.CholCorrForward(y, l)
		out[0], out[1], out[2] = l[3], l[6], l[7]
	}
	J := irtest.FDJacobian(free, x[:3], 3)
	lp := math.Log(math.Abs(mat.Det(mat.NewDense(3, 3, []float64{J[0][0], J[0][1], J[0][2], J[1][0], J[1][1], J[1][2], J[2][0], J[2][1], J[2][2]}))))
	for i := range K {
		lp += (float64(K-i-3) + 2*eta) * math.Log(L[4*i])
	}
	tau := x[3:6]
	for _, u := range tau {
		lp += u + lnHalfNormal(math.Exp(u), 1)
	}
	for _, y := range lkjY {
		var z [3]float64
		for i := range K {
			s := y[i]
			for j := range i {
				s -= math.Exp(tau[i]) * L[3*i+j] * z[j]
			}
			d := math.Exp(tau[i]) * L[4*i]
			z[i] = s / d
			lp += -0.5*z[i]*z[i] - math.Log(d) - 0.5*math.Log(2*math.Pi)
		}
	}
	return lp
}

// TestLKJModel compares differences of the compiled log density between
// points (the LKJ normalising constant cancels) with lkjLogDensity.
func TestLKJModel(t *testing.T) {
	c, err := lkjModel().Compile()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(15, 16))
	point := func() []float64 {
		x := make([]float64, c.Dim())
		for i := range x {
			x[i] = rng.Float64() - 0.5
		}
		return x
	}
	x0 := point()
	for range 4 {
		x := point()
		got := c.LogDensity(x) - c.LogDensity(x0)
		want := lkjLogDensity(x) - lkjLogDensity(x0)
		if math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
			t.Errorf("log density difference %.10g, want %.10g", got, want)
		}
		irtest.CheckGradient(t, c.Program(), x, 1e-6)
	}
}

// TestScanWithoutSequences runs a pure recurrence: x_t = 2·x_{t-1}.
func TestScanWithoutSequences(t *testing.T) {
	m := NewModel("doubling")
	a := m.Flat("a")
	xs := Scan(3, []any{a}, nil, func(c, _ []Expr) ([]Expr, Expr) {
		n := Mul(2, c[0])
		return []Expr{n}, n
	})
	m.LogDensity("t", Sum(xs))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	// Oracle: 2a + 4a + 8a.
	if got := c.LogDensity([]float64{0.5}); got != 7 {
		t.Errorf("log density %v, want 7", got)
	}
	irtest.CheckGradient(t, c.Program(), []float64{0.5}, 1e-6)
}
