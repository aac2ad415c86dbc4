package handwritten

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/gobayes/gobayes/internal/posteriordb"
)

// LinearRegression is y ~ Normal(X·beta, sigma) at x = [beta[1..D],
// log sigma], with independent Normal priors on beta (or flat ones) and a
// half-Cauchy, half-normal or flat prior on sigma. Every linear regression
// of the reference set is one of these.
//
// X is kept by columns, so that the residuals and the gradient are D
// vector operations over N (gonum's assembly kernels) each.
type LinearRegression struct {
	Cols    [][]float64 // D columns of N
	Y       []float64
	N, D    int
	Beta    []NormalPrior // len D, or nil for flat priors
	Sigma   ScalePrior
	logNorm float64
	r       []float64 // scratch: residuals
}

// NormalPrior is a Normal(Mu, Sigma) prior.
type NormalPrior struct{ Mu, Sigma float64 }

// ScalePrior is the prior of a positive scale.
type ScalePrior struct {
	Kind  ScaleKind
	Scale float64
}

// ScaleKind is the family of a ScalePrior.
type ScaleKind int

const (
	FlatScale ScaleKind = iota
	HalfCauchyScale
	HalfNormalScale
)

// NewLinearRegression returns the regression of y on the rows of X.
func NewLinearRegression(X [][]float64, y []float64, beta []NormalPrior, sigma ScalePrior) (*LinearRegression, error) {
	if len(X) != len(y) || len(X) == 0 {
		return nil, fmt.Errorf("%d rows of X, %d values of y", len(X), len(y))
	}
	D := len(X[0])
	if beta != nil && len(beta) != D {
		return nil, fmt.Errorf("%d beta priors for %d columns", len(beta), D)
	}
	m := &LinearRegression{Y: y, N: len(y), D: D, Beta: beta, Sigma: sigma, r: make([]float64, len(y))}
	m.Cols = make([][]float64, D)
	for d := range m.Cols {
		m.Cols[d] = make([]float64, m.N)
		for n, row := range X {
			m.Cols[d][n] = row[d]
		}
	}
	m.logNorm = -float64(m.N) * logSqrt2Pi
	for _, p := range beta {
		m.logNorm -= logSqrt2Pi + math.Log(p.Sigma)
	}
	switch sigma.Kind {
	case HalfCauchyScale:
		m.logNorm += math.Log(2 / (math.Pi * sigma.Scale))
	case HalfNormalScale:
		m.logNorm += math.Ln2 - logSqrt2Pi - math.Log(sigma.Scale)
	}
	return m, nil
}

// LogDensityGrad returns the log density at x and writes its gradient.
func (m *LinearRegression) LogDensityGrad(x, grad []float64) float64 {
	D := m.D
	beta, gbeta := x[:D], grad[:D]
	u := x[D]
	sigma := math.Exp(u)
	inv2 := 1 / (sigma * sigma)

	// r = y - X·beta; the likelihood's gradient in beta is Xᵀr/sigma².
	r := m.r
	copy(r, m.Y)
	for d, col := range m.Cols {
		floats.AddScaled(r, -beta[d], col)
	}
	ss := floats.Dot(r, r)
	for d, col := range m.Cols {
		gbeta[d] = floats.Dot(col, r) * inv2
	}
	lp := m.logNorm - float64(m.N)*u - 0.5*ss*inv2
	gu := -float64(m.N) + ss*inv2

	for d, p := range m.Beta {
		z := (beta[d] - p.Mu) / p.Sigma
		lp -= 0.5 * z * z
		gbeta[d] -= z / p.Sigma
	}
	switch m.Sigma.Kind {
	case HalfCauchyScale:
		s := sigma / m.Sigma.Scale
		lp -= math.Log1p(s * s)
		gu -= 2 * s * s / (1 + s*s)
	case HalfNormalScale:
		s := sigma / m.Sigma.Scale
		lp -= 0.5 * s * s
		gu -= s * s
	}
	// The log-Jacobian of sigma = exp(u).
	lp += u
	grad[D] = gu + 1
	return lp
}

// regressionModel makes a Model of a LinearRegression with blocks beta and
// sigma.
func regressionModel(X [][]float64, y []float64, beta []NormalPrior, sigma ScalePrior) (*Model, error) {
	m, err := NewLinearRegression(X, y, beta, sigma)
	if err != nil {
		return nil, err
	}
	return withGrad(m, spec("beta", m.D, Identity), spec("sigma", 1, Positive)), nil
}

// columns stacks columns into the rows of a design matrix.
func columns(cols ...[]float64) [][]float64 {
	X := make([][]float64, len(cols[0]))
	for n := range X {
		X[n] = make([]float64, len(cols))
		for d, c := range cols {
			X[n][d] = c[n]
		}
	}
	return X
}

func ones(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

func logOf(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = math.Log(x)
	}
	return out
}

func product(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] * b[i]
	}
	return out
}

// dataFields reads several data fields.
func dataFields(c *posteriordb.Case, names ...string) ([][]float64, error) {
	out := make([][]float64, len(names))
	for i, n := range names {
		v, err := c.Floats(n)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func repeatPrior(p NormalPrior, n int) []NormalPrior {
	out := make([]NormalPrior, n)
	for i := range out {
		out[i] = p
	}
	return out
}

// sblrc-blr: beta[d] ~ Normal(0, 10), sigma ~ HalfNormal(10).
func newBLR(c *posteriordb.Case) (*Model, error) {
	X, err := c.Matrix("X")
	if err != nil {
		return nil, err
	}
	y, err := c.Floats("y")
	if err != nil {
		return nil, err
	}
	if len(X) == 0 {
		return nil, fmt.Errorf("X has no rows")
	}
	return regressionModel(X, y, repeatPrior(NormalPrior{0, 10}, len(X[0])), ScalePrior{HalfNormalScale, 10})
}

// kidiq-kidscore_momhs: kid_score ~ Normal(b1 + b2·mom_hs, sigma),
// sigma ~ HalfCauchy(2.5).
func newKidscoreMomhs(c *posteriordb.Case) (*Model, error) {
	v, err := dataFields(c, "kid_score", "mom_hs")
	if err != nil {
		return nil, err
	}
	return regressionModel(columns(ones(len(v[0])), v[1]), v[0], nil, ScalePrior{HalfCauchyScale, 2.5})
}

// kidiq-kidscore_interaction: kid_score ~ Normal(b1 + b2·mom_hs +
// b3·mom_iq + b4·mom_hs·mom_iq, sigma), sigma ~ HalfCauchy(2.5).
func newKidscoreInteraction(c *posteriordb.Case) (*Model, error) {
	v, err := dataFields(c, "kid_score", "mom_hs", "mom_iq")
	if err != nil {
		return nil, err
	}
	hs, iq := v[1], v[2]
	return regressionModel(columns(ones(len(hs)), hs, iq, product(hs, iq)), v[0], nil, ScalePrior{HalfCauchyScale, 2.5})
}

// earnings-earn_height: earn ~ Normal(b1 + b2·height, sigma), flat priors.
func newEarnHeight(c *posteriordb.Case) (*Model, error) {
	v, err := dataFields(c, "earn", "height")
	if err != nil {
		return nil, err
	}
	return regressionModel(columns(ones(len(v[0])), v[1]), v[0], nil, ScalePrior{Kind: FlatScale})
}

// earnings-logearn_interaction: log(earn) ~ Normal(b1 + b2·height +
// b3·male + b4·height·male, sigma), flat priors.
func newLogearnInteraction(c *posteriordb.Case) (*Model, error) {
	v, err := dataFields(c, "earn", "height", "male")
	if err != nil {
		return nil, err
	}
	h, male := v[1], v[2]
	return regressionModel(columns(ones(len(h)), h, male, product(h, male)), logOf(v[0]), nil, ScalePrior{Kind: FlatScale})
}

// mesquite-logmesquite: log(weight) on the logs of the five sizes and on
// group, flat priors.
func newLogmesquite(c *posteriordb.Case) (*Model, error) {
	v, err := dataFields(c, "weight", "diam1", "diam2", "canopy_height", "total_height", "density", "group")
	if err != nil {
		return nil, err
	}
	X := columns(ones(len(v[0])), logOf(v[1]), logOf(v[2]), logOf(v[3]), logOf(v[4]), logOf(v[5]), v[6])
	return regressionModel(X, logOf(v[0]), nil, ScalePrior{Kind: FlatScale})
}

// nes2000-nes: partyid7 on real_ideo, race_adj, three age indicators,
// educ1, gender and income, flat priors.
func newNES(c *posteriordb.Case) (*Model, error) {
	v, err := dataFields(c, "partyid7", "real_ideo", "race_adj", "age_discrete", "educ1", "gender", "income")
	if err != nil {
		return nil, err
	}
	age := v[3]
	indicator := func(level float64) []float64 {
		out := make([]float64, len(age))
		for i, a := range age {
			if a == level {
				out[i] = 1
			}
		}
		return out
	}
	X := columns(ones(len(age)), v[1], v[2], indicator(2), indicator(3), indicator(4), v[4], v[5], v[6])
	return regressionModel(X, v[0], nil, ScalePrior{Kind: FlatScale})
}

// kilpisjarvi_mod-kilpisjarvi: x = [alpha, beta, log sigma],
// alpha ~ Normal(pmualpha, psalpha), beta ~ Normal(pmubeta, psbeta),
// y ~ Normal(alpha + beta·x, sigma), sigma flat.
func newKilpisjarvi(c *posteriordb.Case) (*Model, error) {
	v, err := dataFields(c, "x", "y")
	if err != nil {
		return nil, err
	}
	var p [4]float64
	for i, n := range []string{"pmualpha", "psalpha", "pmubeta", "psbeta"} {
		if p[i], err = c.Float(n); err != nil {
			return nil, err
		}
	}
	m, err := NewLinearRegression(columns(ones(len(v[0])), v[0]), v[1], []NormalPrior{{p[0], p[1]}, {p[2], p[3]}}, ScalePrior{Kind: FlatScale})
	if err != nil {
		return nil, err
	}
	// The parameters are two scalars here, not a vector beta.
	return withGrad(m, spec("alpha", 1, Identity), spec("beta", 1, Identity), spec("sigma", 1, Positive)), nil
}
