package mcmc

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gobayes/gobayes/accel/dense"
)

// Metric is the Euclidean metric of Hamiltonian Monte Carlo, given by its
// inverse (an estimate of the posterior covariance): either a diagonal or a
// dense matrix held as its lower Cholesky factor.
type Metric struct {
	dim int
	// Diag is the diagonal of the inverse metric (nil when dense).
	Diag []float64
	// Chol is the lower Cholesky factor L of the dense inverse metric
	// L·Lᵀ, row-major dim×dim (nil when diagonal).
	Chol []float64
	tmp  []float64
}

// NewDiagMetric returns the unit diagonal metric.
func NewDiagMetric(dim int) *Metric {
	m := &Metric{dim: dim, Diag: make([]float64, dim), tmp: make([]float64, dim)}
	for i := range m.Diag {
		m.Diag[i] = 1
	}
	return m
}

// NewDenseMetric returns the unit dense metric.
func NewDenseMetric(dim int) *Metric {
	m := &Metric{dim: dim, Chol: make([]float64, dim*dim), tmp: make([]float64, dim)}
	for i := 0; i < dim; i++ {
		m.Chol[i*dim+i] = 1
	}
	return m
}

// Dense reports whether the metric is a dense matrix.
func (m *Metric) Dense() bool { return m.Chol != nil }

// Dim is the dimension of the metric.
func (m *Metric) Dim() int { return m.dim }

// Clone returns an independent copy.
func (m *Metric) Clone() *Metric {
	c := &Metric{dim: m.dim, tmp: make([]float64, m.dim)}
	if m.Diag != nil {
		c.Diag = append([]float64(nil), m.Diag...)
	}
	if m.Chol != nil {
		c.Chol = append([]float64(nil), m.Chol...)
	}
	return c
}

// SetDiag sets the diagonal inverse metric.
func (m *Metric) SetDiag(v []float64) {
	copy(m.Diag, v)
}

// SetCov sets the dense inverse metric from a symmetric positive-definite
// matrix (row-major dim×dim).
func (m *Metric) SetCov(cov []float64) error {
	l, err := Cholesky(cov, m.dim)
	if err != nil {
		return err
	}
	copy(m.Chol, l)
	return nil
}

// SetDense turns the metric into a dense one with inverse metric cov
// (symmetric positive-definite, row-major dim×dim); on error it stays as
// it was.
func (m *Metric) SetDense(cov []float64) error {
	l, err := Cholesky(cov, m.dim)
	if err != nil {
		return err
	}
	m.Chol, m.Diag = l, nil
	return nil
}

// SetDiagonal turns the metric into a diagonal one with inverse metric v.
func (m *Metric) SetDiagonal(v []float64) {
	m.Diag, m.Chol = append([]float64(nil), v...), nil
}

// InvMetric returns the inverse metric as a dense row-major matrix
// (diagonal metrics fill the diagonal only).
func (m *Metric) InvMetric() []float64 {
	d := m.dim
	out := make([]float64, d*d)
	if m.Diag != nil {
		for i, v := range m.Diag {
			out[i*d+i] = v
		}
		return out
	}
	for i := 0; i < d; i++ {
		for j := 0; j <= i; j++ {
			s := 0.0
			for k := 0; k <= j; k++ {
				s += m.Chol[i*d+k] * m.Chol[j*d+k]
			}
			out[i*d+j], out[j*d+i] = s, s
		}
	}
	return out
}

// Velocity writes M⁻¹p into v.
func (m *Metric) Velocity(p, v []float64) {
	if m.Diag != nil {
		for i, x := range p {
			v[i] = m.Diag[i] * x
		}
		return
	}
	d := m.dim
	// t = Lᵀp, then v = L t.
	t := m.tmp
	for i := 0; i < d; i++ {
		s := 0.0
		for k := i; k < d; k++ {
			s += m.Chol[k*d+i] * p[k]
		}
		t[i] = s
	}
	for i := 0; i < d; i++ {
		s := 0.0
		row := m.Chol[i*d : i*d+i+1]
		for k, l := range row {
			s += l * t[k]
		}
		v[i] = s
	}
}

// SampleMomentum draws p ~ Normal(0, M) into p.
func (m *Metric) SampleMomentum(rng *rand.Rand, p []float64) {
	if m.Diag != nil {
		for i := range p {
			p[i] = rng.NormFloat64() / math.Sqrt(m.Diag[i])
		}
		return
	}
	d := m.dim
	z := m.tmp
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	// Solve Lᵀp = z: the covariance of p is (L Lᵀ)⁻¹ = M.
	for i := d - 1; i >= 0; i-- {
		s := z[i]
		for k := i + 1; k < d; k++ {
			s -= m.Chol[k*d+i] * p[k]
		}
		p[i] = s / m.Chol[i*d+i]
	}
}

// Cholesky returns the lower Cholesky factor of the symmetric
// positive-definite row-major n×n matrix a.
func Cholesky(a []float64, n int) ([]float64, error) {
	l := make([]float64, n*n)
	if j := dense.Cholesky(a, l, n, 0); j >= 0 {
		return nil, fmt.Errorf("mcmc: matrix is not positive definite (pivot %d is not positive)", j)
	}
	return l, nil
}
