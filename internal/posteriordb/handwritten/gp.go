package handwritten

import (
	"fmt"
	"math"

	"github.com/gobayes/gobayes/internal/posteriordb"
)

// cholesky overwrites the lower triangle of the n×n row-major matrix a
// with its Cholesky factor L (a = L·Lᵀ), column by column, and reports
// whether a was positive definite. The upper triangle is not read.
func cholesky(a []float64, n int) bool {
	for j := 0; j < n; j++ {
		rj := a[j*n : j*n+j]
		s := a[j*n+j]
		for _, v := range rj {
			s -= v * v
		}
		if !(s > 0) {
			return false
		}
		d := math.Sqrt(s)
		a[j*n+j] = d
		for i := j + 1; i < n; i++ {
			ri := a[i*n : i*n+j]
			s := a[i*n+j]
			for k, v := range ri {
				s -= v * rj[k]
			}
			a[i*n+j] = s / d
		}
	}
	return true
}

// expQuad writes alpha²·exp(-(x[i]-x[j])²/(2rho²)) + jitter·[i==j] into
// the lower triangle of k.
func expQuad(k, x []float64, alpha, rho, jitter float64) {
	n := len(x)
	a2, c := alpha*alpha, -0.5/(rho*rho)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			d := x[i] - x[j]
			k[i*n+j] = a2 * math.Exp(c*d*d)
		}
		k[i*n+i] += jitter
	}
}

// gp_pois_regr-gp_regr: x = [log rho, log alpha, log sigma],
// rho ~ Gamma(25, 4), alpha ~ HalfNormal(2), sigma ~ HalfNormal(1),
// y ~ MultivariateNormal(0, K), K = alpha²·exp(-d²/(2rho²)) + sigma·I.
func newGPRegr(c *posteriordb.Case) (*Model, error) {
	v, err := dataFields(c, "x", "y")
	if err != nil {
		return nil, err
	}
	x, y := v[0], v[1]
	n := len(x)
	if len(y) != n {
		return nil, fmt.Errorf("%d values of x, %d of y", n, len(y))
	}
	L := make([]float64, n*n)
	z := make([]float64, n)
	bs, dim := layout(spec("rho", 1, Positive), spec("alpha", 1, Positive), spec("sigma", 1, Positive))
	return &Model{Dim: dim, Blocks: bs, LogDensity: func(p []float64) float64 {
		rho, lj0 := positive(p[0])
		alpha, lj1 := positive(p[1])
		sigma, lj2 := positive(p[2])
		lp := lj0 + lj1 + lj2 + gammaLPDF(rho, 25, 4) + halfNormalLPDF(alpha, 2) + halfNormalLPDF(sigma, 1)
		expQuad(L, x, alpha, rho, sigma)
		if !cholesky(L, n) {
			return math.Inf(-1)
		}
		// z = L⁻¹ y by forward substitution; log N(y | 0, LLᵀ) =
		// -|z|²/2 - sum log L[i,i] - n log sqrt(2π).
		for i := 0; i < n; i++ {
			s := y[i]
			for k := 0; k < i; k++ {
				s -= L[i*n+k] * z[k]
			}
			z[i] = s / L[i*n+i]
			lp -= 0.5*z[i]*z[i] + math.Log(L[i*n+i]) + logSqrt2Pi
		}
		return lp
	}}, nil
}

// GPPoisRegr is the latent Gaussian process with Poisson counts at
// x = [log rho, log alpha, f_tilde[1..N]]:
//
//	rho ~ Gamma(25, 4), alpha ~ HalfNormal(2), f_tilde ~ Normal(0, 1),
//	K = alpha²·exp(-(x[i]-x[j])²/(2rho²)) + 1e-10·I, f = cholesky(K)·f_tilde,
//	k[n] ~ Poisson(exp(f[n])).
//
// The gradient runs the Cholesky factorisation backwards (the unblocked
// reverse-mode algorithm of Murray, 2016, "Differentiation of the Cholesky
// decomposition").
type GPPoisRegr struct {
	x, k    []float64
	logNorm float64
	// scratch
	d2, e   []float64 // (x[i]-x[j])² and exp(-d2/(2rho²)), lower triangles
	L, Lbar []float64 // Cholesky factor and its adjoint
	f, fbar []float64
}

// NewGPPoisRegr returns the model of inputs x and counts k.
func NewGPPoisRegr(x, k []float64) *GPPoisRegr {
	n := len(x)
	m := &GPPoisRegr{x: x, k: k,
		d2: make([]float64, n*n), e: make([]float64, n*n),
		L: make([]float64, n*n), Lbar: make([]float64, n*n),
		f: make([]float64, n), fbar: make([]float64, n)}
	lg, _ := math.Lgamma(25)
	m.logNorm = 25*math.Log(4) - lg + math.Ln2 - logSqrt2Pi - math.Log(2) - float64(n)*logSqrt2Pi
	for i := range x {
		lf, _ := math.Lgamma(k[i] + 1)
		m.logNorm -= lf
		for j := 0; j <= i; j++ {
			d := x[i] - x[j]
			m.d2[i*n+j] = d * d
		}
	}
	return m
}

func newGPPoisRegr(c *posteriordb.Case) (*Model, error) {
	v, err := dataFields(c, "x", "k")
	if err != nil {
		return nil, err
	}
	if len(v[0]) != len(v[1]) {
		return nil, fmt.Errorf("%d values of x, %d of k", len(v[0]), len(v[1]))
	}
	n := len(v[0])
	g := NewGPPoisRegr(v[0], v[1])
	m := withGrad(g, spec("rho", 1, Positive), spec("alpha", 1, Positive), spec("f_tilde", n, Identity))
	m.derive = func(x []float64, vals map[string][]float64) {
		g.LogDensityGrad(x, make([]float64, len(x))) // leaves f = L·f_tilde in g.f
		vals["f"] = append([]float64(nil), g.f...)
	}
	return m, nil
}

// LogDensityGrad returns the log density at p and writes its gradient.
func (m *GPPoisRegr) LogDensityGrad(p, grad []float64) float64 {
	n := len(m.x)
	ur, ua := p[0], p[1]
	rho, alpha := math.Exp(ur), math.Exp(ua)
	ft := p[2 : 2+n]
	gft := grad[2 : 2+n]
	L, Lbar, e := m.L, m.Lbar, m.e

	// Priors with the log-Jacobians ur and ua.
	lp := m.logNorm + 24*ur - 4*rho - alpha*alpha/8 + ur + ua
	gur := 24 - 4*rho + 1
	gua := -alpha*alpha/4 + 1

	// K, its Cholesky factor, f = L·f_tilde.
	a2, c := alpha*alpha, -0.5/(rho*rho)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			e[i*n+j] = math.Exp(c * m.d2[i*n+j])
			L[i*n+j] = a2 * e[i*n+j]
		}
		L[i*n+i] += 1e-10
	}
	if !cholesky(L, n) {
		return math.Inf(-1)
	}
	for i := 0; i < n; i++ {
		fi := 0.0
		for j := 0; j <= i; j++ {
			fi += L[i*n+j] * ft[j]
		}
		m.f[i] = fi
		ef := math.Exp(fi)
		lp += m.k[i]*fi - ef - 0.5*ft[i]*ft[i]
		m.fbar[i] = m.k[i] - ef
	}

	// Reverse: f_tilde gets Lᵀ·fbar (and its prior's -f_tilde); L gets
	// fbar·f_tildeᵀ on its lower triangle.
	for j := 0; j < n; j++ {
		g := -ft[j]
		for i := j; i < n; i++ {
			g += L[i*n+j] * m.fbar[i]
			Lbar[i*n+j] = m.fbar[i] * ft[j]
		}
		gft[j] = g
	}
	// Back through the Cholesky factorisation: Lbar becomes the adjoint of
	// K's lower triangle.
	for j := n - 1; j >= 0; j-- {
		d := L[j*n+j]
		rj := L[j*n : j*n+j]
		bj := Lbar[j*n : j*n+j]
		for i := n - 1; i > j; i-- {
			g := Lbar[i*n+j] / d
			Lbar[i*n+j] = g // adjoint of K[i,j]
			Lbar[j*n+j] -= g * L[i*n+j]
			ri := L[i*n : i*n+j]
			bi := Lbar[i*n : i*n+j]
			for k := range bi {
				bi[k] -= g * rj[k]
				bj[k] -= g * ri[k]
			}
		}
		g := Lbar[j*n+j] / (2 * d)
		Lbar[j*n+j] = g
		for k := range bj {
			bj[k] -= 2 * g * rj[k]
		}
	}
	// K[i,j] = alpha²·e[i,j]: dK/d(log alpha) = 2K, dK/d(log rho) =
	// K·d²/rho² (jitter aside).
	inv := 1 / (rho * rho)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			kb := Lbar[i*n+j] * a2 * e[i*n+j]
			gua += 2 * kb
			gur += kb * m.d2[i*n+j] * inv
		}
	}
	grad[0], grad[1] = gur, gua
	return lp
}
