package ppl

import (
	"math"
	"math/rand/v2"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/opdef"
	"github.com/gobayes/gobayes/ppl/dist"
)

// multinomial is the family of Model.Multinomial's variables: counts of K
// categories in n trials. Its log density is built from other ops when
// the counts are observed (graph.RV.Pointwise), so it has no op of its
// own and no entry in dist.Families; Sample draws rows, given n as one
// value per row and p as one simplex per row (the method arranges both).
var multinomial = &dist.Family{
	Name: "Multinomial", Params: []string{"n", "p"},
	ParamSupport: []dist.Support{{Kind: dist.NonNegInt, Lower: -1, Upper: -1}, {Kind: dist.UnitInterval, Lower: -1, Upper: -1}},
	Support:      dist.Support{Kind: dist.NonNegInt, Lower: -1, Upper: -1},
	Op:           ir.OpNop, Discrete: true, EventRank: 1,
	Sample: func(rng *rand.Rand, params [][]float64, out []float64) {
		n, p := params[0], params[1]
		rows := len(n)
		k := len(out) / rows
		for i := 0; i < rows; i++ {
			left, rest := n[i], 1.0
			for j := 0; j < k; j++ {
				pj := p[i*k+j]
				if j == k-1 || rest <= 0 {
					out[i*k+j] = left
					left = 0
					continue
				}
				x := opdef.DrawBinomial(rng, left, math.Min(1, math.Max(0, pj/rest)))
				out[i*k+j], left, rest = x, left-x, rest-pj
			}
		}
	},
}

// Multinomial is counts of K categories in n trials with probabilities p
// (PyMC's Multinomial, Stan's multinomial): observed counts [K], or [N K]
// for N rows; n is a whole number, or one per row, and must equal each
// row's total; p is a simplex [K] (a Dirichlet variable, Softmax(…), or
// data), or one per row [N K]. Its counts are given with ppl.Observed at
// once. The log density is lgamma(n+1) - Σ lgamma(y+1) + Σ y log p per
// row (pointwise: one term per row).
func (m *Model) Multinomial(name string, n, p any, opts ...Option) *RV {
	var o options
	for _, f := range opts {
		f(&o)
	}
	if !o.hasObserved {
		m.failf(name, "Multinomial takes its counts with ppl.Observed(counts) when it is made; a latent multinomial cannot be sampled")
	}
	yn, err := asNode(o.observed)
	if err != nil || !yn.IsConst() || yn.Container != "" {
		m.failf(name, "Multinomial counts must be Go data ([]int or [][]int)")
	}
	pn, err := asNode(p)
	if err != nil {
		m.failf(name, "Multinomial p: %v", err)
	}
	nn, err := asNode(n)
	if err != nil || !nn.IsConst() {
		m.failf(name, "Multinomial n must be data: a whole number, or one per row")
	}
	var rows, k int
	switch len(yn.Dims) {
	case 1:
		rows, k = 1, yn.Dims[0]
	case 2:
		rows, k = yn.Dims[0], yn.Dims[1]
	default:
		m.failf(name, "Multinomial counts have shape %v; want [K] or [N K]", yn.Dims)
	}
	if k < 2 {
		m.failf(name, "Multinomial needs 2 or more categories, got %d", k)
	}
	if pn.Dims[len(pn.Dims)-1] != k || len(pn.Dims) > 2 || len(pn.Dims) == 2 && pn.Dims[0] != rows {
		m.failf(name, "Multinomial p has shape %v for counts of shape %v; want [%d] or [%d %d]", pn.Dims, yn.Dims, k, rows, k)
	}
	if pn.IsConst() {
		for i := 0; i < pn.Len()/k; i++ {
			s := 0.0
			for _, v := range pn.Data[i*k : (i+1)*k] {
				s += v
			}
			if math.Abs(s-1) > 1e-9*float64(k) {
				m.failf(name, "Multinomial p sums to %v in row %d, not 1", s, i)
			}
		}
	}
	if nn.Len() != 1 && nn.Len() != rows {
		m.failf(name, "Multinomial n has %d values for %d rows; give one, or one per row", nn.Len(), rows)
	}
	ns := make([]float64, rows)
	konst := make([]float64, rows) // lgamma(n+1) - Σ lgamma(y+1), per row
	for i := 0; i < rows; i++ {
		ni := nn.Data[i%nn.Len()]
		sum := 0.0
		l, _ := math.Lgamma(ni + 1)
		for j := 0; j < k; j++ {
			y := yn.Data[i*k+j]
			if y < 0 || y != math.Trunc(y) {
				m.failf(name, "count %v in row %d is not a whole number ≥ 0", y, i)
			}
			sum += y
			ly, _ := math.Lgamma(y + 1)
			l -= ly
		}
		if sum != ni {
			m.failf(name, "row %d's counts sum to %v but n is %v; n is the number of trials", i, sum, ni)
		}
		ns[i], konst[i] = ni, l
	}
	// n as one value per row and p as one simplex per row, for the draws.
	var pRows any = pn
	if len(pn.Dims) == 1 && len(yn.Dims) == 2 {
		tile := make([]int, rows*k)
		for i := range tile {
			tile[i] = i % k
		}
		pRows = Reshape(Index(pn, tile), rows, k)
	}
	var nArg any = ns[0]
	if len(yn.Dims) == 2 {
		nArg = ns
	}
	r := m.Var(name, multinomial, []any{nArg, pRows}, append([]Option{Shape(yn.Dims...)}, opts...)...)
	// Σ_j y_ij log p_ij per row, plus the constants.
	ones := make([]float64, k)
	for i := range ones {
		ones[i] = 1
	}
	var terms Expr
	if len(yn.Dims) == 2 {
		y := make([][]float64, rows)
		for i := range y {
			y[i] = yn.Data[i*k : (i+1)*k]
		}
		terms = Add(konst, MatVec(Mul(y, Log(pRows)), ones))
	} else {
		terms = Add(konst[0], Dot(yn.Data, Log(pRows)))
		terms = Reshape(terms, 1)
	}
	r.v.Pointwise = terms.node()
	return r
}
