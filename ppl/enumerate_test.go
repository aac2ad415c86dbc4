package ppl

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// A latent Bernoulli summed out equals the two-component likelihood
// written by hand, and its recorded probabilities are Bayes' rule.
func TestEnumerateBernoulli(t *testing.T) {
	y := []float64{0.8, 1.9, 1.2, 2.4}
	m := NewModel("e")
	mu := m.Normal("mu", 0, 1)
	delta := m.Normal("delta", 0, 1)
	z := m.Bernoulli("z", 0.3)
	m.Normal("y", mu.Add(delta.Mul(z)), 1, Observed(y))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	if got := len(c.Params()); got != 2 {
		t.Fatalf("%d parameters; want mu and delta (z summed out)", got)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 4 {
		q := []float64{rng.NormFloat64(), rng.NormFloat64()}
		ll := func(shift float64) float64 {
			s := 0.0
			for _, v := range y {
				d := v - q[0] - shift
				s += -0.5*math.Log(2*math.Pi) - d*d/2
			}
			return s
		}
		prior := -math.Log(2*math.Pi) - (q[0]*q[0]+q[1]*q[1])/2
		l0, l1 := math.Log(0.7)+ll(0), math.Log(0.3)+ll(q[1])
		mx := math.Max(l0, l1)
		want := prior + mx + math.Log(math.Exp(l0-mx)+math.Exp(l1-mx))
		if got := c.LogDensity(q); math.Abs(got-want) > 1e-10 {
			t.Errorf("at %v: log density %v; want %v", q, got, want)
		}
		vals, err := c.Constrain(q)
		if err != nil {
			t.Fatal(err)
		}
		p1 := 1 / (1 + math.Exp(l0-l1))
		if got := vals["z_probs"]; len(got) != 2 || math.Abs(got[1]-p1) > 1e-10 || math.Abs(got[0]+got[1]-1) > 1e-12 {
			t.Errorf("z_probs %v; want [%v %v]", got, 1-p1, p1)
		}
	}
	_ = z
}

// A changepoint in counts: the switch time, enumerated over every day,
// and the two rates recovered.
func TestEnumerateChangepoint(t *testing.T) {
	if testing.Short() {
		t.Skip("samples")
	}
	rng := rand.New(rand.NewPCG(7, 7))
	const T, switchAt = 60, 25
	counts := make([]float64, T)
	days := make([]float64, T)
	for i := range counts {
		days[i] = float64(i)
		rate := 2.0
		if i < switchAt {
			rate = 8
		}
		k, l, p := 0, math.Exp(-rate), 1.0
		for p *= rng.Float64(); p > l; p *= rng.Float64() {
			k++
		}
		counts[i] = float64(k)
	}
	uniform := make([]float64, T)
	for i := range uniform {
		uniform[i] = 1.0 / T
	}
	m := NewModel("changepoint")
	early := m.Exponential("early", 0.2)
	late := m.Exponential("late", 0.2)
	s := m.Categorical("s", uniform)
	rate := late.Add(early.Sub(late).Mul(Step(s.Sub(days))))
	m.Poisson("y", rate, Observed(counts))
	fit := m.Sample(Seed(3), LiveProgress(false))
	best, bestP := 0, 0.0
	for k := 0; k < T; k++ {
		if p := meanOf(t, fit, elementName("s_probs", k)); p > bestP {
			best, bestP = k, p
		}
	}
	if best < switchAt-2 || best > switchAt+2 {
		t.Errorf("the most probable switch is day %d (p %.2f); the data switch on day %d", best, bestP, switchAt)
	}
	if e := meanOf(t, fit, "early"); math.Abs(e-8) > 1.5 {
		t.Errorf("early rate %v; want about 8", e)
	}
	if l := meanOf(t, fit, "late"); math.Abs(l-2) > 0.7 {
		t.Errorf("late rate %v; want about 2", l)
	}
	// Predictive draws of the day: each draw's s from its s_probs, so
	// the days' frequencies follow s_probs' mean.
	pred := m.PosteriorPredictive(fit, Seed(4))
	sd := pred.Flat("s")
	seen := make([]float64, T)
	for _, v := range sd {
		seen[int(v)]++
	}
	chi2 := 0.0
	for k := range T {
		e := meanOf(t, fit, elementName("s_probs", k)) * float64(len(sd))
		if e > 5 {
			chi2 += (seen[k] - e) * (seen[k] - e) / e
		} else if seen[k] > e+15 {
			t.Errorf("day %d drawn %v times; s_probs expects %.1f", k, seen[k], e)
		}
	}
	if chi2 > 3*T {
		t.Errorf("the predictive days' frequencies are far from s_probs' mean (chi-square %.1f over %d days)", chi2, T)
	}
	if loo := m.LogLik(fit).LOO(); math.IsNaN(loo.ELPD) || loo.ELPD > 0 || loo.ELPD < -400 {
		t.Errorf("LOO %v; want a finite elpd", loo)
	}
	m2 := NewModel("d")
	z := m2.Bernoulli("z", 0.5)
	m2.Normal("y", z, 1, Observed([]float64{1}))
	m2.Deterministic("twice", z.Mul(2))
	if err := m2.Err(); err == nil || !strings.Contains(err.Error(), "z_probs") {
		t.Errorf("a deterministic of an enumerated variable: err %v; want one pointing to z_probs", err)
	}
}

// normLog is log N(y | mu, sd).
func normLog(y, mu, sd float64) float64 {
	d := (y - mu) / sd
	return -0.5*math.Log(2*math.Pi) - math.Log(sd) - d*d/2
}

// logAdd is log(eᵃ + eᵇ).
func logAdd(a, b float64) float64 {
	m := math.Max(a, b)
	return m + math.Log(math.Exp(a-m)+math.Exp(b-m))
}

// twoGroups draws n values, a share w from N(mu1, sd1), the rest from
// N(mu0, sd0).
func twoGroups(seed uint64, n int, w, mu0, sd0, mu1, sd1 float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, seed))
	y := make([]float64, n)
	for i := range y {
		if rng.Float64() < w {
			y[i] = mu1 + sd1*rng.NormFloat64()
		} else {
			y[i] = mu0 + sd0*rng.NormFloat64()
		}
	}
	return y
}

// labelled is a two-component mixture written with its label per
// observation, z[i] = 1 for component 1 (share w), in one of the ways a
// modeller writes it.
func labelled(y []float64, how string) *Model {
	m := NewModel("labels")
	w := m.Beta("w", 2, 2)
	mu := m.Normal("mu", 0, 2, Size(2), Ordered())
	sd := m.HalfNormal("sd", 1, Size(2))
	z := m.Bernoulli("z", w, Size(len(y)))
	switch how {
	case "Take":
		m.Normal("y", mu.Take(z), sd.Take(z), Observed(y))
	case "Where":
		m.Normal("y", Where(z, mu.At(1), mu.At(0)), Where(z, sd.At(1), sd.At(0)), Observed(y))
	case "arithmetic":
		m.Normal("y", mu.At(0).Add(mu.At(1).Sub(mu.At(0)).Mul(z)), sd.At(0).Add(sd.At(1).Sub(sd.At(0)).Mul(z)), Observed(y))
	}
	return m
}

// byHand is labelled's model with the label summed out by Mixture.
func byHand(y []float64) *Model {
	m := NewModel("labels")
	w := m.Beta("w", 2, 2)
	mu := m.Normal("mu", 0, 2, Size(2), Ordered())
	sd := m.HalfNormal("sd", 1, Size(2))
	m.Mixture("y", w, []Component{NormalComp(mu.At(1), sd.At(1)), NormalComp(mu.At(0), sd.At(0))}, Observed(y))
	return m
}

// A label per observation summed out equals the mixture written by hand:
// log density and gradient at random points, however the label is used;
// z_probs is Bayes' rule per observation.
func TestEnumerateLabels(t *testing.T) {
	y := twoGroups(1, 40, 0.3, -0.5, 0.3, 0.6, 0.4)
	hand, err := byHand(y).Compile()
	if err != nil {
		t.Fatal(err)
	}
	for _, how := range []string{"Take", "Where", "arithmetic"} {
		t.Run(how, func(t *testing.T) {
			c, err := labelled(y, how).Compile()
			if err != nil {
				t.Fatal(err)
			}
			if c.Dim() != hand.Dim() {
				t.Fatalf("dimension %d; want %d (z summed out)", c.Dim(), hand.Dim())
			}
			// Each value of the labels puts scalars in the observations'
			// densities, as Mixture does (not vectors of one repeated
			// value), and the gradient computes no z_probs.
			p := c.Program()
			for _, in := range p.Instrs {
				if in.Op == ir.OpNormalLPDF && ir.ShapeLen(p.Values[in.In[0]].Shape) == len(y) &&
					(ir.ShapeLen(p.Values[in.In[1]].Shape) != 1 || ir.ShapeLen(p.Values[in.In[2]].Shape) != 1) {
					t.Errorf("y's density takes parameters of shapes %v and %v; want scalars", p.Values[in.In[1]].Shape, p.Values[in.In[2]].Shape)
				}
				if in.Op == ir.OpExp || in.Op == ir.OpGather {
					t.Errorf("the log density's program has a %v: z_probs or a gather of the labels' components", in.Op)
				}
			}
			rng := rand.New(rand.NewPCG(2, 3))
			for range 5 {
				x := make([]float64, c.Dim())
				for i := range x {
					x[i] = 2*rng.Float64() - 1
				}
				g, gh := make([]float64, len(x)), make([]float64, len(x))
				lp, lph := c.LogDensityGrad(x, g), hand.LogDensityGrad(x, gh)
				if math.Abs(lp-lph) > 1e-10 {
					t.Errorf("at %v: log density %v; by hand %v", x, lp, lph)
				}
				for i := range g {
					if math.Abs(g[i]-gh[i]) > 1e-9 {
						t.Errorf("at %v: gradient %v; by hand %v", x, g, gh)
						break
					}
				}
				irtest.CheckGradient(t, c.Program(), x, 1e-6)
				// Initial values and draws map back to the position: the
				// layout leaves z out.
				draw := make([]float64, c.VarLen())
				c.NewDensity().(*Density).Constrained(x, draw)
				back, err := c.UnconstrainDraw(draw)
				if err != nil {
					t.Fatal(err)
				}
				for i := range x {
					if math.Abs(back[i]-x[i]) > 1e-9 {
						t.Fatalf("draw at %v maps back to %v", x, back)
					}
				}
				vals, err := c.Constrain(x)
				if err != nil {
					t.Fatal(err)
				}
				w, mu, sd, zp := vals["w"][0], vals["mu"], vals["sd"], vals["z_probs"]
				if len(zp) != 2*len(y) {
					t.Fatalf("z_probs has %d values; want [%d 2]", len(zp), len(y))
				}
				for i, v := range y {
					l1, l0 := math.Log(w)+normLog(v, mu[1], sd[1]), math.Log(1-w)+normLog(v, mu[0], sd[0])
					p1 := math.Exp(l1 - logAdd(l0, l1))
					if math.Abs(zp[2*i+1]-p1) > 1e-10 || math.Abs(zp[2*i]+zp[2*i+1]-1) > 1e-12 {
						t.Fatalf("z_probs[%d] = %v; want [%v %v]", i, zp[2*i:2*i+2], 1-p1, p1)
					}
				}
			}
		})
	}
}

// Three components with Dirichlet weights (Categorical labels, Take),
// and mixing probabilities per observation (a BernoulliLogit label on a
// covariate): each equals its marginalisation by hand.
func TestEnumerateLabelsKinds(t *testing.T) {
	y := twoGroups(4, 25, 0.5, -1, 0.5, 1, 0.5)
	x := make([]float64, len(y))
	for i := range x {
		x[i] = float64(i)/float64(len(x)) - 0.5
	}
	cases := []struct {
		name           string
		labelled, hand func() *Model
	}{
		{"categorical", func() *Model {
			m := NewModel("three")
			w := m.Dirichlet("w", []float64{2, 2, 2})
			mu := m.Normal("mu", 0, 2, Size(3))
			sd := m.HalfNormal("sd", 1, Size(3))
			z := m.Categorical("z", w, Size(len(y)))
			m.Normal("y", mu.Take(z), sd.Take(z), Observed(y))
			return m
		}, func() *Model {
			m := NewModel("three")
			w := m.Dirichlet("w", []float64{2, 2, 2})
			mu := m.Normal("mu", 0, 2, Size(3))
			sd := m.HalfNormal("sd", 1, Size(3))
			m.Mixture("y", w, []Component{NormalComp(mu.At(0), sd.At(0)), NormalComp(mu.At(1), sd.At(1)), NormalComp(mu.At(2), sd.At(2))}, Observed(y))
			return m
		}},
		{"covariate", func() *Model {
			m := NewModel("covariate")
			a := m.Normal("a", 0, 1)
			b := m.Normal("b", 0, 1)
			mu := m.Normal("mu", 0, 2, Size(2))
			z := m.BernoulliLogit("z", a.Add(b.Mul(x)))
			m.Normal("y", Where(z, mu.At(1), mu.At(0)), 0.5, Observed(y))
			return m
		}, func() *Model {
			m := NewModel("covariate")
			a := m.Normal("a", 0, 1)
			b := m.Normal("b", 0, 1)
			mu := m.Normal("mu", 0, 2, Size(2))
			m.LogDensity("y", Sum(LogMix(Logistic(a.Add(b.Mul(x))), LogPDF("Normal", y, mu.At(1), 0.5), LogPDF("Normal", y, mu.At(0), 0.5))))
			return m
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tc.labelled().Compile()
			if err != nil {
				t.Fatal(err)
			}
			h, err := tc.hand().Compile()
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(5, 6))
			for range 5 {
				q := make([]float64, c.Dim())
				for i := range q {
					q[i] = 2*rng.Float64() - 1
				}
				if got, want := c.LogDensity(q), h.LogDensity(q); math.Abs(got-want) > 1e-10 {
					t.Errorf("at %v: log density %v; by hand %v", q, got, want)
				}
				irtest.CheckGradient(t, c.Program(), q, 1e-6)
			}
		})
	}
}

// Labels with a row of logits each (CategoricalLogit [N K]): each
// observation's own prior over the components.
func TestEnumerateLabelRows(t *testing.T) {
	y := []float64{-1.2, 0.1, 0.8, 2.2, -0.4}
	logits := [][]float64{{1, 0, -1}, {0, 0, 0}, {-2, 1, 0.5}, {0.3, -0.3, 2}, {0, 1, 0}}
	m := NewModel("rows")
	mu := m.Normal("mu", 0, 2, Size(3))
	z := m.CategoricalLogit("z", logits)
	m.Normal("y", mu.Take(z), 0.7, Observed(y))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(12, 13))
	for range 4 {
		q := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		want := normLog(q[0], 0, 2) + normLog(q[1], 0, 2) + normLog(q[2], 0, 2)
		for i, v := range y {
			lse := math.Log(math.Exp(logits[i][0]) + math.Exp(logits[i][1]) + math.Exp(logits[i][2]))
			acc := math.Inf(-1)
			for k := range 3 {
				acc = logAdd(acc, logits[i][k]-lse+normLog(v, q[k], 0.7))
			}
			want += acc
		}
		if got := c.LogDensity(q); math.Abs(got-want) > 1e-10 {
			t.Errorf("at %v: log density %v; want %v", q, got, want)
		}
		irtest.CheckGradient(t, c.Program(), q, 1e-6)
	}
}

// One label per group of observations (Index(z, group)): each group's
// observations summed out together, and each observation's pointwise
// log-likelihood conditional on the others of its group.
func TestEnumerateGroupLabels(t *testing.T) {
	y := []float64{0.1, -0.3, 1.2, 0.9, 1.4, -0.2, 0.4}
	group := []int{0, 0, 1, 1, 1, 2, 3}
	for _, how := range []string{"Where", "Take"} {
		m := NewModel("groups")
		mu := m.Normal("mu", 0, 1, Size(2))
		z := m.Bernoulli("z", 0.4, Size(4))
		if how == "Where" {
			m.Normal("y", Where(Index(z, group), mu.At(1), mu.At(0)), 0.5, Observed(y))
		} else {
			m.Normal("y", mu.Take(Index(z, group)), 0.5, Observed(y))
		}
		c, err := m.Compile()
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range c.Program().Instrs {
			if in.Op == ir.OpMatVec {
				t.Errorf("%s: the enumerated density multiplies one-hot rows; want a gather of each value's components", how)
			}
		}
		checkGroups(t, c, y, group)
	}
}

func checkGroups(t *testing.T, c *Compiled, y []float64, group []int) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 4 {
		q := []float64{rng.NormFloat64(), rng.NormFloat64()}
		// per group, log Σₖ p(k) Πⱼ N(yⱼ | mu_k, 0.5), leaving out skip
		groupLog := func(g, skip int) float64 {
			l0, l1 := math.Log(0.6), math.Log(0.4)
			for j, v := range y {
				if group[j] == g && j != skip {
					l0 += normLog(v, q[0], 0.5)
					l1 += normLog(v, q[1], 0.5)
				}
			}
			return logAdd(l0, l1)
		}
		want := normLog(q[0], 0, 1) + normLog(q[1], 0, 1)
		for g := range 4 {
			want += groupLog(g, -1)
		}
		if got := c.LogDensity(q); math.Abs(got-want) > 1e-10 {
			t.Errorf("at %v: log density %v; want %v", q, got, want)
		}
		irtest.CheckGradient(t, c.Program(), q, 1e-6)
		draw := make([]float64, c.VarLen())
		c.NewDensity().(*Density).Constrained(q, draw)
		ll := make([]float64, c.LogLikLen())
		if err := c.PointwiseLogLik(draw, ll); err != nil {
			t.Fatal(err)
		}
		for j := range y {
			if want := groupLog(group[j], -1) - groupLog(group[j], j); math.Abs(ll[j]-want) > 1e-10 {
				t.Errorf("log_lik[%d] = %v; want log p(y_j | the rest of its group) = %v", j, ll[j], want)
			}
		}
	}
}

// A value that uses two labels at once cannot be summed out label by
// label: the error names the variable and the enumerated one.
func TestEnumerateRefusesMixedLabels(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(m *Model, z *RV)
	}{
		{"neighbours", func(m *Model, z *RV) {
			m.Normal("y", z.Add(Index(z, []int{1, 2, 3, 0})), 1, Observed([]float64{0, 1, 2, 1}))
		}},
		{"sum", func(m *Model, z *RV) { m.Normal("y", z.Sum(), 1, Observed(1.5)) }},
	} {
		m := NewModel("bad")
		z := m.Bernoulli("z", 0.5, Size(4))
		tc.build(m, z)
		_, err := m.Compile()
		if err == nil || !strings.Contains(err.Error(), "y: uses elements") || !strings.Contains(err.Error(), "enumerated z") {
			t.Errorf("%s: err %v; want one naming y and the enumerated z", tc.name, err)
		}
	}
}

// The pointwise log-likelihood of observations sharing one summed-out
// value (a changepoint) is each one's density given the others:
// log p(y | θ) - log p(y₋ⱼ | θ), the quantity leave-one-out needs.
func TestEnumerateLogLikShared(t *testing.T) {
	y := []float64{6, 9, 7, 2, 1, 3}
	m := NewModel("changepoint")
	early := m.Exponential("early", 0.2)
	late := m.Exponential("late", 0.2)
	s := m.Categorical("s", []float64{0.1, 0.2, 0.3, 0.2, 0.1, 0.1})
	days := []float64{0, 1, 2, 3, 4, 5}
	m.Poisson("y", late.Add(early.Sub(late).Mul(Step(s.Sub(days)))), Observed(y))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	prior := []float64{0.1, 0.2, 0.3, 0.2, 0.1, 0.1}
	poisLog := func(k, rate float64) float64 { lg, _ := math.Lgamma(k + 1); return k*math.Log(rate) - rate - lg }
	rng := rand.New(rand.NewPCG(9, 10))
	for range 4 {
		q := []float64{rng.NormFloat64() + 1.5, rng.NormFloat64()}
		e, l := math.Exp(q[0]), math.Exp(q[1])
		marginal := func(skip int) float64 {
			acc := math.Inf(-1)
			for k, pk := range prior {
				lp := math.Log(pk)
				for d, v := range y {
					if d == skip {
						continue
					}
					rate := l
					if d < k {
						rate = e
					}
					lp += poisLog(v, rate)
				}
				acc = logAdd(acc, lp)
			}
			return acc
		}
		draw := make([]float64, c.VarLen())
		c.NewDensity().(*Density).Constrained(q, draw)
		ll := make([]float64, c.LogLikLen())
		if err := c.PointwiseLogLik(draw, ll); err != nil {
			t.Fatal(err)
		}
		for j := range y {
			if want := marginal(-1) - marginal(j); math.Abs(ll[j]-want) > 1e-10 {
				t.Errorf("log_lik[%d] = %v; want %v", j, ll[j], want)
			}
		}
	}
	_ = s
}

// A fit of the mixture written with its labels recovers the simulated
// shares, means and scales; its PSIS-LOO is the hand-marginalised
// mixture's from the same draws; its predictive draws take each label
// from z_probs and each observation from that label's component.
func TestEnumerateLabelsFit(t *testing.T) {
	if testing.Short() {
		t.Skip("samples")
	}
	y := twoGroups(11, 300, 0.3, -0.5, 0.25, 0.6, 0.35)
	m := labelled(y, "Take")
	fit := m.Sample(Seed(2), LiveProgress(false))
	for _, c := range []struct {
		col       string
		want, tol float64
	}{
		{"w", 0.3, 0.08}, {"mu[0]", -0.5, 0.1}, {"mu[1]", 0.6, 0.15}, {"sd[0]", 0.25, 0.08}, {"sd[1]", 0.35, 0.1},
	} {
		if got := meanOf(t, fit, c.col); math.Abs(got-c.want) > c.tol {
			t.Errorf("%s: posterior mean %.3f; simulated %.3f", c.col, got, c.want)
		}
	}

	// LOO: each observation's marginal, as Mixture's, draw for draw.
	ll := m.LogLik(fit)
	hand := byHand(y).LogLik(fit.Select("w", "mu", "sd"), OtherModel()) // the same posterior written as a mixture
	got, want := ll.LOO(), hand.LOO()
	if math.Abs(got.ELPD-want.ELPD) > 1e-8 {
		t.Errorf("LOO elpd %.10f; the mixture by hand %.10f", got.ELPD, want.ELPD)
	}
	for j, col := range ll.Columns {
		a, b := ll.Flat(col), hand.Flat(col)
		for i := range a {
			if math.Abs(a[i]-b[i]) > 1e-10 {
				t.Fatalf("%s at draw %d: %v; by hand %v", col, i, a[i], b[i])
			}
		}
		if j > 3 {
			break
		}
	}

	// Predictive draws, reproducible by seed.
	pred := m.PosteriorPredictive(fit, Seed(8))
	again := m.PosteriorPredictive(fit, Seed(8))
	if a, b := pred.Flat("y[6]"), again.Flat("y[6]"); a[0] != b[0] || a[len(a)-1] != b[len(b)-1] {
		t.Errorf("two predictive runs of one seed differ")
	}
	ws, mu0, mu1, sd0, sd1 := fit.Flat("w"), fit.Flat("mu[0]"), fit.Flat("mu[1]"), fit.Flat("sd[0]"), fit.Flat("sd[1]")
	_ = ws
	chi2 := 0.0
	var r1, r2 float64
	n := 0
	for i := range y {
		zs, ys := pred.Flat(elementName("z", i)), pred.Flat(elementName("y", i))
		p1 := fit.Flat("z_probs[" + strconv.Itoa(i) + ",1]")
		ones, e, v := 0.0, 0.0, 0.0
		for d := range zs {
			ones += zs[d]
			e += p1[d]
			v += p1[d] * (1 - p1[d])
			// y given the draw, its label drawn from z_probs: the mixture
			// of the two components by z_probs.
			m := (1-p1[d])*mu0[d] + p1[d]*mu1[d]
			m2 := (1-p1[d])*(sd0[d]*sd0[d]+mu0[d]*mu0[d]) + p1[d]*(sd1[d]*sd1[d]+mu1[d]*mu1[d])
			r := (ys[d] - m) / math.Sqrt(m2-m*m)
			r1 += r
			r2 += r * r
			n++
		}
		if v > 1e-3 {
			chi2 += (ones - e) * (ones - e) / v
		}
	}
	if chi2 > float64(len(y))+6*math.Sqrt(2*float64(len(y))) {
		t.Errorf("the labels drawn depart from z_probs: chi-square %.1f over %d observations", chi2, len(y))
	}
	if r1 /= float64(n); math.Abs(r1) > 5/math.Sqrt(float64(n)) {
		t.Errorf("predictive y's standardised mean %.4f; want 0", r1)
	}
	if r2 /= float64(n); math.Abs(r2-1) > 0.02 {
		t.Errorf("predictive y's standardised second moment %.4f; want 1", r2)
	}
}

// BenchmarkEnumeratedMixture: the log density and gradient of a mixture
// written with its labels (summed out when compiled) and of the same
// mixture written with Mixture; the two should cost about the same.
func BenchmarkEnumeratedMixture(b *testing.B) {
	y := twoGroups(11, 300, 0.3, -0.5, 0.25, 0.6, 0.35)
	for _, bm := range []struct {
		name string
		m    *Model
	}{{"labels", labelled(y, "Take")}, {"Mixture", byHand(y)}} {
		b.Run(bm.name, func(b *testing.B) {
			c, err := bm.m.Compile()
			if err != nil {
				b.Fatal(err)
			}
			d := c.NewDensity()
			x := make([]float64, c.Dim())
			g := make([]float64, c.Dim())
			for b.Loop() {
				d.LogDensityGrad(x, g)
			}
		})
	}
}
