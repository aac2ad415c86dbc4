package posteriordb

import (
	"fmt"
	"math"

	"github.com/gobayes/gobayes/ppl"
)

// Model writes the model of case c (a posteriordb case, or
// SimulatedLogistic's) with package ppl. name is the case's name, usually
// c.Name. Parameter names follow model.md; quantities the reference
// reports but the model derives (eight schools' theta, gp_pois_regr's f)
// are Deterministic.
//
// Each case's function below is meant to be read: it is how the model is
// written in gobayes.
func Model(name string, c *Case) (m *ppl.Model, err error) {
	build, ok := modelBuilders[name]
	if !ok {
		return nil, fmt.Errorf("posteriordb: no model for case %q; Cases() lists the known names", name)
	}
	defer ppl.Catch(&err)
	d := &dataReader{c: c}
	m = build(d)
	if d.err != nil {
		return nil, d.err
	}
	if err := m.Err(); err != nil {
		return nil, err
	}
	return m, nil
}

// A builder writes one model from the case's data; it returns nil when
// the data cannot be read (d.err says why).
type builder func(d *dataReader) *ppl.Model

var modelBuilders = map[string]builder{
	"eight_schools-eight_schools_noncentered": eightSchoolsNoncentered,
	"eight_schools-eight_schools_centered":    eightSchoolsCentered,
	"sblrc-blr":                               blr,
	"kidiq-kidscore_momhs":                    kidscoreMomhs,
	"kidiq-kidscore_interaction":              kidscoreInteraction,
	"earnings-earn_height":                    earnHeight,
	"earnings-logearn_interaction":            logearnInteraction,
	"mesquite-logmesquite":                    logmesquite,
	"nes2000-nes":                             nes,
	"kilpisjarvi_mod-kilpisjarvi":             kilpisjarvi,
	"arK-arK":                                 arK,
	"arma-arma11":                             arma11,
	"garch-garch11":                           garch11,
	"gp_pois_regr-gp_regr":                    gpRegr,
	"gp_pois_regr-gp_pois_regr":               gpPoisRegr,
	"low_dim_gauss_mix-low_dim_gauss_mix":     lowDimGaussMix,
	"hmm_example-hmm_example":                 hmmExample,
	LogisticName:                              logisticRegression,
}

// dataReader reads data fields, keeping the first error so that the model
// code below reads like the model.
type dataReader struct {
	c   *Case
	err error
}

func (d *dataReader) floats(name string) []float64 {
	v, err := d.c.Floats(name)
	if d.err == nil {
		d.err = err
	}
	return v
}

func (d *dataReader) float(name string) float64 {
	v, err := d.c.Float(name)
	if d.err == nil {
		d.err = err
	}
	return v
}

func (d *dataReader) int(name string) int {
	v, err := d.c.Int(name)
	if d.err == nil {
		d.err = err
	}
	return v
}

func (d *dataReader) matrix(name string) [][]float64 {
	v, err := d.c.Matrix(name)
	if d.err == nil {
		d.err = err
	}
	return v
}

func (d *dataReader) failed() bool { return d.err != nil }

// designMatrix puts columns side by side: row n is (cols[0][n], cols[1][n], …).
func designMatrix(cols ...[]float64) [][]float64 {
	X := make([][]float64, len(cols[0]))
	for n := range X {
		X[n] = make([]float64, len(cols))
		for j, col := range cols {
			X[n][j] = col[n]
		}
	}
	return X
}

func constant(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func logs(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Log(x)
	}
	return out
}

func times(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] * b[i]
	}
	return out
}

// eight_schools-eight_schools_noncentered: the school effects are
// theta = mu + tau·theta_tilde with standard normal theta_tilde, which
// removes the funnel between tau and theta.
func eightSchoolsNoncentered(d *dataReader) *ppl.Model {
	y, sigma := d.floats("y"), d.floats("sigma")
	if d.failed() {
		return nil
	}
	m := ppl.NewModel("eight_schools_noncentered")
	mu := m.Normal("mu", 0, 5)
	tau := m.HalfCauchy("tau", 5)
	thetaTilde := m.Normal("theta_tilde", 0, 1, ppl.Size(len(y)))
	theta := m.Deterministic("theta", ppl.Add(mu, ppl.Mul(tau, thetaTilde)))
	m.Normal("y", theta, sigma).Observe(y)
	return m
}

// eight_schools-eight_schools_centered: the same model written directly;
// NUTS meets the funnel and reports divergences.
func eightSchoolsCentered(d *dataReader) *ppl.Model {
	y, sigma := d.floats("y"), d.floats("sigma")
	if d.failed() {
		return nil
	}
	m := ppl.NewModel("eight_schools_centered")
	mu := m.Normal("mu", 0, 5)
	tau := m.HalfCauchy("tau", 5)
	theta := m.Normal("theta", mu, tau, ppl.Size(len(y)))
	m.Normal("y", theta, sigma).Observe(y)
	return m
}

// sblrc-blr: Bayesian linear regression, y ~ Normal(X·beta, sigma).
func blr(d *dataReader) *ppl.Model {
	X, y := d.matrix("X"), d.floats("y")
	if d.failed() {
		return nil
	}
	m := ppl.NewModel("blr")
	beta := m.Normal("beta", 0, 10, ppl.Size(len(X[0])))
	sigma := m.HalfNormal("sigma", 10)
	m.Normal("y", ppl.MatVec(X, beta), sigma).Observe(y)
	return m
}

// kidiq-kidscore_momhs: kid_score ~ Normal(beta[1] + beta[2]·mom_hs, sigma).
func kidscoreMomhs(d *dataReader) *ppl.Model {
	score, hs := d.floats("kid_score"), d.floats("mom_hs")
	if d.failed() {
		return nil
	}
	X := designMatrix(constant(len(hs), 1), hs)
	m := ppl.NewModel("kidscore_momhs")
	beta := m.Flat("beta", ppl.Size(2))
	sigma := m.HalfCauchy("sigma", 2.5)
	m.Normal("kid_score", ppl.MatVec(X, beta), sigma).Observe(score)
	return m
}

// kidiq-kidscore_interaction: the mother's IQ, her high school and their
// interaction as predictors.
func kidscoreInteraction(d *dataReader) *ppl.Model {
	score, hs, iq := d.floats("kid_score"), d.floats("mom_hs"), d.floats("mom_iq")
	if d.failed() {
		return nil
	}
	X := designMatrix(constant(len(hs), 1), hs, iq, times(hs, iq))
	m := ppl.NewModel("kidscore_interaction")
	beta := m.Flat("beta", ppl.Size(4))
	sigma := m.HalfCauchy("sigma", 2.5)
	m.Normal("kid_score", ppl.MatVec(X, beta), sigma).Observe(score)
	return m
}

// earnings-earn_height: earn ~ Normal(beta[1] + beta[2]·height, sigma).
func earnHeight(d *dataReader) *ppl.Model {
	earn, height := d.floats("earn"), d.floats("height")
	if d.failed() {
		return nil
	}
	X := designMatrix(constant(len(height), 1), height)
	m := ppl.NewModel("earn_height")
	beta := m.Flat("beta", ppl.Size(2))
	sigma := m.HalfFlat("sigma")
	m.Normal("earn", ppl.MatVec(X, beta), sigma).Observe(earn)
	return m
}

// earnings-logearn_interaction: log earnings on height, sex and their
// interaction.
func logearnInteraction(d *dataReader) *ppl.Model {
	earn, height, male := d.floats("earn"), d.floats("height"), d.floats("male")
	if d.failed() {
		return nil
	}
	X := designMatrix(constant(len(height), 1), height, male, times(height, male))
	m := ppl.NewModel("logearn_interaction")
	beta := m.Flat("beta", ppl.Size(4))
	sigma := m.HalfFlat("sigma")
	m.Normal("log_earn", ppl.MatVec(X, beta), sigma).Observe(logs(earn))
	return m
}

// mesquite-logmesquite: log weight on the logs of the shrubs' sizes and
// on their group.
func logmesquite(d *dataReader) *ppl.Model {
	weight := d.floats("weight")
	diam1, diam2 := d.floats("diam1"), d.floats("diam2")
	canopy, total := d.floats("canopy_height"), d.floats("total_height")
	density, group := d.floats("density"), d.floats("group")
	if d.failed() {
		return nil
	}
	X := designMatrix(constant(len(weight), 1), logs(diam1), logs(diam2), logs(canopy), logs(total), logs(density), group)
	m := ppl.NewModel("logmesquite")
	beta := m.Flat("beta", ppl.Size(7))
	sigma := m.HalfFlat("sigma")
	m.Normal("log_weight", ppl.MatVec(X, beta), sigma).Observe(logs(weight))
	return m
}

// nes2000-nes: party identification on ideology, race, age group,
// education, gender and income.
func nes(d *dataReader) *ppl.Model {
	party, ideo, race := d.floats("partyid7"), d.floats("real_ideo"), d.floats("race_adj")
	age, educ, gender, income := d.floats("age_discrete"), d.floats("educ1"), d.floats("gender"), d.floats("income")
	if d.failed() {
		return nil
	}
	ageIs := func(level float64) []float64 {
		out := make([]float64, len(age))
		for i, a := range age {
			if a == level {
				out[i] = 1
			}
		}
		return out
	}
	X := designMatrix(constant(len(age), 1), ideo, race, ageIs(2), ageIs(3), ageIs(4), educ, gender, income)
	m := ppl.NewModel("nes")
	beta := m.Flat("beta", ppl.Size(9))
	sigma := m.HalfFlat("sigma")
	m.Normal("partyid7", ppl.MatVec(X, beta), sigma).Observe(party)
	return m
}

// kilpisjarvi_mod-kilpisjarvi: a linear trend in the summer temperature,
// with informative priors.
func kilpisjarvi(d *dataReader) *ppl.Model {
	x, y := d.floats("x"), d.floats("y")
	pmualpha, psalpha := d.float("pmualpha"), d.float("psalpha")
	pmubeta, psbeta := d.float("pmubeta"), d.float("psbeta")
	if d.failed() {
		return nil
	}
	m := ppl.NewModel("kilpisjarvi")
	alpha := m.Normal("alpha", pmualpha, psalpha)
	beta := m.Normal("beta", pmubeta, psbeta)
	sigma := m.HalfFlat("sigma")
	m.Normal("y", ppl.Add(alpha, ppl.Mul(beta, x)), sigma).Observe(y)
	return m
}

// arK-arK: an autoregression of order K. The lagged values are data, so
// the means are a matrix–vector product: row t of the lag matrix holds
// y[t-1], …, y[t-K].
func arK(d *dataReader) *ppl.Model {
	K, y := d.int("K"), d.floats("y")
	if d.failed() {
		return nil
	}
	lags := make([][]float64, len(y)-K)
	for t := K; t < len(y); t++ {
		lags[t-K] = make([]float64, K)
		for k := 1; k <= K; k++ {
			lags[t-K][k-1] = y[t-k]
		}
	}
	m := ppl.NewModel("arK")
	alpha := m.Normal("alpha", 0, 10)
	beta := m.Normal("beta", 0, 10, ppl.Size(K))
	sigma := m.HalfCauchy("sigma", 2.5)
	m.Normal("y", ppl.Add(alpha, ppl.MatVec(lags, beta)), sigma).Observe(y[K:])
	return m
}

// arma-arma11: the moving-average part makes each error depend on the
// previous one, a recurrence written with ppl.Scan:
//
//	err[1] = y[1] - (mu + phi·mu)
//	err[t] = y[t] - (mu + phi·y[t-1] + theta·err[t-1]),  t = 2..T
func arma11(d *dataReader) *ppl.Model {
	y := d.floats("y")
	if d.failed() {
		return nil
	}
	T := len(y)
	m := ppl.NewModel("arma11")
	mu := m.Normal("mu", 0, 10)
	phi := m.Normal("phi", 0, 2)
	theta := m.Normal("theta", 0, 2)
	sigma := m.HalfCauchy("sigma", 2.5)
	err1 := ppl.Sub(y[0], ppl.Add(mu, ppl.Mul(phi, mu)))
	// The step sees the previous error (carried) and y[t-1], y[t] (rows of
	// the two sequences).
	errs := ppl.Scan(T-1, []any{err1}, []any{y[:T-1], y[1:]}, func(c, x []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		prevErr, prevY, yt := c[0], x[0], x[1]
		nu := ppl.Add(mu, ppl.Add(ppl.Mul(phi, prevY), ppl.Mul(theta, prevErr)))
		e := ppl.Sub(yt, nu)
		return []ppl.Expr{e}, e
	})
	m.LogDensity("err", ppl.LogPDF("Normal", ppl.Concat(err1, errs), 0, sigma))
	return m
}

// garch-garch11: the volatility is a recurrence,
// s[t] = sqrt(alpha0 + alpha1·(y[t-1]-mu)² + beta1·s[t-1]²), and beta1's
// upper bound is an expression of alpha1. The priors are flat over the
// support.
func garch11(d *dataReader) *ppl.Model {
	y, sigma1 := d.floats("y"), d.float("sigma1")
	if d.failed() {
		return nil
	}
	T := len(y)
	m := ppl.NewModel("garch11")
	mu := m.Flat("mu")
	alpha0 := m.HalfFlat("alpha0")
	alpha1 := m.Flat("alpha1", ppl.Bounds(0, 1))
	beta1 := m.Flat("beta1", ppl.Bounds(0, ppl.Sub(1, alpha1)))
	s := ppl.Scan(T-1, []any{sigma1}, []any{y[:T-1]}, func(c, x []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		prevS, prevY := c[0], x[0]
		v := ppl.Add(alpha0, ppl.Add(ppl.Mul(alpha1, ppl.Square(ppl.Sub(prevY, mu))), ppl.Mul(beta1, ppl.Square(prevS))))
		st := ppl.Sqrt(v)
		return []ppl.Expr{st}, st
	})
	m.Normal("y", mu, ppl.Concat(sigma1, s)).Observe(y)
	return m
}

// gp_pois_regr-gp_regr: a Gaussian process regression with the
// covariance's Cholesky factor computed from the parameters.
func gpRegr(d *dataReader) *ppl.Model {
	x, y := d.floats("x"), d.floats("y")
	if d.failed() {
		return nil
	}
	m := ppl.NewModel("gp_regr")
	rho := m.Gamma("rho", 25, 4)
	alpha := m.HalfNormal("alpha", 2)
	sigma := m.HalfNormal("sigma", 1)
	K := ppl.AddDiag(ppl.CovExpQuad(x, alpha, rho), sigma) // sigma, not sigma², as in the posteriordb model
	m.MultiNormalChol("y", constant(len(x), 0), ppl.Cholesky(K)).Observe(y)
	return m
}

// gp_pois_regr-gp_pois_regr: a latent Gaussian process f = L·f_tilde
// (non-centred) with Poisson counts of log-rate f.
func gpPoisRegr(d *dataReader) *ppl.Model {
	x, k := d.floats("x"), d.floats("k")
	if d.failed() {
		return nil
	}
	m := ppl.NewModel("gp_pois_regr")
	rho := m.Gamma("rho", 25, 4)
	alpha := m.HalfNormal("alpha", 2)
	fTilde := m.Normal("f_tilde", 0, 1, ppl.Size(len(x)))
	L := ppl.Cholesky(ppl.AddDiag(ppl.CovExpQuad(x, alpha, rho), 1e-10))
	f := m.Deterministic("f", ppl.MatVec(L, fTilde))
	m.PoissonLog("k", f).Observe(k)
	return m
}

// low_dim_gauss_mix: a two-component normal mixture; ordering mu
// identifies the components.
func lowDimGaussMix(d *dataReader) *ppl.Model {
	y := d.floats("y")
	if d.failed() {
		return nil
	}
	m := ppl.NewModel("low_dim_gauss_mix")
	mu := m.Normal("mu", 0, 2, ppl.Size(2), ppl.Ordered())
	sigma := m.HalfNormal("sigma", 2, ppl.Size(2))
	theta := m.Beta("theta", 5, 5)
	m.Mixture("y", theta, []ppl.Component{
		ppl.NormalComp(ppl.At(mu, 0), ppl.At(sigma, 0)),
		ppl.NormalComp(ppl.At(mu, 1), ppl.At(sigma, 1)),
	}).Observe(y)
	return m
}

// hmm_example: a two-state hidden Markov model. theta1 and theta2 are
// the rows of the transition matrix (flat Dirichlet priors); the state
// means mu are positive and ordered, which identifies the states. The
// hidden states are summed out by the forward algorithm, a ppl.Scan over
// g[t], the log probability of y[1..t] ending in each state:
//
//	g[t,k] = logsumexp_j(g[t-1,j] + log theta_j[k]) + log Normal(y[t] | mu[k], 1)
func hmmExample(d *dataReader) *ppl.Model {
	y, K := d.floats("y"), d.int("K")
	if d.failed() {
		return nil
	}
	if K != 2 {
		d.err = fmt.Errorf("posteriordb: hmm_example: K = %d; the model's priors on mu are written for 2 states", K)
		return nil
	}
	N := len(y)
	m := ppl.NewModel("hmm_example")
	theta1 := m.Dirichlet("theta1", []float64{1, 1})
	theta2 := m.Dirichlet("theta2", []float64{1, 1})
	mu := m.Normal("mu", []float64{3, 10}, 1, ppl.PositiveOrdered())

	// into[k] holds log theta_j[k] over the previous states j.
	logT1, logT2 := ppl.Log(theta1), ppl.Log(theta2)
	into := []ppl.Expr{
		ppl.Concat(ppl.At(logT1, 0), ppl.At(logT2, 0)),
		ppl.Concat(ppl.At(logT1, 1), ppl.At(logT2, 1)),
	}
	g1 := ppl.LogPDF("Normal", y[0], mu, 1)
	g := ppl.Scan(N-1, []any{g1}, []any{y[1:]}, func(c, x []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		prev, yt := c[0], x[0]
		next := ppl.Add(
			ppl.Concat(ppl.LogSumExp(ppl.Add(prev, into[0])), ppl.LogSumExp(ppl.Add(prev, into[1]))),
			ppl.LogPDF("Normal", yt, mu, 1))
		return []ppl.Expr{next}, next
	})
	// g stacks the steps' values row by row, [N-1 K]: its last row is g[N].
	m.LogDensity("forward", ppl.LogSumExp(ppl.Slice(g, K*(N-2), K*(N-1))))
	return m
}

// logistic_regression (simulated): beta ~ Normal(0, 1),
// y ~ Bernoulli(logistic(X·beta)).
func logisticRegression(d *dataReader) *ppl.Model {
	X, y := d.matrix("X"), d.floats("y")
	if d.failed() {
		return nil
	}
	m := ppl.NewModel("logistic_regression")
	beta := m.Normal("beta", 0, 1, ppl.Size(len(X[0])))
	m.BernoulliLogit("y", ppl.MatVec(X, beta)).Observe(y)
	return m
}

// Compiled loads the named case and compiles its model.
func Compiled(name string) (*ppl.Compiled, error) {
	c, err := Load(name)
	if err != nil {
		return nil, err
	}
	m, err := Model(name, c)
	if err != nil {
		return nil, err
	}
	return m.Compile()
}
