package ppl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/ppl/diag"
)

func meanVar(xs []float64) (m, v float64) {
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, v / float64(len(xs)-1)
}

func column(draws [][]float64, j int) []float64 {
	c := make([]float64, len(draws))
	for i, d := range draws {
		c[i] = d[j]
	}
	return c
}

// checkMoments compares a sample's mean and variance with their exact
// values, within 5 standard errors (the variance's standard error taken
// as for a normal sample: var·√(2/(n-1)), widened by 2 for heavier tails).
func checkMoments(t *testing.T, name string, xs []float64, mean, variance float64) {
	t.Helper()
	n := float64(len(xs))
	m, v := meanVar(xs)
	if se := math.Sqrt(variance / n); math.Abs(m-mean) > 5*se {
		t.Errorf("%s: mean %.4f, want %.4f ± %.4f", name, m, mean, 5*se)
	}
	if se := 2 * variance * math.Sqrt(2/(n-1)); math.Abs(v-variance) > 5*se {
		t.Errorf("%s: variance %.4f, want %.4f ± %.4f", name, v, variance, 5*se)
	}
}

// TestPriorPredictiveMoments draws from priors whose moments are known in
// closed form.
func TestPriorPredictiveMoments(t *testing.T) {
	m := NewModel("prior")
	mu := m.Normal("mu", 1, 2)
	y := m.Normal("y", mu, 0.5, Size(2))
	m.Deterministic("y_sum", Sum(y))
	m.Normal("half", 0, 1, Lower(0))
	m.Normal("ord", 0, 1, Size(2), Ordered())
	m.Mixture("mix", 0.3, []Component{NormalComp(-2, 1), NormalComp(2, 1)})
	m.Normal("obs", mu, 1).Observe([]float64{5, 6, 7})
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	n := 20000
	if testing.Short() {
		n = 4000
	}
	d, err := c.PriorPredictive(rand.New(rand.NewPCG(7, 8)), n)
	if err != nil {
		t.Fatal(err)
	}
	// Oracles: y = mu + 0.5 ε, so Var y = 4 + 0.25 and Var(y0+y1) = 4·4 + 2·0.25;
	// a standard normal above 0 has mean √(2/π) and variance 1 - 2/π; the
	// larger of two standard normals has mean 1/√π and variance 1 - 1/π;
	// the mixture has mean 0.3·(-2) + 0.7·2 and variance 1 + 4 - 0.8².
	checkMoments(t, "mu", column(d["mu"], 0), 1, 4)
	checkMoments(t, "y[1]", column(d["y"], 1), 1, 4.25)
	checkMoments(t, "y_sum", column(d["y_sum"], 0), 2, 16.5)
	checkMoments(t, "half", column(d["half"], 0), math.Sqrt(2/math.Pi), 1-2/math.Pi)
	checkMoments(t, "ord[1]", column(d["ord"], 1), 1/math.Sqrt(math.Pi), 1-1/math.Pi)
	checkMoments(t, "mix", column(d["mix"], 0), 0.8, 5-0.64)
	checkMoments(t, "obs[2]", column(d["obs"], 2), 1, 5)
	for i, v := range d["half"] {
		if v[0] <= 0 {
			t.Fatalf("draw %d of half = %v, below its bound", i, v[0])
		}
	}
	for i, v := range d["ord"] {
		if v[0] > v[1] {
			t.Fatalf("draw %d of ord = %v, not increasing", i, v)
		}
	}
}

// TestPosteriorPredictive draws replicated data given one draw.
func TestPosteriorPredictive(t *testing.T) {
	m := NewModel("t")
	mu := m.Normal("mu", 0, 10)
	sigma := m.HalfNormal("sigma", 1)
	m.Normal("y", mu, sigma).Observe([]float64{1, 2, 3, 4})
	m.Poisson("k", Exp(mu)).Observe([]int{3, 0})
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	draw := []float64{1.5, 0.5} // mu, sigma
	var ys, ks []float64
	for range 5000 {
		r, err := c.PosteriorPredictive(rng, draw)
		if err != nil {
			t.Fatal(err)
		}
		if len(r["y"]) != 4 || len(r["k"]) != 2 {
			t.Fatalf("replicated shapes %d, %d; want 4, 2", len(r["y"]), len(r["k"]))
		}
		ys = append(ys, r["y"]...)
		ks = append(ks, r["k"]...)
	}
	checkMoments(t, "y_rep", ys, 1.5, 0.25)
	checkMoments(t, "k_rep", ks, math.Exp(1.5), math.Exp(1.5)) // Poisson: mean = variance = rate
}

// TestPriorPredictiveImproper checks that an improper prior is named.
func TestPriorPredictiveImproper(t *testing.T) {
	m := NewModel("t")
	m.Flat("f")
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.PriorPredictive(rand.New(rand.NewPCG(1, 1)), 1)
	if e, ok := err.(*Error); !ok || e.Var != "f" || !strings.Contains(e.Msg, "improper") {
		t.Errorf("got %v, want an *Error naming f as improper", err)
	}
	// Bounded, a flat prior is uniform.
	m = NewModel("t")
	m.Flat("u", Bounds(2, 4))
	c, _ = m.Compile()
	d, err := c.PriorPredictive(rand.New(rand.NewPCG(1, 1)), 10000)
	if err != nil {
		t.Fatal(err)
	}
	checkMoments(t, "u", column(d["u"], 0), 3, 4.0/12)
}

// TestPriorPredictiveMultivariate draws multivariate variables and checks
// their supports and the moments of a Dirichlet (mean α/Σα).
func TestPriorPredictiveMultivariate(t *testing.T) {
	m := NewModel("mv")
	w := m.Dirichlet("w", []float64{1, 2, 3}, Size(2))
	L := m.LKJCorrChol("L", 3, 2)
	m.MultiNormalChol("y", []float64{0, 0, 0}, L, Size(4))
	m.CategoricalLogit("c", Log(Row(w, 0)), Observed([]int{0, 1, 2, 0, 1}))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	n := 4000
	d, err := c.PriorPredictive(rand.New(rand.NewPCG(17, 18)), n)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		ws := d["w"][i]
		for r := range 2 {
			if s := ws[3*r] + ws[3*r+1] + ws[3*r+2]; math.Abs(s-1) > 1e-12 {
				t.Fatalf("draw %d: row %d of w sums to %v", i, r, s)
			}
		}
		l := d["L"][i]
		for r := range 3 {
			if s := l[3*r]*l[3*r] + l[3*r+1]*l[3*r+1] + l[3*r+2]*l[3*r+2]; math.Abs(s-1) > 1e-12 {
				t.Fatalf("draw %d: row %d of L has squared norm %v", i, r, s)
			}
		}
		if len(d["y"][i]) != 12 || len(d["c"][i]) != 5 {
			t.Fatalf("draw %d: y has %d values, c %d; want 12 and 5", i, len(d["y"][i]), len(d["c"][i]))
		}
		for _, v := range d["c"][i] {
			if v != 0 && v != 1 && v != 2 {
				t.Fatalf("draw %d: category %v", i, v)
			}
		}
	}
	// Oracle: Dirichlet(1, 2, 3) has mean (1, 2, 3)/6 and variance
	// α_k(α0-α_k)/(α0²(α0+1)).
	checkMoments(t, "w[0,2]", column(d["w"], 2), 0.5, 3.0*3/(36*7))
	// A y element is a standard normal (unit diagonal covariance).
	checkMoments(t, "y[3,1]", column(d["y"], 10), 0, 1)
}

// TestPredictiveAccuracyInTwoLines: a logistic regression's in-sample
// accuracy from the posterior predictive's array, against the same
// computed column by column.
func TestPredictiveAccuracyInTwoLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	n := 200
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
		if rng.Float64() < 1/(1+math.Exp(-4*x[i])) {
			y[i] = 1
		}
	}
	m := NewModel("logit")
	b := m.Normal("b", 0, 5)
	m.BernoulliLogit("y", b.Mul(x), Observed(y))
	fit := m.Sample(Seed(1), Chains(2), Warmup(300), Draws(300), LiveProgress(false))

	pred := m.PosteriorPredictive(fit).Array("y")
	acc := pred.Accuracy(y)

	pp, hits := m.PosteriorPredictive(fit), 0
	for i := range y {
		mean := 0.0
		d := pp.Flat(fmt.Sprintf("y[%d]", i))
		for _, v := range d {
			mean += v / float64(len(d))
		}
		if math.Round(mean) == y[i] {
			hits++
		}
	}
	if want := float64(hits) / float64(n); acc != want || acc < 0.6 {
		t.Errorf("accuracy %v, want %v (and above 0.6)", acc, want)
	}
}

// TestCompareModels: az.compare's table for a regression with its
// predictor and one without, by PSIS-LOO: the one with the predictor
// ranks first, by more than twice the SE of the difference, and takes
// most of the stacking weight.
func TestCompareModels(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 60
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64()
		y[i] = 1 + 2*x[i] + 0.5*rng.NormFloat64()
	}
	loo := func(withX bool) *diag.ModelCheck {
		m := NewModel("reg")
		a := m.Normal("a", 0, 5)
		s := m.HalfNormal("sigma", 2)
		mu := Expr(a)
		if withX {
			mu = a.Add(m.Normal("b", 0, 5).Mul(x))
		}
		m.Normal("y", mu, s, Observed(y))
		fit := m.Sample(Seed(2), Chains(2), Warmup(300), Draws(500), LiveProgress(false))
		return m.LogLik(fit).LOO()
	}
	cmp, err := diag.Compare([]string{"intercept", "slope"}, []*diag.ModelCheck{loo(false), loo(true)})
	if err != nil {
		t.Fatal(err)
	}
	best, other := cmp.Rows[0], cmp.Rows[1]
	if best.Name != "slope" || other.Diff < 2*other.DSE || best.Weight < 0.9 {
		t.Errorf("comparison:\n%s", cmp)
	}
}

// TestMAPReport: a successful MAP says it converged (gonum reports a
// stalled line search at the optimum as "Failure", which the notebook
// once printed) and shows a vector as one row per element.
func TestMAPReport(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	n := 100
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = []float64{rng.NormFloat64(), rng.NormFloat64()}
		y[i] = 2*x[i][0] - x[i][1] + 0.3*rng.NormFloat64()
	}
	m := NewModel("reg")
	beta := m.Normal("beta", 0, 5, Size(2))
	m.Normal("y", MatVec(x, beta), m.HalfNormal("sigma", 1), Observed(y))
	r := m.MAP(Seed(1))
	text := r.String()
	if !r.Converged || !strings.Contains(r.Status, "converged") || strings.Contains(text, "Failure") {
		t.Errorf("MAP reports %q (converged %v, gradient %g):\n%s", r.Status, r.Converged, r.Gradient, text)
	}
	for _, want := range []string{"beta[0] = 2", "beta[1] = -1", "sigma = 0.3"} {
		if !strings.Contains(text, want) {
			t.Errorf("MAP text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "= [") || !strings.Contains(r.HTML(), "<th style=\"text-align:left\">beta[1]</th>") {
		t.Errorf("a vector is not shown one element per row:\n%s\n%s", text, r.HTML())
	}
}
