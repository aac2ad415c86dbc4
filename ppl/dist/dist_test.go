package dist_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/dist"
)

// TestDeclarations checks what the model compiler relies on: every family
// is found by name, declares a support for each parameter, bounds its
// support by parameters that exist, and names an implemented op whose
// arity is the variate plus the parameters.
func TestDeclarations(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range dist.Families() {
		t.Run(f.Name, func(t *testing.T) {
			if f.Name == "" || seen[f.Name] {
				t.Fatalf("family name %q is empty or repeated", f.Name)
			}
			seen[f.Name] = true
			if dist.Lookup(f.Name) != f {
				t.Errorf("Lookup(%q) does not return the family", f.Name)
			}
			if len(f.ParamSupport) != len(f.Params) {
				t.Errorf("%d parameters but %d parameter supports", len(f.Params), len(f.ParamSupport))
			}
			np := len(f.Params)
			s := f.Support
			inRange := func(i int) bool { return i >= -1 && i < np }
			if !inRange(s.Lower) || !inRange(s.Upper) {
				t.Errorf("support bounds %d, %d index no parameter", s.Lower, s.Upper)
			}
			switch s.Kind {
			case dist.Bounded:
				if s.Lower < 0 || s.Upper < 0 {
					t.Errorf("bounded support without both bounds: %+v", s)
				}
			case dist.BoundedInt:
				if s.Upper < 0 {
					t.Errorf("bounded integer support without an upper bound: %+v", s)
				}
			default:
				if s.Lower != -1 || s.Upper != -1 {
					t.Errorf("support %v has bounds %d, %d; want -1", s.Kind, s.Lower, s.Upper)
				}
			}
			for i, ps := range f.ParamSupport {
				if ps.Lower != -1 || ps.Upper != -1 {
					t.Errorf("parameter %s: support with bounds %+v", f.Params[i], ps)
				}
			}
			discrete := s.Kind == dist.NonNegInt || s.Kind == dist.Binary || s.Kind == dist.BoundedInt
			if f.Discrete != discrete {
				t.Errorf("Discrete = %v for support kind %v", f.Discrete, s.Kind)
			}
			if f.Op == ir.OpNop {
				if f.Sample != nil || len(f.Params) != 0 {
					t.Errorf("improper family with a sampler or parameters")
				}
				return
			}
			d := ir.Def(f.Op)
			if d.Forward == nil {
				t.Fatalf("op %v is not implemented", f.Op)
			}
			if d.Arity != 1+np {
				t.Errorf("op %s takes %d arguments, family has the variate and %d parameters", d.Name, d.Arity, np)
			}
			if f.Sample == nil {
				t.Errorf("proper family without a sampler")
			}
			if (f.Mean == nil) != (f.Var == nil) {
				t.Errorf("Mean and Var must both be set or both nil")
			}
		})
	}
}

// momentCase draws from a scalar family at fixed parameters.
type momentCase struct {
	f      *dist.Family
	params []float64
}

// TestScalarMoments compares the sample mean and variance of 200,000 draws
// with Family.Mean and Family.Var: each must lie within 5 standard errors
// (of the mean: √(Var/n); of the variance: √((m₄ - s⁴)/n) from the
// sample's fourth central moment). Families without moments (Cauchy) are
// checked on the probability of their central interval instead.
func TestScalarMoments(t *testing.T) {
	if testing.Short() {
		t.Skip("statistical test: 200,000 draws per family")
	}
	const n = 200000
	cases := []momentCase{
		{dist.Normal, []float64{1.5, 2}},
		{dist.HalfNormal, []float64{1.7}},
		{dist.StudentT, []float64{9, -1, 2}},
		{dist.HalfStudentT, []float64{9, 1.5}},
		{dist.Laplace, []float64{0.5, 1.2}},
		{dist.Logistic, []float64{-0.5, 0.8}},
		{dist.LogNormal, []float64{0.3, 0.4}},
		{dist.Exponential, []float64{2.5}},
		{dist.Gamma, []float64{2.5, 1.5}},
		{dist.Gamma, []float64{0.3, 2}},
		{dist.InverseGamma, []float64{6, 2}},
		{dist.Weibull, []float64{1.7, 2}},
		{dist.Beta, []float64{2, 5}},
		{dist.Uniform, []float64{-1, 3}},
		{dist.Bernoulli, []float64{0.3}},
		{dist.BernoulliLogit, []float64{-0.7}},
		{dist.Binomial, []float64{12, 0.35}},
		{dist.BinomialLogit, []float64{7, 0.4}},
		{dist.Poisson, []float64{3.5}},
		{dist.PoissonLog, []float64{1.2}},
		{dist.NegativeBinomial, []float64{4, 2.5}},
		{dist.BetaBinomial, []float64{10, 2, 3}},
		{dist.ZeroInflatedPoisson, []float64{0.3, 4}},
		{dist.ZeroInflatedNegBinomial, []float64{0.3, 4, 2.5}},
		{dist.HurdlePoisson, []float64{0.7, 2.5}},
		{dist.HurdlePoisson, []float64{0.6, 0.3}},
		{dist.HurdleNegBinomial, []float64{0.7, 3, 1.5}},
	}
	rng := rand.New(rand.NewPCG(17, 29))
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.f.Name] = true
		ps := make([][]float64, len(c.params))
		for i, v := range c.params {
			ps[i] = []float64{v}
		}
		x := make([]float64, n)
		c.f.Sample(rng, ps, x)
		mean, vr, m4 := moments(x)
		wantM, wantV := c.f.Mean(c.params), c.f.Var(c.params)
		if se := math.Sqrt(wantV / n); math.Abs(mean-wantM) > 5*se {
			t.Errorf("%s%v: sample mean %.5g, want %.5g ± %.2g", c.f.Name, c.params, mean, wantM, 5*se)
		}
		if se := math.Sqrt((m4 - vr*vr) / n); math.Abs(vr-wantV) > 5*se {
			t.Errorf("%s%v: sample variance %.5g, want %.5g ± %.2g", c.f.Name, c.params, vr, wantV, 5*se)
		}
	}
	// Cauchy(μ, σ) puts probability ½ on [μ-σ, μ+σ], the half-Cauchy ½
	// on [0, σ] (the quartiles of the Cauchy distribution).
	for _, c := range []struct {
		f        *dist.Family
		params   []float64
		lo, hi   float64
		nonNeg   bool
		wantProb float64
	}{
		{dist.Cauchy, []float64{1, 2}, -1, 3, false, 0.5},
		{dist.HalfCauchy, []float64{2}, 0, 2, true, 0.5},
	} {
		covered[c.f.Name] = true
		ps := make([][]float64, len(c.params))
		for i, v := range c.params {
			ps[i] = []float64{v}
		}
		x := make([]float64, n)
		c.f.Sample(rng, ps, x)
		in := 0
		for _, v := range x {
			if c.nonNeg && v < 0 {
				t.Fatalf("%s drew %v < 0", c.f.Name, v)
			}
			if v >= c.lo && v <= c.hi {
				in++
			}
		}
		p := float64(in) / n
		if se := math.Sqrt(c.wantProb * (1 - c.wantProb) / n); math.Abs(p-c.wantProb) > 5*se {
			t.Errorf("%s%v: P[%v, %v] = %.4f, want %.4f ± %.2g", c.f.Name, c.params, c.lo, c.hi, p, c.wantProb, 5*se)
		}
	}
	for _, f := range dist.Families() {
		if f.Sample != nil && f.EventRank == 0 && !covered[f.Name] {
			t.Errorf("%s: sampler not covered by the moment test", f.Name)
		}
	}
}

// moments returns the sample mean, variance and fourth central moment.
func moments(x []float64) (mean, vr, m4 float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	for _, v := range x {
		d := (v - mean) * (v - mean)
		vr += d
		m4 += d * d
	}
	return mean, vr / float64(len(x)), m4 / float64(len(x))
}

// TestScalarSamplerBroadcast checks that a vector parameter gives each
// element its own value: draws of Normal(μ_i, tiny σ) sit at μ_i.
func TestScalarSamplerBroadcast(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	mu := []float64{-5, 0, 5, 10}
	out := make([]float64, 4)
	dist.Normal.Sample(rng, [][]float64{mu, {1e-9}}, out)
	for i := range out {
		if math.Abs(out[i]-mu[i]) > 1e-6 {
			t.Errorf("draw %d = %v, want about %v", i, out[i], mu[i])
		}
	}
}

// TestMultivariateMoments checks the event samplers component by
// component, with the same 5-standard-error bands: Dirichlet means
// α_k/α₀ and variances α_k(α₀-α_k)/(α₀²(α₀+1)); the multivariate normal's
// means μ and covariance L·Lᵀ; category frequencies softmax(logits); LKJ
// correlations with mean 0 and variance 1/(2η+K-1) (the marginal of each
// correlation is a Beta(η-1+K/2, η-1+K/2) stretched to (-1, 1),
// Lewandowski et al. 2009) and factors whose rows have unit length.
func TestMultivariateMoments(t *testing.T) {
	if testing.Short() {
		t.Skip("statistical test")
	}
	const n = 100000
	rng := rand.New(rand.NewPCG(5, 8))
	check := func(name string, x []float64, mean, vr float64) {
		t.Helper()
		m, v, m4 := moments(x)
		if se := math.Sqrt(vr / n); math.Abs(m-mean) > 5*se {
			t.Errorf("%s: sample mean %.5g, want %.5g ± %.2g", name, m, mean, 5*se)
		}
		if se := math.Sqrt((m4 - v*v) / n); math.Abs(v-vr) > 5*se {
			t.Errorf("%s: sample variance %.5g, want %.5g ± %.2g", name, v, vr, 5*se)
		}
	}
	column := func(x []float64, k, j int) []float64 {
		c := make([]float64, len(x)/k)
		for i := range c {
			c[i] = x[i*k+j]
		}
		return c
	}

	alpha := []float64{0.5, 2, 4}
	a0 := 6.5
	x := make([]float64, n*3)
	dist.Dirichlet.Sample(rng, [][]float64{alpha}, x)
	for j, a := range alpha {
		check("Dirichlet component", column(x, 3, j), a/a0, a*(a0-a)/(a0*a0*(a0+1)))
	}

	mu := []float64{1, -2, 0.5}
	l := []float64{1.5, 0, 0, -0.5, 0.8, 0, 0.3, 0.2, 0.6}
	dist.MultiNormalChol.Sample(rng, [][]float64{mu, l}, x)
	for j := range 3 {
		v := 0.0
		for m := 0; m <= j; m++ {
			v += l[j*3+m] * l[j*3+m]
		}
		check("MultiNormalChol component", column(x, 3, j), mu[j], v)
	}
	// The covariance of components 0 and 1 is (L·Lᵀ)₀₁ = L₀₀L₁₀: check the
	// variance of their sum, Σ₀₀ + Σ₁₁ + 2Σ₀₁.
	sum := make([]float64, n)
	for i := range sum {
		sum[i] = x[i*3] + x[i*3+1]
	}
	check("MultiNormalChol sum of components 0 and 1", sum, mu[0]+mu[1], 2.25+0.25+0.64+2*1.5*-0.5)

	logits := []float64{0.2, -1, 1.5, 0}
	cats := make([]float64, n)
	dist.CategoricalLogit.Sample(rng, [][]float64{logits}, cats)
	z := 0.0
	for _, v := range logits {
		z += math.Exp(v)
	}
	for c, v := range logits {
		p := math.Exp(v) / z
		ind := make([]float64, n)
		for i, y := range cats {
			if y == float64(c) {
				ind[i] = 1
			}
		}
		check("CategoricalLogit frequency", ind, p, p*(1-p))
	}

	for _, k := range []int{2, 4} {
		for _, eta := range []float64{1, 3} {
			const m = 40000
			r10, r32 := make([]float64, m), make([]float64, m)
			fac := make([]float64, k*k)
			for i := range m {
				dist.LKJCorrChol.Sample(rng, [][]float64{{eta}}, fac)
				for row := range k {
					s := 0.0
					for c := 0; c <= row; c++ {
						s += fac[row*k+c] * fac[row*k+c]
					}
					if math.Abs(s-1) > 1e-12 || fac[row*k+row] <= 0 {
						t.Fatalf("LKJ K=%d: row %d of the factor has length² %v, diagonal %v", k, row, s, fac[row*k+row])
					}
				}
				r10[i] = fac[k] // R₁₀ = L₁₀
				// R_(K-1)(K-2) = Σ_c L_(K-1)c L_(K-2)c.
				for c := 0; c < k-1; c++ {
					r32[i] += fac[(k-1)*k+c] * fac[(k-2)*k+c]
				}
			}
			want := 1 / (2*eta + float64(k) - 1)
			for _, r := range [][]float64{r10, r32} {
				mm, v, m4 := moments(r)
				if se := math.Sqrt(want / m); math.Abs(mm) > 5*se {
					t.Errorf("LKJ K=%d η=%v: correlation mean %.4f, want 0 ± %.2g", k, eta, mm, 5*se)
				}
				if se := math.Sqrt((m4 - v*v) / m); math.Abs(v-want) > 5*se {
					t.Errorf("LKJ K=%d η=%v: correlation variance %.4f, want %.4f ± %.2g", k, eta, v, want, 5*se)
				}
			}
		}
	}
}

// TestSampleMixture checks the mixture sampler's mean and variance: for
// weights w, E = Σ w_k μ_k and Var = Σ w_k (σ_k² + μ_k²) - E².
func TestSampleMixture(t *testing.T) {
	if testing.Short() {
		t.Skip("statistical test")
	}
	const n = 200000
	rng := rand.New(rand.NewPCG(9, 9))
	w := []float64{0.3, 0.7}
	x := make([]float64, n)
	dist.SampleMixture(rng, w, []*dist.Family{dist.Normal, dist.Normal},
		[][][]float64{{{-2}, {0.5}}, {{3}, {1}}}, x)
	mean := 0.3*-2 + 0.7*3
	vr := 0.3*(0.25+4) + 0.7*(1+9) - mean*mean
	m, v, m4 := moments(x)
	if se := math.Sqrt(vr / n); math.Abs(m-mean) > 5*se {
		t.Errorf("mixture mean %.4f, want %.4f ± %.2g", m, mean, 5*se)
	}
	if se := math.Sqrt((m4 - v*v) / n); math.Abs(v-vr) > 5*se {
		t.Errorf("mixture variance %.4f, want %.4f ± %.2g", v, vr, 5*se)
	}
}

// TestMultiNormalRowsPerEvent checks that a mean per event places each
// event's draws around its own row (a near-zero covariance).
func TestMultiNormalRowsPerEvent(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	mu := []float64{1, 2, -3, -4, 10, 20}
	l := []float64{1e-9, 0, 0, 1e-9}
	out := make([]float64, 6)
	dist.MultiNormalChol.Sample(rng, [][]float64{mu, l}, out)
	for i := range out {
		if math.Abs(out[i]-mu[i]) > 1e-6 {
			t.Errorf("draw %d = %v, want about %v", i, out[i], mu[i])
		}
	}
}
