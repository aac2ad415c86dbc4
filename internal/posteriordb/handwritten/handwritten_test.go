package handwritten

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/internal/posteriordb"
)

func allCases() []string {
	return append(posteriordb.Cases(), posteriordb.LogisticName)
}

func load(t *testing.T, name string) *Model {
	t.Helper()
	var c *posteriordb.Case
	if name == posteriordb.LogisticName {
		c = posteriordb.SimulatedLogistic(500, 5, 1)
	} else {
		c = posteriordb.Require(t, name)
	}
	m, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func randomPoint(rng *rand.Rand, dim int) []float64 {
	x := make([]float64, dim)
	for i := range x {
		x[i] = 4*rng.Float64() - 2
	}
	return x
}

// TestLayout checks that every model's blocks tile [0, Dim).
func TestLayout(t *testing.T) {
	for _, name := range allCases() {
		m := load(t, name)
		off := 0
		for _, b := range m.Blocks {
			if b.Off != off || b.Len < 1 {
				t.Errorf("%s: block %+v at offset %d", name, b, off)
			}
			off += b.Len
		}
		if off != m.Dim {
			t.Errorf("%s: blocks cover %d slots, Dim %d", name, off, m.Dim)
		}
	}
}

// TestGradients checks every analytic gradient against finite differences
// of the log density, at random points of [-2, 2]^D.
func TestGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range allCases() {
		m := load(t, name)
		for i := 0; i < 5; i++ {
			x := randomPoint(rng, m.Dim)
			if name == "arma-arma11" {
				// Near |theta| = 1 the errors grow like theta^T: the
				// density is a polynomial of degree 2T in theta, and
				// finite differences lose their accuracy. ppl's test
				// compares analytic gradients there.
				for j := range x {
					x[j] /= 4
				}
			}
			lp := m.LogDensity(x)
			if math.IsNaN(lp) || math.IsInf(lp, 0) {
				t.Errorf("%s: log density %v at %v", name, lp, x)
				continue
			}
			if m.LogDensityGrad == nil {
				continue
			}
			g := make([]float64, m.Dim)
			lp2 := m.LogDensityGrad(x, g)
			if lp2 != lp {
				t.Errorf("%s: LogDensityGrad gives %v, LogDensity %v", name, lp2, lp)
			}
			fd := make([]float64, m.Dim)
			NumericGradient(m.LogDensity, x, fd)
			if e, at := GradientMismatch(g, fd); !(e < 1e-6) {
				t.Errorf("%s at %v: gradient[%d] = %v, finite differences %v (relative error %.2g)", name, x, at, g[at], fd[at], e)
			}
		}
	}
}

// The tests below check the densities with a gradient, written for
// speed, against plain compositions of gonum's distributions.

func TestEightSchoolsNoncenteredDensity(t *testing.T) {
	// y and sigma from eight_schools' data.json.
	y := []float64{28, 8, -3, 7, -1, 1, 18, 12}
	sigma := []float64{15, 10, 16, 11, 9, 11, 10, 18}
	m := NewEightSchoolsNoncentered(y, sigma)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 5; i++ {
		x := randomPoint(rng, 10)
		mu, tau := x[0], math.Exp(x[1])
		want := distuv.Normal{Mu: 0, Sigma: 5}.LogProb(mu) +
			math.Log(2) + cauchyLogProb(tau, 5) + x[1]
		for j := range y {
			want += distuv.UnitNormal.LogProb(x[2+j]) + distuv.Normal{Mu: mu + tau*x[2+j], Sigma: sigma[j]}.LogProb(y[j])
		}
		got := m.LogDensityGrad(x, make([]float64, 10))
		if math.Abs(got-want) > 1e-10*math.Abs(want) {
			t.Errorf("at %v: %v, want %v", x, got, want)
		}
	}
}

// cauchyLogProb is the log density of Cauchy(0, s) (gonum has no Cauchy).
func cauchyLogProb(y, s float64) float64 {
	return -math.Log(math.Pi*s) - math.Log1p((y/s)*(y/s))
}

func TestLinearRegressionDensity(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	X := [][]float64{{1, 0.5, -1}, {1, 2, 0.3}, {1, -1, 4}, {1, 0, 0}}
	y := []float64{1, -2, 3.5, 0.25}
	priors := []NormalPrior{{0, 10}, {1, 2}, {-1, 0.5}}
	for _, sp := range []ScalePrior{{FlatScale, 0}, {HalfCauchyScale, 2.5}, {HalfNormalScale, 10}} {
		m, err := NewLinearRegression(X, y, priors, sp)
		if err != nil {
			t.Fatal(err)
		}
		x := randomPoint(rng, 4)
		sigma := math.Exp(x[3])
		want := x[3] // log-Jacobian
		switch sp.Kind {
		case HalfCauchyScale:
			want += math.Log(2) + cauchyLogProb(sigma, sp.Scale)
		case HalfNormalScale:
			want += math.Log(2) + distuv.Normal{Mu: 0, Sigma: sp.Scale}.LogProb(sigma)
		}
		for d, p := range priors {
			want += distuv.Normal{Mu: p.Mu, Sigma: p.Sigma}.LogProb(x[d])
		}
		for n := range y {
			eta := X[n][0]*x[0] + X[n][1]*x[1] + X[n][2]*x[2]
			want += distuv.Normal{Mu: eta, Sigma: sigma}.LogProb(y[n])
		}
		got := m.LogDensityGrad(x, make([]float64, 4))
		if math.Abs(got-want) > 1e-10*math.Abs(want) {
			t.Errorf("%v prior: %v, want %v", sp, got, want)
		}
	}
}

func TestLogisticDensity(t *testing.T) {
	c := posteriordb.SimulatedLogistic(50, 3, 9)
	X, _ := c.Matrix("X")
	y, _ := c.Floats("y")
	m, err := NewLogisticRegression(X, y)
	if err != nil {
		t.Fatal(err)
	}
	// Moderate coefficients: at |eta| > 15 Bernoulli{P}.LogProb loses the
	// precision of 1-P, and the oracle would be the inaccurate one.
	beta := []float64{1.5, -2, 0.5}
	want := 0.0
	for _, b := range beta {
		want += distuv.UnitNormal.LogProb(b)
	}
	for n := range y {
		eta := X[n][0]*beta[0] + X[n][1]*beta[1] + X[n][2]*beta[2]
		want += distuv.Bernoulli{P: 1 / (1 + math.Exp(-eta))}.LogProb(y[n])
	}
	got := m.LogDensityGrad(beta, make([]float64, 3))
	if math.Abs(got-want) > 1e-10*math.Abs(want) {
		t.Errorf("%v, want %v", got, want)
	}
}

// TestHMMDensity checks the forward algorithm against the sum over every
// path of hidden states of a short series.
func TestHMMDensity(t *testing.T) {
	y := []float64{3.8, 8.2, 9.4, 2.1, 7.9, 3.3, 10.8, 9.9}
	m := NewHMM(y)
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 3; i++ {
		x := randomPoint(rng, 4)
		var theta [2][2]float64
		lj := 0.0
		for j := 0; j < 2; j++ {
			z := 1 / (1 + math.Exp(-x[j]))
			theta[j] = [2]float64{z, 1 - z}
			lj += math.Log(z * (1 - z))
		}
		mu := [2]float64{math.Exp(x[2]), math.Exp(x[2]) + math.Exp(x[3])}
		lj += x[2] + x[3]
		// The model has no initial distribution: a path's weight is the
		// product of its transitions and emissions.
		total := 0.0
		for path := 0; path < 1<<len(y); path++ {
			p := 1.0
			prev := -1
			for t := range y {
				k := path >> t & 1
				if prev >= 0 {
					p *= theta[prev][k]
				}
				p *= distuv.Normal{Mu: mu[k], Sigma: 1}.Prob(y[t])
				prev = k
			}
			total += p
		}
		want := math.Log(total) + lj + distuv.Normal{Mu: 3, Sigma: 1}.LogProb(mu[0]) + distuv.Normal{Mu: 10, Sigma: 1}.LogProb(mu[1])
		got := m.LogDensityGrad(x, make([]float64, 4))
		if math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("at %v: %v, want %v", x, got, want)
		}
	}
}

// TestGPPoisRegrDensity checks against gonum's Cholesky and Poisson.
func TestGPPoisRegrDensity(t *testing.T) {
	// x and k from gp_pois_regr's data.json.
	xs := []float64{-10, -8, -6, -4, -2, 0, 2, 4, 6, 8, 10}
	k := []float64{40, 37, 29, 12, 4, 3, 9, 19, 77, 82, 33}
	m := NewGPPoisRegr(xs, k)
	rng := rand.New(rand.NewPCG(9, 10))
	n := len(xs)
	for i := 0; i < 3; i++ {
		p := randomPoint(rng, 2+n)
		rho, alpha := math.Exp(p[0]), math.Exp(p[1])
		K := mat.NewSymDense(n, nil)
		for a := 0; a < n; a++ {
			for b := 0; b <= a; b++ {
				v := alpha * alpha * math.Exp(-(xs[a]-xs[b])*(xs[a]-xs[b])/(2*rho*rho))
				if a == b {
					v += 1e-10
				}
				K.SetSym(a, b, v)
			}
		}
		var ch mat.Cholesky
		if !ch.Factorize(K) {
			t.Fatal("K not positive definite")
		}
		var L mat.TriDense
		ch.LTo(&L)
		f := mat.NewVecDense(n, nil)
		f.MulVec(&L, mat.NewVecDense(n, append([]float64(nil), p[2:]...)))
		want := distuv.Gamma{Alpha: 25, Beta: 4}.LogProb(rho) + math.Log(2) + distuv.Normal{Mu: 0, Sigma: 2}.LogProb(alpha) + p[0] + p[1]
		for j := 0; j < n; j++ {
			want += distuv.UnitNormal.LogProb(p[2+j]) + distuv.Poisson{Lambda: math.Exp(f.AtVec(j))}.LogProb(k[j])
		}
		got := m.LogDensityGrad(p, make([]float64, 2+n))
		if math.Abs(got-want) > 1e-8*math.Abs(want) {
			t.Errorf("at %v: %v, want %v", p, got, want)
		}
	}
}
