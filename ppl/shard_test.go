package ppl_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// Sharding must not change the log density: the oracle of every test here
// is the same model compiled whole (Shards(1)), whose density the rest of
// the package's tests check against closed forms and hand-written Go.
// The sums differ only in their order, so they agree to rounding: 1e-12
// relative to the log density, and for the gradient to its largest
// component.

const shardTol = 1e-12

// simulated data for the regressions below, from a fixed seed.
type regressionData struct {
	X     [][]float64
	group []int
	eta   []float64 // X·beta_true + alpha_true[group]
}

func simulateRegression(n, d, groups int, seed uint64) regressionData {
	rng := rand.New(rand.NewPCG(seed, 7))
	r := regressionData{X: make([][]float64, n), group: make([]int, n), eta: make([]float64, n)}
	alpha := make([]float64, groups)
	for j := range alpha {
		alpha[j] = rng.NormFloat64()
	}
	for i := range n {
		r.X[i] = make([]float64, d)
		r.group[i] = rng.IntN(groups)
		r.eta[i] = alpha[r.group[i]]
		for j := range d {
			r.X[i][j] = rng.NormFloat64()
			r.eta[i] += r.X[i][j] * 0.5 / math.Sqrt(float64(d))
		}
	}
	return r
}

// shardModels builds models whose observed variables can be sharded, each
// with the shard option given.
var shardModels = []struct {
	name  string
	build func(opt ppl.ModelOption) *ppl.Model
}{
	{"logistic regression", func(opt ppl.ModelOption) *ppl.Model {
		c := posteriordb.SimulatedLogistic(1000, 7, 3)
		m := ppl.NewModel("logistic", opt)
		beta := m.Normal("beta", 0, 1, ppl.Size(7))
		alpha := m.Normal("alpha", 0, 2)
		m.BernoulliLogit("y", ppl.Add(alpha, ppl.MatVec(c.Data["X"], beta))).Observe(c.Data["y"])
		return m
	}},
	{"linear regression with a gathered hierarchical mean", func(opt ppl.ModelOption) *ppl.Model {
		r := simulateRegression(1001, 4, 12, 5)
		y := make([]float64, len(r.eta))
		rng := rand.New(rand.NewPCG(9, 9))
		for i, e := range r.eta {
			y[i] = e + 0.7*rng.NormFloat64()
		}
		m := ppl.NewModel("hier_linear", opt)
		mu := m.Normal("mu", 0, 5)
		tau := m.HalfNormal("tau", 2)
		z := m.Normal("z", 0, 1, ppl.Size(12))
		alpha := m.Deterministic("alpha", ppl.Add(mu, ppl.Mul(tau, z)))
		beta := m.Normal("beta", 0, 1, ppl.Size(4))
		sigma := m.HalfNormal("sigma", 1)
		m.Normal("y", ppl.Add(ppl.Index(alpha, r.group), ppl.MatVec(r.X, beta)), sigma).Observe(y)
		return m
	}},
	{"Poisson regression", func(opt ppl.ModelOption) *ppl.Model {
		r := simulateRegression(998, 3, 1, 11)
		rng := rand.New(rand.NewPCG(4, 4))
		y := make([]int, len(r.eta))
		exposure := make([]float64, len(r.eta))
		for i, e := range r.eta {
			exposure[i] = 1 + rng.Float64()
			lam := exposure[i] * math.Exp(e)
			// Poisson variate by inversion: only data, any counts do.
			k, p, u := 0, math.Exp(-lam), rng.Float64()
			for s := p; u > s && k < 100; s += p {
				k++
				p *= lam / float64(k)
			}
			y[i] = k
		}
		m := ppl.NewModel("poisson", opt)
		a := m.Normal("a", 0, 2)
		b := m.Normal("b", 0, 1, ppl.Size(3))
		eta := ppl.Add(ppl.Add(a, ppl.MatVec(r.X, b)), ppl.Log(exposure))
		m.PoissonLog("y", eta).Observe(y)
		// The same counts again through the rate, an elementwise chain.
		m.Poisson("y_rate", ppl.Exp(eta)).Observe(y)
		return m
	}},
	{"categorical regression (logits X·B, one row per outcome)", func(opt ppl.ModelOption) *ppl.Model {
		r := simulateRegression(600, 3, 1, 17)
		y := make([]int, len(r.eta))
		for i := range y {
			y[i] = i % 4
		}
		m := ppl.NewModel("categorical", opt)
		b := m.Normal("b", 0, 1, ppl.Shape(3, 4))
		m.CategoricalLogit("y", ppl.MatMul(r.X, b)).Observe(y)
		m.CategoricalLogit("y_shared", m.Normal("logits", 0, 1, ppl.Size(4))).Observe(y)
		return m
	}},
	{"multivariate rows: normal [N×K] and Dirichlet [N×K]", func(opt ppl.ModelOption) *ppl.Model {
		const n, k = 301, 3
		rng := rand.New(rand.NewPCG(21, 3))
		y := make([][]float64, n)
		p := make([][]float64, n)
		for i := range y {
			y[i] = []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
			a, b := rng.Float64()+0.1, rng.Float64()+0.1
			p[i] = []float64{a / (a + b + 1), b / (a + b + 1), 1 / (a + b + 1)}
		}
		m := ppl.NewModel("multivariate", opt)
		corr := m.LKJCorrChol("corr", k, 2)
		mu0 := m.Normal("mu0", 0, 1, ppl.Size(k))
		m.MultiNormalChol("y", mu0, corr).Observe(y)
		alpha := m.Gamma("alpha", 2, 1, ppl.Size(k))
		m.Dirichlet("p", alpha).Observe(p)
		return m
	}},
	{"per-row parameters with bijectors (random effects, scales, probabilities)", func(opt ppl.ModelOption) *ppl.Model {
		const n = 401
		rng := rand.New(rand.NewPCG(31, 5))
		y := make([]float64, n)
		hits := make([]int, n)
		for i := range y {
			y[i] = rng.NormFloat64()
			hits[i] = i % 2
		}
		m := ppl.NewModel("per_row", opt)
		tau := m.HalfNormal("tau", 1)
		theta := m.Normal("theta", 0, tau, ppl.Size(n)) // identity
		s := m.HalfNormal("s", 1, ppl.Size(n))          // lower bound 0
		lo := m.Normal("lo", 0, 1)
		u := m.Normal("u", 0, 1, ppl.Size(n), ppl.Lower(lo))  // lower bound a parameter
		w := m.Normal("w", 0, 1, ppl.Size(n), ppl.Upper(2.5)) // upper bound
		p := m.Beta("p", 2, 2, ppl.Size(n))                   // interval (0, 1)
		m.Normal("y", ppl.Add(theta, ppl.Mul(0.1, ppl.Add(u, w))), s).Observe(y)
		m.Bernoulli("hits", p).Observe(hits)
		return m
	}},
	{"hand-written likelihood in a LogDensity term", func(opt ppl.ModelOption) *ppl.Model {
		r := simulateRegression(700, 3, 1, 13)
		m := ppl.NewModel("handwritten", opt)
		b := m.Normal("b", 0, 1, ppl.Size(3))
		nu := m.Gamma("nu", 2, 0.1)
		sigma := m.HalfNormal("sigma", 1)
		m.LogDensity("lik", ppl.Sum(ppl.LogPDF("StudentT", r.eta, nu, ppl.MatVec(r.X, b), sigma)))
		return m
	}},
}

// compilePair compiles a model whole and sharded.
func compilePair(t *testing.T, whole, sharded *ppl.Model) (*ppl.Compiled, *ppl.Compiled) {
	t.Helper()
	cw, err := whole.Compile()
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sharded.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return cw, cs
}

// agree compares the log densities and gradients of two compilations of
// one model at random positions.
func agree(t *testing.T, cw, cs *ppl.Compiled, points int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	dw, ds := cw.NewDensity(), cs.NewDensity()
	n := cw.Dim()
	x := make([]float64, n)
	gw, gs := make([]float64, n), make([]float64, n)
	for range points {
		for i := range x {
			x[i] = rng.Float64()*2 - 1
		}
		lw, ls := dw.LogDensityGrad(x, gw), ds.LogDensityGrad(x, gs)
		if fw := ds.(*ppl.Density).LogDensity(x); fw != ls {
			t.Errorf("sharded LogDensity %v differs from LogDensityGrad's %v at %v", fw, ls, x)
		}
		if math.IsInf(lw, -1) && math.IsInf(ls, -1) {
			continue
		}
		if !(math.Abs(lw-ls) <= shardTol*math.Max(1, math.Abs(lw))) {
			t.Fatalf("log density: sharded %v, whole %v at %v", ls, lw, x)
		}
		scale := 1.0
		for _, g := range gw {
			scale = math.Max(scale, math.Abs(g))
		}
		for i := range gw {
			if !(math.Abs(gw[i]-gs[i]) <= shardTol*scale) {
				t.Fatalf("gradient[%d]: sharded %v, whole %v (largest component %v)", i, gs[i], gw[i], scale)
			}
		}
	}
}

func TestShardedRegressionsMatchWhole(t *testing.T) {
	for _, tc := range shardModels {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []int{2, 3, 4} {
				cw, cs := compilePair(t, tc.build(ppl.Shards(1)), tc.build(ppl.Shards(k)))
				if p := cw.ShardPlan(); p.Shards != 0 {
					t.Fatalf("Shards(1) made %d shards", p.Shards)
				}
				plan := cs.ShardPlan()
				if plan.Shards != k {
					t.Fatalf("Shards(%d): plan has %d shards: %+v", k, plan.Shards, plan)
				}
				for _, v := range plan.Vars {
					if !v.Sharded {
						t.Fatalf("Shards(%d): %s not sharded: %s", k, v.Name, v.Reason)
					}
				}
				main, shards := cs.ShardPrograms()
				if main == nil || len(shards) != k {
					t.Fatalf("ShardPrograms: main %v, %d shards, want %d", main != nil, len(shards), k)
				}
				agree(t, cw, cs, 20, uint64(k))
			}
		})
	}
}

// TestShardedPosteriordbMatchesWhole forces 3 shards (an odd split) on every
// reference model; a model whose observed variables cannot be split must
// say why for each.
func TestShardedPosteriordbMatchesWhole(t *testing.T) {
	for _, name := range append(posteriordb.Cases(), posteriordb.LogisticName) {
		t.Run(name, func(t *testing.T) {
			c := loadCase(t, name, 200, 5)
			mw, err := posteriordb.Model(c.Name, c)
			if err != nil {
				t.Fatal(err)
			}
			mw.SetShards(1)
			ms, err := posteriordb.Model(c.Name, c)
			if err != nil {
				t.Fatal(err)
			}
			ms.SetShards(3)
			cw, cs := compilePair(t, mw, ms)
			plan := cs.ShardPlan()
			obs := 0
			for _, v := range plan.Vars {
				if !v.Term {
					obs++
				}
			}
			if obs != len(cs.Observed()) {
				t.Fatalf("plan lists %d variables, the model observes %d", obs, len(cs.Observed()))
			}
			var reasons []string
			for _, v := range plan.Vars {
				if !v.Sharded {
					if v.Reason == "" {
						t.Errorf("%s is not sharded and no reason is given", v.Name)
					}
					reasons = append(reasons, v.Name+": "+v.Reason)
				}
			}
			if plan.Shards == 0 && len(plan.Vars) == 0 {
				t.Skip("no observed variable and no LogDensity term summing over rows")
			}
			if plan.Shards == 0 {
				t.Skipf("not sharded: %s", strings.Join(reasons, "; "))
			}
			if len(reasons) > 0 {
				t.Logf("left whole: %s", strings.Join(reasons, "; "))
			}
			agree(t, cw, cs, 10, 3)
		})
	}
}

// TestShardReasons: graphs whose rows cannot be computed apart are left
// whole, with the reason.
func TestShardReasons(t *testing.T) {
	y := []float64{0.5, -0.2, 1.1, 0.3, -0.7, 0.9}
	tests := []struct {
		name   string
		build  func(m *ppl.Model)
		reason string // a substring of the reason
	}{
		{"mean by a scan", func(m *ppl.Model) {
			rho := m.Normal("rho", 0, 0.5)
			mu := ppl.Scan(len(y), []any{0.0}, []any{y}, func(carry, row []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
				next := ppl.Add(ppl.Mul(rho, carry[0]), row[0])
				return []ppl.Expr{next}, next
			})
			m.Normal("y", mu, 1).Observe(y)
		}, "Scan"},
		{"mean by a concatenation", func(m *ppl.Model) {
			a := m.Normal("a", 0, 1, ppl.Size(3))
			m.Normal("y", ppl.Concat(a, ppl.Neg(a)), 1).Observe(y)
		}, "Concat"},
		{"one multivariate event", func(m *ppl.Model) {
			mu := m.Normal("mu", 0, 1, ppl.Size(6))
			m.MultiNormalChol("y", mu, identity(6)).Observe(y)
		}, "single"},
		{"a scalar", func(m *ppl.Model) {
			mu := m.Normal("mu", 0, 1)
			m.Normal("y", mu, 1).Observe(0.5)
		}, "single observation"},
		{"LogDensity term over a scan", func(m *ppl.Model) {
			rho := m.Normal("rho", 0, 0.5)
			mu := ppl.Scan(len(y), []any{0.0}, []any{y}, func(carry, row []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
				next := ppl.Add(ppl.Mul(rho, carry[0]), row[0])
				return []ppl.Expr{next}, next
			})
			m.LogDensity("lik", ppl.Sum(ppl.LogPDF("Normal", y, mu, 1)))
		}, "Scan"},
		{"fewer rows than shards", func(m *ppl.Model) {
			mu := m.Normal("mu", 0, 1)
			m.Normal("y", mu, 1).Observe(y[:2])
		}, "fewer than the 3 shards"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := ppl.NewModel("reasons", ppl.Shards(3))
			tc.build(m)
			c, err := m.Compile()
			if err != nil {
				t.Fatal(err)
			}
			p := c.ShardPlan()
			if p.Shards != 0 || len(p.Vars) != 1 || p.Vars[0].Sharded {
				t.Fatalf("plan %+v, want y left whole", p)
			}
			if !strings.Contains(p.Vars[0].Reason, tc.reason) {
				t.Errorf("reason %q does not mention %q", p.Vars[0].Reason, tc.reason)
			}
		})
	}
}

func runtimeProcs() int { return runtime.GOMAXPROCS(0) }

func identity(n int) [][]float64 {
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
		a[i][i] = 1
	}
	return a
}

// TestShardAutomaticChoice: by default a model is sharded only when its
// observed data are large (AutoShardVolume per shard, at most GOMAXPROCS
// shards).
func TestShardAutomaticChoice(t *testing.T) {
	small := shardModels[0].build(ppl.Shards(0))
	c, err := small.Compile()
	if err != nil {
		t.Fatal(err)
	}
	if p := c.ShardPlan(); p.Shards != 0 || p.Vars[0].Sharded || p.Vars[0].Reason == "" {
		t.Errorf("a logistic regression of 1000×7 is sharded by default: %+v", p)
	}
	// 20000 rows × 10 columns: volume 20000·(10+1) = 220000.
	const n, d = 20000, 10
	lc := posteriordb.SimulatedLogistic(n, d, 1)
	m := ppl.NewModel("large")
	beta := m.Normal("beta", 0, 1, ppl.Size(d))
	m.BernoulliLogit("y", ppl.MatVec(lc.Data["X"], beta)).Observe(lc.Data["y"])
	cl, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	p := cl.ShardPlan()
	if p.Vars[0].Volume != n*(d+1) {
		t.Errorf("volume %d, want %d (data y and the rows of X)", p.Vars[0].Volume, n*(d+1))
	}
	want := min(runtimeProcs(), n*(d+1)/ppl.AutoShardVolume)
	if want < 2 {
		want = 0
	}
	if p.Shards != want {
		t.Errorf("automatic choice: %d shards, want %d (GOMAXPROCS %d)", p.Shards, want, runtimeProcs())
	}
}

// TestShardedDensityDoesNotAllocate: a gradient of a sharded model hands
// its shards to the helpers without allocating.
func TestShardedDensityDoesNotAllocate(t *testing.T) {
	m := shardModels[1].build(ppl.Shards(3))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	d := c.NewDensity()
	x := make([]float64, c.Dim())
	g := make([]float64, c.Dim())
	d.LogDensityGrad(x, g)
	if a := testing.AllocsPerRun(200, func() { d.LogDensityGrad(x, g) }); a != 0 {
		t.Errorf("LogDensityGrad allocates %v times per call", a)
	}
	if a := testing.AllocsPerRun(200, func() { d.(*ppl.Density).LogDensity(x) }); a != 0 {
		t.Errorf("LogDensity allocates %v times per call", a)
	}
}

// TestShardedDensitiesInParallel: several goroutines, each with its own
// Density (as NUTS chains are), share the helper pool; run under -race.
func TestShardedDensitiesInParallel(t *testing.T) {
	whole, err := shardModels[0].build(ppl.Shards(1)).Compile()
	if err != nil {
		t.Fatal(err)
	}
	sharded, err := shardModels[0].build(ppl.Shards(4)).Compile()
	if err != nil {
		t.Fatal(err)
	}
	n := whole.Dim()
	var wg sync.WaitGroup
	errs := make([]string, 4)
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dw, ds := whole.NewDensity(), sharded.NewDensity()
			rng := rand.New(rand.NewPCG(uint64(w), 2))
			x, gw, gs := make([]float64, n), make([]float64, n), make([]float64, n)
			for range 50 {
				for i := range x {
					x[i] = rng.NormFloat64()
				}
				lw, ls := dw.LogDensityGrad(x, gw), ds.LogDensityGrad(x, gs)
				if !(math.Abs(lw-ls) <= shardTol*math.Max(1, math.Abs(lw))) {
					errs[w] = "log densities differ"
					return
				}
				scale := 1.0
				for _, g := range gw {
					scale = math.Max(scale, math.Abs(g))
				}
				for i := range gw {
					if !(math.Abs(gw[i]-gs[i]) <= shardTol*scale) {
						errs[w] = "gradients differ"
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	for w, e := range errs {
		if e != "" {
			t.Errorf("goroutine %d: %s", w, e)
		}
	}
}

// TestShardedModelSamples: the samplers see one Density either way. A
// sharded and a whole logistic regression sampled by NUTS agree in their
// posterior means within Monte Carlo error (5 combined standard errors).
func TestShardedModelSamples(t *testing.T) {
	if testing.Short() {
		t.Skip("samples two models with NUTS")
	}
	run := func(opt ppl.ModelOption) *posterior.Summary {
		m := shardModels[0].build(opt)
		p := m.Sample(ppl.Chains(2), ppl.Warmup(300), ppl.Draws(400), ppl.Seed(7), ppl.LiveProgress(false))
		return p.Summary("beta", "alpha")
	}
	whole, sharded := run(ppl.Shards(1)), run(ppl.Shards(3))
	if len(whole.Rows) != 8 || len(sharded.Rows) != 8 {
		t.Fatalf("summaries have %d and %d rows, want 8", len(whole.Rows), len(sharded.Rows))
	}
	for i, w := range whole.Rows {
		s := sharded.Rows[i]
		se := math.Hypot(w.MCSEMean, s.MCSEMean)
		if !(math.Abs(w.Mean-s.Mean) <= 5*se) {
			t.Errorf("%s: mean %v sharded, %v whole (combined MCSE %v)", w.Name, s.Mean, w.Mean, se)
		}
	}
}

// TestShardsNegative: a negative count is a mistake named in an *Error.
func TestShardsNegative(t *testing.T) {
	var err error
	func() {
		defer ppl.Catch(&err)
		ppl.NewModel("neg", ppl.Shards(-2))
	}()
	if err == nil || !strings.Contains(err.Error(), "Shards(-2)") {
		t.Errorf("Shards(-2): error %v, want one naming Shards(-2)", err)
	}
}
