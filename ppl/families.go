package ppl

import (
	"math"

	"github.com/gobayes/gobayes/accel/dense"

	"github.com/gobayes/gobayes/ppl/dist"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// The methods below add a random variable of one family each; the
// arguments are the family's parameters (numbers, slices or expressions),
// then options (Size, Shape, Lower, Upper, Bounds, Ordered,
// PositiveOrdered, Observed). Model.Var takes any dist.Family.

// Flat is the improper uniform density on the real line (Stan's default
// prior); combine it with Lower, Upper or Bounds for a bounded flat prior.
// It has no prior predictive draws.
func (m *Model) Flat(name string, opts ...Option) *RV {
	return m.Var(name, family("Flat"), nil, opts...)
}

// HalfFlat is the improper uniform density on (0, ∞).
func (m *Model) HalfFlat(name string, opts ...Option) *RV {
	return m.Var(name, family("HalfFlat"), nil, opts...)
}

// Categorical takes values 0 … K-1 with probabilities p: a simplex [K]
// for every variate, or [N K] (each row a simplex) for N variates, such
// as a Dirichlet variable or Softmax(…). Values are 0-based. Data
// probabilities must be positive and each row must sum to 1. (The model
// lists it as CategoricalLogit(Log(p)), the form it is computed in.)
func (m *Model) Categorical(name string, p any, opts ...Option) *RV {
	n, err := asNode(p)
	if err != nil {
		m.failf(name, "Categorical p: %v", err)
	}
	if n.IsConst() {
		k := n.Dims[len(n.Dims)-1:]
		if len(n.Dims) == 0 || len(n.Dims) > 2 || k[0] < 2 {
			m.failf(name, "Categorical p has shape %v; want a simplex [K] or rows of simplexes [N K], K ≥ 2", n.Dims)
		}
		for r := 0; r < n.Len()/k[0]; r++ {
			row, sum := n.Data[r*k[0]:(r+1)*k[0]], 0.0
			for j, v := range row {
				if !(v > 0) {
					m.failf(name, "Categorical p is %v at index %d of row %d; probabilities must be positive (leave out a category that cannot occur)", v, j, r)
				}
				sum += v
			}
			if math.Abs(sum-1) > 1e-9*float64(k[0]) {
				m.failf(name, "Categorical p sums to %v in row %d, not 1; give probabilities, or logits to CategoricalLogit", sum, r)
			}
		}
	}
	r := m.Var(name, family("CategoricalLogit"), []any{Log(n)}, opts...)
	if !n.IsConst() {
		// Probabilities from an expression are checked where they have
		// values, when a run starts (checkProbSums).
		if m.probs == nil {
			m.probs = map[*graph.RV]*graph.Node{}
		}
		m.probs[&r.v] = r.v.Params[0]
	}
	return r
}

// CategoricalLogit takes values 0 … K-1 with probabilities
// softmax(logits): logits [K] for every variate, or [N K] for N variates.
// Values are 0-based.
func (m *Model) CategoricalLogit(name string, logits any, opts ...Option) *RV {
	return m.Var(name, family("CategoricalLogit"), []any{logits}, opts...)
}

// Dirichlet is a simplex of length K with concentrations alpha [K].
func (m *Model) Dirichlet(name string, alpha any, opts ...Option) *RV {
	return m.Var(name, family("Dirichlet"), []any{alpha}, opts...)
}

// MultiNormalChol is a multivariate normal of mean mu [K] and covariance
// L·Lᵀ given by its lower Cholesky factor L [K K]. Size(N) or observed
// data [N K] make N independent vectors.
func (m *Model) MultiNormalChol(name string, mu, l any, opts ...Option) *RV {
	return m.Var(name, family("MultiNormalChol"), []any{mu, l}, opts...)
}

// MultiNormal is a multivariate normal of mean mu [K] and covariance
// matrix cov [K K] (PyMC's MvNormal, Stan's multi_normal). A covariance
// given as data is checked (square, symmetric, positive definite) and
// factored once; one built from parameters is factored at every
// evaluation (Cholesky), where MultiNormalChol with a factor built
// directly is cheaper. Size(N) or observed data [N K] make N vectors.
func (m *Model) MultiNormal(name string, mu, cov any, opts ...Option) *RV {
	c, err := asNode(cov)
	if err != nil {
		m.failf(name, "MultiNormal cov: %v", err)
	}
	if len(c.Dims) != 2 || c.Dims[0] != c.Dims[1] {
		m.failf(name, "MultiNormal cov has shape %v; want a square matrix [K K]", c.Dims)
	}
	if !c.IsConst() || c.Container != "" {
		return m.Var(name, family("MultiNormalChol"), []any{mu, Cholesky(c)}, opts...)
	}
	k := c.Dims[0]
	for i := 0; i < k; i++ {
		for j := 0; j < i; j++ {
			a, b := c.Data[i*k+j], c.Data[j*k+i]
			if math.Abs(a-b) > 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b))) {
				m.failf(name, "MultiNormal cov is not symmetric: [%d %d] = %v but [%d %d] = %v", i, j, a, j, i, b)
			}
		}
	}
	l := make([]float64, k*k)
	if i := dense.Cholesky(c.Data, l, k, 0); i >= 0 {
		m.failf(name, "MultiNormal cov is not positive definite (its Cholesky factorisation fails at row %d); a covariance matrix must be", i)
	}
	rows := make([][]float64, k)
	for i := range rows {
		rows[i] = l[i*k : (i+1)*k]
	}
	return m.Var(name, family("MultiNormalChol"), []any{mu, rows}, opts...)
}

// LKJCorrChol is the Cholesky factor [K K] of a K×K correlation matrix
// with the LKJ density of shape eta (1: uniform over correlations).
func (m *Model) LKJCorrChol(name string, k int, eta any, opts ...Option) *RV {
	if k < 2 {
		m.failf(name, "LKJ correlation dimension %d; want 2 or more", k)
	}
	return m.Var(name, family("LKJCorrChol"), []any{eta}, append([]Option{Shape(k, k)}, opts...)...)
}

// family returns the named distribution family of package dist.
func family(name string) *dist.Family {
	f := dist.Lookup(name)
	if f == nil {
		panic(&Error{Var: name, Msg: "no distribution family of this name in package dist"})
	}
	return f
}
