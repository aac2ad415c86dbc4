package ppl

import (
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// LogDiffExp is log(exp(a) - exp(b)), elementwise, for b ≤ a (-Inf where
// they are equal): the log of a difference of probabilities known by
// their logs.
func LogDiffExp(a, b any) Expr { return elementwise("LogDiffExp", ir.OpLogDiffExp, a, b) }

// OrderedLogistic is an ordinal outcome y ∈ {0, …, K-1} (a rating, a
// severity grade): P(y ≤ k) = logistic(c[k] - eta) for increasing
// cutpoints c [K-1], so P(y = k) = logistic(eta - c[k-1]) -
// logistic(eta - c[k]) (Stan's ordered_logistic, PyMC's
// OrderedLogistic). eta is a scalar or one value per observation [N];
// give cutpoints increasing, as a variable with ppl.Ordered() (data
// cutpoints are checked). Values are 0-based. The variable is a
// CategoricalLogit over these probabilities, so its log-likelihood and
// predictive draws are the categorical's; it computes N×K probabilities.
func (m *Model) OrderedLogistic(name string, eta, cutpoints any, opts ...Option) *RV {
	return m.ordinal(name, "OrderedLogistic", func(x *graph.Node) Expr { return Neg(Softplus(Neg(x))) }, eta, cutpoints, opts)
}

// OrderedProbit is OrderedLogistic with the normal CDF: P(y ≤ k) =
// Φ(c[k] - eta) (Stan's ordered_probit).
func (m *Model) OrderedProbit(name string, eta, cutpoints any, opts ...Option) *RV {
	return m.ordinal(name, "OrderedProbit", func(x *graph.Node) Expr { return LogPhi(x) }, eta, cutpoints, opts)
}

// ordinal builds the [N K] (or [K]) log probabilities of an ordinal
// outcome from logF, the log of the link's CDF, and adds the variable.
func (m *Model) ordinal(name, fn string, logF func(*graph.Node) Expr, eta, cutpoints any, opts []Option) *RV {
	e, err := asNode(eta)
	if err != nil {
		m.failf(name, "%s eta: %v", fn, err)
	}
	c, err := asNode(cutpoints)
	if err != nil {
		m.failf(name, "%s cutpoints: %v", fn, err)
	}
	if len(c.Dims) != 1 {
		m.failf(name, "%s cutpoints have shape %v; want a vector of K-1 increasing cutpoints", fn, c.Dims)
	}
	if len(e.Dims) > 1 {
		m.failf(name, "%s eta has shape %v; want a scalar or one value per observation", fn, e.Dims)
	}
	if c.IsConst() {
		for k := 1; k < len(c.Data); k++ {
			if !(c.Data[k] > c.Data[k-1]) {
				m.failf(name, "%s cutpoints must increase; %v at index %d follows %v", fn, c.Data[k], k, c.Data[k-1])
			}
		}
	}
	n, k1 := e.Len(), c.Len() // observations, cutpoints (K-1)
	scalar := len(e.Dims) == 0
	er, cr := make([]int, n*k1), make([]int, n*k1)
	for i := 0; i < n; i++ {
		for k := 0; k < k1; k++ {
			er[i*k1+k], cr[i*k1+k] = i, k
		}
	}
	d := Sub(shapedIndex(fn, e, er), shapedIndex(fn, c, cr)).node() // eta_i - c_k, row-major [i][k]
	upper := logF(d).node()                                         // log P(y > k)
	lower := logF(Neg(d).node()).node()                             // log P(y ≤ k)
	parts := []any{lower, upper}
	if k1 >= 2 {
		a, b := make([]int, 0, n*(k1-1)), make([]int, 0, n*(k1-1))
		for i := 0; i < n; i++ {
			for k := 1; k < k1; k++ {
				a, b = append(a, i*k1+k-1), append(b, i*k1+k)
			}
		}
		parts = append(parts, LogDiffExp(shapedIndex(fn, upper, a), shapedIndex(fn, upper, b)))
	}
	all := Concat(parts...)
	// Row i of the result: P(y=0) from lower, the middle categories, and
	// P(y=K-1) from upper.
	K := k1 + 1
	idx := make([]int, 0, n*K)
	for i := 0; i < n; i++ {
		idx = append(idx, i*k1)
		for k := 1; k < k1; k++ {
			idx = append(idx, 2*n*k1+i*(k1-1)+k-1)
		}
		idx = append(idx, n*k1+i*k1+k1-1)
	}
	logp := Expr(asExpr(shapedIndex(fn, all, idx)))
	if !scalar {
		logp = Reshape(logp, n, K)
	}
	r := m.Var(name, family("CategoricalLogit"), []any{logp}, opts...)
	r.v.Shown = &graph.Call{Fn: fn, Args: []*graph.Node{e, c}}
	if r.v.Observed && r.v.Pointwise == nil {
		m.ordinalPointwise(r, fn, logF, e, c)
	}
	return r
}

// ordinalPointwise gives an observed ordinal variable the log density of
// its observed categories alone: for y = k, log(F(eta - c[k-1]) -
// F(eta - c[k])) from two gathers of the cutpoints by the data, where the
// categorical over N×K probabilities computes every category of every
// observation (about a third of the work at K = 4).
func (m *Model) ordinalPointwise(r *RV, fn string, logF func(*graph.Node) Expr, e, c *graph.Node) {
	y := r.v.Data
	n, k1 := len(y), c.Len()
	if e.Len() != 1 && e.Len() != n {
		return
	}
	ei, lo, hi := make([]int, n), make([]int, n), make([]int, n)
	for i, v := range y {
		if e.Len() > 1 {
			ei[i] = i
		}
		lo[i], hi[i] = max(int(v)-1, 0), min(int(v), k1-1)
	}
	eta := shapedIndex(fn, e, ei)
	above := logF(Sub(eta, shapedIndex(fn, c, lo)).node()).node()  // log P(y > k-1)
	aboveK := logF(Sub(eta, shapedIndex(fn, c, hi)).node()).node() // log P(y > k)
	below := logF(Sub(shapedIndex(fn, c, hi), eta).node()).node()  // log P(y ≤ k), for k = 0
	all := Concat(below, above, LogDiffExp(above, aboveK))
	pick := make([]int, n)
	for i, v := range y {
		switch k := int(v); {
		case k == 0:
			pick[i] = i
		case k == k1:
			pick[i] = n + i
		default:
			pick[i] = 2*n + i
		}
	}
	r.v.Pointwise = shapedIndex(fn, all, pick)
}

// shapedIndex is Index(x, idx) made by fn from shapes (n, K): new data of
// another length (SetData) cannot make its table again, and the node's
// name makes remake say so.
func shapedIndex(fn string, x any, idx []int) *graph.Node {
	g := Index(x, idx).node()
	g.Fn = fn
	return g
}
