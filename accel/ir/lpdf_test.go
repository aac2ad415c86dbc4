package ir_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// lpdfCase is one log-density op: the inputs of each configuration to run
// (broadcast patterns, sizes), an oracle giving the pointwise log density
// from the inputs' values, and points outside the support.
type lpdfCase struct {
	name    string
	op      ir.Op
	configs [][]irtest.Arg
	want    func(v [][]float64) []float64
	// outside lists inputs (scalars or whole events) whose log density
	// must be -Inf; every input is a parameter there, so the gradient
	// sweep runs too.
	outside [][][]float64
	// outsideShapes gives the inputs' shapes at the outside points when
	// they are not scalars or vectors.
	outsideShapes [][]int
}

// elem describes one input of a scalar family: a parameter drawn from
// [lo, hi], or integer data (a count, a category) when data is set.
type elem struct {
	lo, hi float64
	data   []float64 // four data values for vector inputs; data[0] for scalar ones
}

func par(lo, hi float64) elem { return elem{lo: lo, hi: hi} }
func dat(v ...float64) elem   { return elem{data: v} }
func pts(xs ...float64) [][]float64 {
	out := make([][]float64, len(xs))
	for i, x := range xs {
		out[i] = []float64{x}
	}
	return out
}

// scalarCase builds the case of a scalar family from the ranges of its
// inputs (variate first) and an oracle for one element. It runs these
// broadcast patterns: every input a vector of 4; a vector variate with
// scalar parameters; a scalar variate with vector parameters; and for
// continuous families, a constant (observed) variate with a vector first
// parameter and scalar others, and a vector variate with constant vector
// parameters.
func scalarCase(name string, op ir.Op, in []elem, oracle func(x ...float64) float64, outside ...[]float64) lpdfCase {
	const n = 4
	arg := func(e elem, vec bool) irtest.Arg {
		switch {
		case e.data != nil && vec:
			return irtest.Const([]int{n}, e.data[:n]...)
		case e.data != nil:
			return irtest.Const(nil, e.data[0])
		case vec:
			return irtest.Param(e.lo, e.hi, n)
		default:
			return irtest.Param(e.lo, e.hi)
		}
	}
	var configs [][]irtest.Arg
	for _, pattern := range []func(i int) bool{
		func(int) bool { return true },
		func(i int) bool { return i == 0 },
		func(i int) bool { return i != 0 },
	} {
		args := make([]irtest.Arg, len(in))
		for i, e := range in {
			args[i] = arg(e, pattern(i))
		}
		configs = append(configs, args)
	}
	// Observed data: a constant variate, the first parameter a vector, the
	// others scalars (a regression likelihood, y ~ normal(mu[i], sigma)).
	if in[0].data == nil && len(in) > 1 {
		rng := rand.New(rand.NewPCG(uint64(op), 1))
		y := make([]float64, n)
		for i := range y {
			y[i] = in[0].lo + (in[0].hi-in[0].lo)*rng.Float64()
		}
		args := []irtest.Arg{irtest.Const([]int{n}, y...)}
		for i, e := range in[1:] {
			args = append(args, arg(e, i == 0))
		}
		configs = append(configs, args)
	}
	// Known parameters: a vector variate with constant vector parameters
	// (ops may cache terms of constant parameters).
	if in[0].data == nil && len(in) > 1 {
		rng := rand.New(rand.NewPCG(uint64(op), 2))
		args := []irtest.Arg{arg(in[0], true)}
		for _, e := range in[1:] {
			if e.data != nil {
				args = append(args, arg(e, true))
				continue
			}
			v := make([]float64, n)
			for i := range v {
				v[i] = e.lo + (e.hi-e.lo)*rng.Float64()
			}
			args = append(args, irtest.Const([]int{n}, v...))
		}
		configs = append(configs, args)
	}
	c := lpdfCase{name: name, op: op, configs: configs, want: eachElem(oracle)}
	for _, o := range outside {
		c.outside = append(c.outside, pts(o...))
	}
	return c
}

// eachElem maps a one-element oracle over broadcast inputs.
func eachElem(fn func(x ...float64) float64) func(v [][]float64) []float64 {
	return func(v [][]float64) []float64 {
		n := 1
		for _, a := range v {
			n = max(n, len(a))
		}
		out := make([]float64, n)
		x := make([]float64, len(v))
		for i := range out {
			for j, a := range v {
				x[j] = a[min(i, len(a)-1)]
			}
			out[i] = fn(x...)
		}
		return out
	}
}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// scalarCases are the scalar families. Oracles: gonum's distuv where it
// has the distribution; a half distribution is the folded symmetric one,
// log 2 + its log density on y ≥ 0 (its definition); Cauchy is Student's t
// with one degree of freedom.
func scalarCases() []lpdfCase {
	inf := math.Inf(1)
	return []lpdfCase{
		scalarCase("normal", ir.OpNormalLPDF, []elem{par(-3, 3), par(-2, 2), par(0.3, 3)},
			func(x ...float64) float64 { return distuv.Normal{Mu: x[1], Sigma: x[2]}.LogProb(x[0]) },
			[]float64{1, 0, 0}, []float64{1, 0, -1}),
		scalarCase("half_normal", ir.OpHalfNormalLPDF, []elem{par(0.1, 3), par(0.3, 3)},
			func(x ...float64) float64 { return math.Ln2 + distuv.Normal{Mu: 0, Sigma: x[1]}.LogProb(x[0]) },
			[]float64{-1, 1}, []float64{1, 0}),
		scalarCase("student_t", ir.OpStudentTLPDF, []elem{par(-3, 3), par(0.5, 8), par(-2, 2), par(0.3, 3)},
			func(x ...float64) float64 {
				return distuv.StudentsT{Mu: x[2], Sigma: x[3], Nu: x[1]}.LogProb(x[0])
			},
			[]float64{1, 0, 0, 1}, []float64{1, 3, 0, -1}),
		scalarCase("half_student_t", ir.OpHalfStudentTLPDF, []elem{par(0.1, 3), par(0.5, 8), par(0.3, 3)},
			func(x ...float64) float64 {
				return math.Ln2 + distuv.StudentsT{Mu: 0, Sigma: x[2], Nu: x[1]}.LogProb(x[0])
			},
			[]float64{-1, 3, 1}, []float64{1, -3, 1}, []float64{1, 3, 0}),
		scalarCase("cauchy", ir.OpCauchyLPDF, []elem{par(-3, 3), par(-2, 2), par(0.3, 3)},
			func(x ...float64) float64 { return distuv.StudentsT{Mu: x[1], Sigma: x[2], Nu: 1}.LogProb(x[0]) },
			[]float64{1, 0, 0}),
		scalarCase("half_cauchy", ir.OpHalfCauchyLPDF, []elem{par(0.1, 3), par(0.3, 3)},
			func(x ...float64) float64 { return math.Ln2 + distuv.StudentsT{Sigma: x[1], Nu: 1}.LogProb(x[0]) },
			[]float64{-0.5, 1}, []float64{1, -2}),
		// The Laplace density has a kink at y = μ; the ranges keep the
		// finite differences away from it.
		scalarCase("laplace", ir.OpLaplaceLPDF, []elem{par(0.5, 3), par(-2, 0), par(0.3, 3)},
			func(x ...float64) float64 { return distuv.Laplace{Mu: x[1], Scale: x[2]}.LogProb(x[0]) },
			[]float64{1, 0, 0}),
		// distuv.Logistic.LogProb ignores Mu and S (gonum v0.17.0), so
		// the oracle is the log of its Prob.
		scalarCase("logistic", ir.OpLogisticLPDF, []elem{par(-3, 3), par(-2, 2), par(0.3, 3)},
			func(x ...float64) float64 { return math.Log(distuv.Logistic{Mu: x[1], S: x[2]}.Prob(x[0])) },
			[]float64{1, 0, -1}),
		scalarCase("lognormal", ir.OpLogNormalLPDF, []elem{par(0.1, 5), par(-1, 1), par(0.3, 2)},
			func(x ...float64) float64 { return distuv.LogNormal{Mu: x[1], Sigma: x[2]}.LogProb(x[0]) },
			[]float64{-1, 0, 1}, []float64{0, 0, 1}, []float64{1, 0, 0}),
		scalarCase("exponential", ir.OpExponentialLPDF, []elem{par(0.01, 4), par(0.2, 3)},
			func(x ...float64) float64 { return distuv.Exponential{Rate: x[1]}.LogProb(x[0]) },
			[]float64{-1, 1}, []float64{1, 0}, []float64{1, -1}),
		scalarCase("gamma", ir.OpGammaLPDF, []elem{par(0.1, 5), par(0.5, 5), par(0.3, 3)},
			func(x ...float64) float64 { return distuv.Gamma{Alpha: x[1], Beta: x[2]}.LogProb(x[0]) },
			[]float64{-1, 2, 1}, []float64{1, -2, 1}, []float64{1, 2, 0}),
		scalarCase("inv_gamma", ir.OpInvGammaLPDF, []elem{par(0.1, 5), par(0.5, 5), par(0.3, 3)},
			func(x ...float64) float64 { return distuv.InverseGamma{Alpha: x[1], Beta: x[2]}.LogProb(x[0]) },
			[]float64{-1, 2, 1}, []float64{1, 0, 1}, []float64{1, 2, -1}),
		scalarCase("weibull", ir.OpWeibullLPDF, []elem{par(0.1, 4), par(0.5, 4), par(0.5, 3)},
			func(x ...float64) float64 { return distuv.Weibull{K: x[1], Lambda: x[2]}.LogProb(x[0]) },
			[]float64{-1, 2, 1}, []float64{1, 0, 1}, []float64{1, 2, -1}, []float64{1e5, 100, 1}),
		scalarCase("beta", ir.OpBetaLPDF, []elem{par(0.05, 0.95), par(0.5, 5), par(0.5, 5)},
			func(x ...float64) float64 { return distuv.Beta{Alpha: x[1], Beta: x[2]}.LogProb(x[0]) },
			[]float64{0, 2, 2}, []float64{1, 2, 2}, []float64{1.5, 2, 2}, []float64{0.5, -1, 2}, []float64{0.5, 2, 0}),
		scalarCase("uniform", ir.OpUniformLPDF, []elem{par(-0.9, 0.9), par(-3, -1), par(1, 3)},
			func(x ...float64) float64 { return distuv.Uniform{Min: x[1], Max: x[2]}.LogProb(x[0]) },
			[]float64{-2, -1, 1}, []float64{2, -1, 1}, []float64{0, 1, -1}, []float64{inf, 0, 1}),
	}
}

// discreteCases are the mass functions; the variates (and Binomial's n)
// are constant data. Oracles: gonum's distuv, with p = logistic(θ) or
// λ = exp(η) for the logit and log parameterisations; NegBinomial2 from
// the Stan Functions Reference, Γ(y+φ)/(y! Γ(φ)) · p^φ (1-p)^y with
// p = φ/(μ+φ).
func discreteCases() []lpdfCase {
	nan := math.NaN()
	return []lpdfCase{
		scalarCase("bernoulli", ir.OpBernoulliLPMF, []elem{dat(1, 0, 0, 1), par(0.05, 0.95)},
			func(x ...float64) float64 { return distuv.Bernoulli{P: x[1]}.LogProb(x[0]) },
			[]float64{2, 0.5}, []float64{0.5, 0.5}, []float64{1, 1.5}, []float64{0, -0.1}, []float64{1, 0}, []float64{0, 1}),
		scalarCase("bernoulli_logit", ir.OpBernoulliLogitLPMF, []elem{dat(1, 0, 0, 1), par(-4, 4)},
			func(x ...float64) float64 { return distuv.Bernoulli{P: logistic(x[1])}.LogProb(x[0]) },
			[]float64{2, 0.5}, []float64{-1, 0.5}, []float64{1, nan}),
		scalarCase("binomial", ir.OpBinomialLPMF, []elem{dat(3, 0, 5, 7), dat(10, 4, 5, 12), par(0.05, 0.95)},
			func(x ...float64) float64 { return distuv.Binomial{N: x[1], P: x[2]}.LogProb(x[0]) },
			[]float64{5, 4, 0.5}, []float64{-1, 4, 0.5}, []float64{1.5, 4, 0.5}, []float64{1, 4, 1.5}, []float64{1, 4, 0}),
		scalarCase("binomial_logit", ir.OpBinomialLogitLPMF, []elem{dat(3, 0, 5, 7), dat(10, 4, 5, 12), par(-3, 3)},
			func(x ...float64) float64 { return distuv.Binomial{N: x[1], P: logistic(x[2])}.LogProb(x[0]) },
			[]float64{5, 4, 0.5}, []float64{1, 2.5, 0.5}, []float64{1, 4, nan}),
		scalarCase("poisson", ir.OpPoissonLPMF, []elem{dat(0, 3, 1, 12), par(0.2, 8)},
			func(x ...float64) float64 { return distuv.Poisson{Lambda: x[1]}.LogProb(x[0]) },
			[]float64{-1, 1}, []float64{1.5, 1}, []float64{1, -1}, []float64{1, 0}),
		scalarCase("poisson_log", ir.OpPoissonLogLPMF, []elem{dat(0, 3, 1, 12), par(-2, 2.5)},
			func(x ...float64) float64 { return distuv.Poisson{Lambda: math.Exp(x[1])}.LogProb(x[0]) },
			[]float64{-1, 1}, []float64{1.5, 1}, []float64{1, nan}, []float64{1, 800}),
		scalarCase("neg_binomial_2", ir.OpNegBinomialLPMF, []elem{dat(0, 3, 1, 12), par(0.2, 8), par(0.3, 10)},
			func(x ...float64) float64 {
				y, mu, phi := x[0], x[1], x[2]
				p := phi / (mu + phi)
				a, _ := math.Lgamma(y + phi)
				b, _ := math.Lgamma(y + 1)
				c, _ := math.Lgamma(phi)
				return a - b - c + phi*math.Log(p) + y*math.Log(1-p)
			},
			[]float64{-1, 1, 1}, []float64{1.5, 1, 1}, []float64{1, 0, 1}, []float64{1, 1, -1}),
		// Beta-binomial from its product form, C(n, y)·a^(y)·b^(n-y)/(a+b)^(n)
		// with rising factorials x^(k) = x(x+1)…(x+k-1): no lgamma or lbeta.
		scalarCase("beta_binomial", ir.OpBetaBinomialLPMF, []elem{dat(3, 0, 5, 7), dat(10, 4, 5, 12), par(0.3, 6), par(0.3, 6)},
			func(x ...float64) float64 {
				y, n, a, b := x[0], x[1], x[2], x[3]
				lp := math.Log(distuv.Binomial{N: n, P: 0.5}.Prob(y)) + n*math.Ln2 // log C(n, y)
				for i := 0.0; i < y; i++ {
					lp += math.Log(a + i)
				}
				for j := 0.0; j < n-y; j++ {
					lp += math.Log(b + j)
				}
				for k := 0.0; k < n; k++ {
					lp -= math.Log(a + b + k)
				}
				return lp
			},
			[]float64{5, 4, 1, 1}, []float64{-1, 4, 1, 1}, []float64{1.5, 4, 1, 1}, []float64{1, 2.5, 1, 1},
			[]float64{1, 4, 0, 1}, []float64{1, 4, 1, -1}, []float64{1, 4, nan, 1}),
		// Zero-inflated Poisson: a mixture of a point mass at zero and
		// gonum's Poisson, psi the Poisson's weight (PyMC's convention).
		scalarCase("zero_inflated_poisson", ir.OpZeroInflatedPoissonLPMF, []elem{dat(0, 3, 0, 12), par(0.05, 0.95), par(0.2, 8)},
			func(x ...float64) float64 {
				y, psi, lam := x[0], x[1], x[2]
				pois := distuv.Poisson{Lambda: lam}
				if y == 0 {
					return math.Log(1 - psi + psi*pois.Prob(0))
				}
				return math.Log(psi) + pois.LogProb(y)
			},
			[]float64{-1, 0.5, 1}, []float64{1.5, 0.5, 1}, []float64{1, 1.5, 1}, []float64{0, -0.5, 1}, []float64{1, 0.5, 0}, []float64{0, 0.5, -1}),
		// The zero-inflated negative binomial and the hurdles, from
		// gonum's Poisson and the negative binomial's mass summed up to
		// y = 0 by nbProb (no lgamma of the formulas).
		scalarCase("zero_inflated_neg_binomial", ir.OpZeroInflatedNegBinomialLPMF, []elem{dat(0, 3, 0, 12), par(0.05, 0.95), par(0.2, 8), par(0.3, 10)},
			func(x ...float64) float64 {
				y, psi, mu, phi := x[0], x[1], x[2], x[3]
				if y == 0 {
					return math.Log(1 - psi + psi*nbProb(0, mu, phi))
				}
				return math.Log(psi) + math.Log(nbProb(y, mu, phi))
			},
			[]float64{-1, 0.5, 1, 1}, []float64{1.5, 0.5, 1, 1}, []float64{1, 1.5, 1, 1}, []float64{0, 0.5, 0, 1}, []float64{1, 0.5, 1, -1}),
		scalarCase("hurdle_poisson", ir.OpHurdlePoissonLPMF, []elem{dat(0, 3, 1, 12), par(0.05, 0.95), par(0.2, 8)},
			func(x ...float64) float64 {
				y, psi, lam := x[0], x[1], x[2]
				pois := distuv.Poisson{Lambda: lam}
				if y == 0 {
					return math.Log(1 - psi)
				}
				return math.Log(psi * pois.Prob(y) / (1 - pois.Prob(0)))
			},
			[]float64{-1, 0.5, 1}, []float64{1.5, 0.5, 1}, []float64{1, 1.5, 1}, []float64{0, 1, 1}, []float64{2, 0, 1}, []float64{1, 0.5, 0}),
		scalarCase("hurdle_neg_binomial", ir.OpHurdleNegBinomialLPMF, []elem{dat(0, 3, 1, 12), par(0.05, 0.95), par(0.2, 8), par(0.3, 10)},
			func(x ...float64) float64 {
				y, psi, mu, phi := x[0], x[1], x[2], x[3]
				if y == 0 {
					return math.Log(1 - psi)
				}
				return math.Log(psi * nbProb(y, mu, phi) / (1 - nbProb(0, mu, phi)))
			},
			[]float64{-1, 0.5, 1, 1}, []float64{1.5, 0.5, 1, 1}, []float64{0, 1, 1, 1}, []float64{2, 0, 1, 1}, []float64{1, 0.5, -1, 1}),
	}
}

// nbProb is neg_binomial_2's mass at y by its recurrence from zero:
// p(0) = (φ/(μ+φ))^φ, p(k+1) = p(k)·(k+φ)/(k+1)·μ/(μ+φ).
func nbProb(y, mu, phi float64) float64 {
	p := math.Pow(phi/(mu+phi), phi)
	for k := 0.0; k < y; k++ {
		p *= (k + phi) / (k + 1) * mu / (mu + phi)
	}
	return p
}

// rowsOf splits v into rows of k (a single row repeats for n events).
func rowsOf(v []float64, k, n int) [][]float64 {
	out := make([][]float64, n)
	for i := range out {
		if len(v) == k {
			out[i] = v
		} else {
			out[i] = v[i*k : i*k+k]
		}
	}
	return out
}

func softmax(x []float64) []float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = math.Max(m, v)
	}
	w := make([]float64, len(x))
	s := 0.0
	for i, v := range x {
		w[i] = math.Exp(v - m)
		s += w[i]
	}
	for i := range w {
		w[i] /= s
	}
	return w
}

// multivariateCases are the event families. Oracles (gonum's distmv
// cannot be imported: its go.sum entries are missing): gonum's
// distuv.Categorical (weights softmax(logits)); the Dirichlet density's
// definition, lgamma(Σα) - Σ lgamma(α_k) + Σ (α_k-1) log y_k, which like
// the op does not require y to sum to one; the multivariate normal from
// gonum's own Cholesky factorisation of the covariance Σ = L·Lᵀ,
// -½(K log 2π + log|Σ| + rᵀΣ⁻¹r); LKJ for K = 2 in closed form: the density of the
// correlation r = L₂₁ is (1-r²)^(η-1) / (2^(2η-1) B(η, η)), and
// 1 - r² = L₂₂² (the normalisation for larger K is TestLKJNormalised).
func multivariateCases() []lpdfCase {
	const n, k = 4, 3
	cat := func(v [][]float64) []float64 {
		y, lg := v[0], v[1]
		ev := max(len(y), len(lg)/k)
		rows := rowsOf(lg, k, ev)
		out := make([]float64, ev)
		for i := range out {
			out[i] = distuv.NewCategorical(softmax(rows[i]), nil).LogProb(y[min(i, len(y)-1)])
		}
		return out
	}
	dir := func(v [][]float64) []float64 {
		ev := max(len(v[0]), len(v[1])) / k
		ys, as := rowsOf(v[0], k, ev), rowsOf(v[1], k, ev)
		out := make([]float64, ev)
		for i := range out {
			sa, c := 0.0, 0.0
			for j, a := range as[i] {
				lg, _ := math.Lgamma(a)
				sa += a
				c += (a-1)*math.Log(ys[i][j]) - lg
			}
			lg, _ := math.Lgamma(sa)
			out[i] = c + lg
		}
		return out
	}
	mvn := func(v [][]float64) []float64 {
		ev := max(len(v[0]), len(v[1])) / k
		ys, ms := rowsOf(v[0], k, ev), rowsOf(v[1], k, ev)
		lo := mat.NewTriDense(k, mat.Lower, nil)
		for i := 0; i < k; i++ {
			for j := 0; j <= i; j++ {
				lo.SetTri(i, j, v[2][i*k+j])
			}
		}
		cov := mat.NewSymDense(k, nil)
		cov.SymOuterK(1, lo)
		var ch mat.Cholesky
		if !ch.Factorize(cov) {
			panic("covariance not positive definite")
		}
		out := make([]float64, ev)
		for i := range out {
			r := mat.NewVecDense(k, nil)
			for j := range k {
				r.SetVec(j, ys[i][j]-ms[i][j])
			}
			var sol mat.VecDense
			if err := ch.SolveVecTo(&sol, r); err != nil {
				panic(err)
			}
			out[i] = -0.5*float64(k)*math.Log(2*math.Pi) - 0.5*ch.LogDet() - 0.5*mat.Dot(r, &sol)
		}
		return out
	}
	lkj2 := func(v [][]float64) []float64 {
		eta, l22 := v[1][0], v[0][3]
		return []float64{(eta-1)*math.Log(l22*l22) - (2*eta-1)*math.Ln2 - mathext.Lbeta(eta, eta)}
	}
	P, C := irtest.Param, irtest.Const
	vec := []int{n}
	return []lpdfCase{
		{name: "categorical_logit", op: ir.OpCategoricalLogitLPMF, want: cat,
			configs: [][]irtest.Arg{
				{C(vec, 0, 2, 1, 2), P(-2, 2, k)},
				{C(vec, 0, 2, 1, 2), P(-2, 2, n, k)},
				{C(nil, 1), P(-2, 2, k)},
				{C(nil, 2), P(-2, 2, n, k)},
			},
			outside: [][][]float64{{{3}, {0, 1, 2}}, {{-1}, {0, 1, 2}}, {{0.5}, {0, 1, 2}}}},
		{name: "dirichlet", op: ir.OpDirichletLPDF, want: dir,
			configs: [][]irtest.Arg{
				{P(0.05, 0.6, k), P(0.5, 4, k)},
				{P(0.05, 0.6, n, k), P(0.5, 4, k)},
				{P(0.05, 0.6, n, k), P(0.5, 4, n, k)},
				{C([]int{2, k}, 0.2, 0.3, 0.5, 0.6, 0.1, 0.3), P(0.5, 4, k)},
			},
			outside: [][][]float64{{{0, 0.5, 0.5}, {1, 1, 1}}, {{0.2, 0.3, 0.5}, {1, 0, 1}}, {{-0.2, 0.7, 0.5}, {1, 2, 1}}}},
		{name: "multi_normal_cholesky", op: ir.OpMultiNormalCholLPDF, want: mvn,
			configs: [][]irtest.Arg{
				{P(-2, 2, k), P(-1, 1, k), P(0.5, 1.5, k, k)},
				{P(-2, 2, n, k), P(-1, 1, k), P(0.5, 1.5, k, k)},
				{P(-2, 2, n, k), P(-1, 1, n, k), P(0.5, 1.5, k, k)},
				{C([]int{2, k}, 1, 2, 3, -1, 0, 1), P(-1, 1, k), P(0.5, 1.5, k, k)},
			},
			outside: [][][]float64{
				{{0, 0}, {0, 0}, {1, 0, 0.5, 0}},
				{{0, 0}, {0, 0}, {-1, 0, 0.5, 1}},
			},
			outsideShapes: [][]int{{2}, {2}, {2, 2}}},
		{name: "lkj_corr_cholesky", op: ir.OpLKJCorrCholLPDF, want: lkj2,
			configs:       [][]irtest.Arg{{P(0.2, 0.99, 2, 2), P(0.5, 4)}},
			outside:       [][][]float64{{{1, 0, 0.5, 0}, {2}}, {{1, 0, 0.5, 0.8}, {0}}},
			outsideShapes: [][]int{{2, 2}, nil}},
	}
}

func allLPDFCases() []lpdfCase {
	return append(append(append(scalarCases(), tailCases()...), discreteCases()...), multivariateCases()...)
}

// TestLogDensities runs the property suite over every log-density op:
// value against the oracle, pointwise terms summing to the scalar mode,
// gradients with respect to every parameter input against finite
// differences (in both modes: the pointwise output is weighted, see
// irtest.OpProgram), no allocation, and -Inf outside the support.
func TestLogDensities(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, c := range allLPDFCases() {
		t.Run(c.name, func(t *testing.T) {
			for k, args := range c.configs {
				sum, err := irtest.OpProgram(c.op, nil, nil, args...)
				if err != nil {
					t.Fatalf("config %d: %v", k, err)
				}
				pw, err := irtest.OpProgram(c.op, []int{1}, nil, args...)
				if err != nil {
					t.Fatalf("config %d pointwise: %v", k, err)
				}
				for range 3 {
					x := irtest.Point(rng, args...)
					want := c.want(irtest.Values(x, args...))
					terms := irtest.Output(pw, x, irtest.OutputName)
					if len(terms) != len(want) {
						t.Fatalf("config %d: %d pointwise terms, oracle %d", k, len(terms), len(want))
					}
					total := 0.0
					for i := range want {
						total += want[i]
						if !close(terms[i], want[i], 1e-10) {
							t.Errorf("config %d: term %d = %.15g, oracle %.15g at %v", k, i, terms[i], want[i], irtest.Values(x, args...))
						}
					}
					got := irtest.Output(sum, x, irtest.OutputName)[0]
					if !close(got, total, 1e-10) {
						t.Errorf("config %d: sum = %.15g, oracle %.15g", k, got, total)
					}
					if s := sumOf(terms); !close(s, got, 1e-12) {
						t.Errorf("config %d: pointwise terms sum to %.15g, scalar mode gives %.15g", k, s, got)
					}
					irtest.CheckGradient(t, sum, x, 1e-6)
					irtest.CheckGradient(t, pw, x, 1e-6)
				}
				x := irtest.Point(rng, args...)
				irtest.CheckNoAllocs(t, sum, x)
				irtest.CheckNoAllocs(t, pw, x)
			}
			for _, o := range c.outside {
				checkOutside(t, c.op, o, c.outsideShapes)
			}
		})
	}
}

// checkOutside checks that the op gives -Inf (not NaN) at inputs o, in
// both modes, and that its gradient sweep stays finite there.
func checkOutside(t *testing.T, op ir.Op, o [][]float64, shapes [][]int) {
	t.Helper()
	args := make([]irtest.Arg, len(o))
	var x []float64
	for i, v := range o {
		var shape []int
		if shapes != nil {
			shape = shapes[i]
		} else if len(v) > 1 {
			shape = []int{len(v)}
		}
		args[i] = irtest.Param(0, 0, shape...)
		x = append(x, v...)
	}
	for _, ints := range [][]int{nil, {1}} {
		p, err := irtest.OpProgram(op, ints, nil, args...)
		if err != nil {
			t.Fatal(err)
		}
		out := irtest.Output(p, x, irtest.OutputName)
		for _, v := range out {
			if !math.IsInf(v, -1) {
				t.Errorf("%s%v at %v = %v, want -Inf", op, ints, o, v)
			}
		}
		g := make([]float64, len(x))
		ir.NewFrame(p).Gradient(x, g)
		for i, v := range g {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s%v at %v: gradient[%d] = %v, want finite", op, ints, o, i, v)
			}
		}
	}
}

func close(a, b, tol float64) bool {
	if math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

func sumOf(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// TestLKJNormalised checks the LKJ normalising constant for K = 2..5: the
// density of the Cholesky factor integrates to one over its free entries.
// Row r of L holds a point u of the r-dimensional unit ball and
// L_rr = √(1-|u|²), and the log density is a sum of one term per row, so
// the integral is a product over rows of radial integrals
// S_(r-1) ∫₀¹ h_r(ρ) ρ^(r-1) dρ (S the area of the unit sphere), each taken
// by Gauss–Legendre quadrature after ρ = sin θ.
func TestLKJNormalised(t *testing.T) {
	for _, k := range []int{2, 3, 4, 5} {
		for _, eta := range []float64{1, 1.5, 3} {
			lp := func(row int, rho float64) float64 {
				l := make([]float64, k*k)
				for j := range k {
					l[j*k+j] = 1
				}
				if row > 0 {
					l[row*k] = rho
					l[row*k+row] = math.Sqrt(1 - rho*rho)
				}
				p, err := irtest.OpProgram(ir.OpLKJCorrCholLPDF, nil, nil,
					irtest.Const([]int{k, k}, l...), irtest.Const(nil, eta))
				if err != nil {
					t.Fatal(err)
				}
				return irtest.Output(p, nil, irtest.OutputName)[0]
			}
			base := lp(0, 0)
			total := math.Exp(base)
			for r := 1; r < k; r++ {
				radial := quad.Fixed(func(th float64) float64 {
					rho := math.Sin(th)
					return math.Exp(lp(r, rho)-base) * math.Pow(rho, float64(r-1)) * math.Cos(th)
				}, 0, math.Pi/2, 60, nil, 0)
				g, _ := math.Lgamma(float64(r) / 2)
				sphere := 2 * math.Pow(math.Pi, float64(r)/2) / math.Exp(g)
				total *= sphere * radial
			}
			if math.Abs(total-1) > 1e-9 {
				t.Errorf("K=%d η=%v: density integrates to %.12g, want 1", k, eta, total)
			}
		}
	}
}

// TestLPDFShapeErrors checks that the builder rejects arguments whose
// shapes do not fit, with an error rather than a panic at run time.
func TestLPDFShapeErrors(t *testing.T) {
	P := irtest.Param
	for _, c := range []struct {
		name string
		op   ir.Op
		ints []int
		args []irtest.Arg
	}{
		{"lengths 3 and 4", ir.OpNormalLPDF, nil, []irtest.Arg{P(0, 1, 3), P(0, 1, 4), P(1, 2)}},
		{"bad immediate", ir.OpNormalLPDF, []int{2}, []irtest.Arg{P(0, 1, 3), P(0, 1), P(1, 2)}},
		{"categorical logits rank 3", ir.OpCategoricalLogitLPMF, nil, []irtest.Arg{irtest.Const(nil, 0), P(0, 1, 2, 2, 2)}},
		{"categorical 3 outcomes, 2 rows", ir.OpCategoricalLogitLPMF, nil, []irtest.Arg{irtest.Const([]int{3}, 0, 1, 0), P(0, 1, 2, 4)}},
		{"dirichlet K mismatch", ir.OpDirichletLPDF, nil, []irtest.Arg{P(0, 1, 3), P(1, 2, 4)}},
		{"dirichlet rows mismatch", ir.OpDirichletLPDF, nil, []irtest.Arg{P(0, 1, 2, 3), P(1, 2, 5, 3)}},
		{"multi-normal factor not K×K", ir.OpMultiNormalCholLPDF, nil, []irtest.Arg{P(0, 1, 3), P(0, 1, 3), P(1, 2, 2, 2)}},
		{"multi-normal rank-3 variate", ir.OpMultiNormalCholLPDF, nil, []irtest.Arg{P(0, 1, 2, 2, 2), P(0, 1, 2), P(1, 2, 2, 2)}},
		{"lkj factor not square", ir.OpLKJCorrCholLPDF, nil, []irtest.Arg{P(0, 1, 2, 3), P(1, 2)}},
		{"lkj vector eta", ir.OpLKJCorrCholLPDF, nil, []irtest.Arg{P(0, 1, 2, 2), P(1, 2, 2)}},
	} {
		if _, err := irtest.OpProgram(c.op, c.ints, nil, c.args...); err == nil {
			t.Errorf("%s: want a shape error", c.name)
		}
	}
}

// TestLPDFConstantOutside checks -Inf where constant data (which ops
// cache per frame) put an element outside the support: a zero σ among
// normal measurement errors, a non-integer count, observations outside a
// continuous support.
func TestLPDFConstantOutside(t *testing.T) {
	for _, c := range []struct {
		name string
		op   ir.Op
		args []irtest.Arg
	}{
		{"normal σ = 0", ir.OpNormalLPDF, []irtest.Arg{irtest.Param(0, 1, 2), irtest.Param(0, 1), irtest.Const([]int{2}, 1, 0)}},
		{"poisson_log y = 1.5", ir.OpPoissonLogLPMF, []irtest.Arg{irtest.Const([]int{2}, 1, 1.5), irtest.Param(0, 1, 2)}},
		{"neg_binomial_2 y = -1", ir.OpNegBinomialLPMF, []irtest.Arg{irtest.Const([]int{2}, 1, -1), irtest.Param(1, 2), irtest.Param(1, 2)}},
		{"gamma y = 0", ir.OpGammaLPDF, []irtest.Arg{irtest.Const([]int{2}, 1, 0), irtest.Param(1, 2), irtest.Param(1, 2)}},
		{"beta y = 1", ir.OpBetaLPDF, []irtest.Arg{irtest.Const([]int{2}, 0.5, 1), irtest.Param(1, 2), irtest.Param(1, 2)}},
		{"lognormal y = -1", ir.OpLogNormalLPDF, []irtest.Arg{irtest.Const([]int{2}, 0.5, -1), irtest.Param(1, 2), irtest.Param(1, 2)}},
		{"binomial y > n", ir.OpBinomialLPMF, []irtest.Arg{irtest.Const([]int{2}, 1, 5), irtest.Const([]int{2}, 3, 4), irtest.Param(0.2, 0.8)}},
	} {
		p, err := irtest.OpProgram(c.op, []int{1}, nil, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		x := irtest.Point(rand.New(rand.NewPCG(1, 1)), c.args...)
		f := ir.NewFrame(p)
		g := make([]float64, p.Dim)
		for range 2 { // the second pass reads the cache
			f.Gradient(x, g)
			out := f.Val(p.Output(irtest.OutputName))
			if math.IsInf(out[0], 0) || math.IsNaN(out[0]) || !math.IsInf(out[1], -1) {
				t.Errorf("%s: terms %v, want [finite -Inf]", c.name, out)
			}
			for i, v := range g {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%s: gradient[%d] = %v", c.name, i, v)
				}
			}
		}
	}
}

// TestLPDFCoverage fails for any log-density op that is not implemented
// or that the suite above does not exercise.
func TestLPDFCoverage(t *testing.T) {
	covered := map[ir.Op]bool{}
	for _, c := range allLPDFCases() {
		covered[c.op] = true
	}
	for op := ir.OpNormalLPDF; op < ir.NumOps; op++ {
		if ir.Def(op).Forward == nil {
			t.Errorf("%v has no implementation", op)
		}
		if !covered[op] {
			t.Errorf("%v is not in the log-density suite", op)
		}
	}
}

// TestPoissonLogOverflow covers the fast loop of observed counts with a
// log rate per count: an overflowing rate makes the sum -Inf (not NaN) and
// the gradient stays finite, while an underflowing one (rate 0) leaves a
// zero count's term finite.
func TestPoissonLogOverflow(t *testing.T) {
	for _, c := range []struct {
		eta    []float64
		finite bool
	}{
		{[]float64{0.5, 800}, false},
		{[]float64{math.Inf(-1), 0.5}, true},
	} {
		args := []irtest.Arg{irtest.Const([]int{2}, 0, 3), irtest.Param(0, 0, 2)}
		p, err := irtest.OpProgram(ir.OpPoissonLogLPMF, nil, nil, args...)
		if err != nil {
			t.Fatal(err)
		}
		f := ir.NewFrame(p)
		g := make([]float64, 2)
		for range 2 {
			lp := f.Gradient(c.eta, g)
			if c.finite {
				// log p(0 | rate 0) = 0; log p(3 | e^0.5) = 1.5 - e^0.5 - log 6.
				if w := 1.5 - math.Exp(0.5) - math.Log(6); math.Abs(lp-w) > 1e-12 {
					t.Errorf("eta %v: log density %v, want %v", c.eta, lp, w)
				}
			} else if !math.IsInf(lp, -1) {
				t.Errorf("eta %v: log density %v, want -Inf", c.eta, lp)
			}
			for i, v := range g {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("eta %v: gradient[%d] = %v", c.eta, i, v)
				}
			}
		}
	}
}
