package ir

import (
	"fmt"
	"math"
)

// categorical_logit_lpmf(y, logits): y holds categories 0..K-1 (one per
// event, a scalar or [N]); logits is [K] (shared by every event) or [N×K]
// (one row per event). Each term is logits[y] - logsumexp(logits); the
// gradient with respect to the logits is onehot(y) - softmax(logits). y is
// data (no gradient). Pointwise mode gives one term per event.
func init() {
	register(OpCategoricalLogitLPMF, OpDef{Name: "categorical_logit_lpmf", Arity: 2,
		Shape: categoricalShape, Forward: categoricalForward, Backward: categoricalBackward})
}

func categoricalShape(p *Program, in *Instr, args [][]int) ([]int, error) {
	if err := checkLPDFInts(in); err != nil {
		return nil, err
	}
	ny := ShapeLen(args[0])
	var rows int
	switch lg := args[1]; len(lg) {
	case 1:
		rows = 1
	case 2:
		rows = lg[0]
	default:
		return nil, fmt.Errorf("categorical logits have shape %v, want [K] or [N×K]", lg)
	}
	if rows != 1 && ny != 1 && ny != rows {
		return nil, fmt.Errorf("categorical: %d outcomes but %d rows of logits; give one row per outcome or a single [K] vector", ny, rows)
	}
	if !Pointwise(in) {
		return nil, nil
	}
	return []int{max(ny, rows)}, nil
}

// categoricalDims returns the number of events, the number of categories
// and the row stride of the logits (0 when shared).
func categoricalDims(f *Frame, in *Instr) (n, k, rs int) {
	sh := f.P.Values[in.In[1]].Shape
	k = sh[len(sh)-1]
	rows := 1
	if len(sh) == 2 {
		rows = sh[0]
	}
	n = max(len(f.Val(in.In[0])), rows)
	if rows > 1 {
		rs = k
	}
	return n, k, rs
}

//gb:cuda gb_lse_plain
func logSumExp(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = math.Max(m, v)
	}
	if math.IsInf(m, 0) {
		return m
	}
	s := 0.0
	for _, v := range x {
		s += Exp(v - m)
	}
	return m + math.Log(s)
}

// categoryIndex is the category y names among k, and whether it names
// one.
//
//gb:cuda gb_category_index
func categoryIndex(y float64, k int) (int, bool) {
	if !isCount(y) || y >= float64(k) {
		return 0, false
	}
	return int(y), true
}

func categoricalForward(f *Frame, in *Instr) {
	n, k, rs := categoricalDims(f, in)
	y := f.Val(in.In[0])
	out, pw := f.Val(in.Out), Pointwise(in)
	t := categoricalLogitLPMF(y, stride(y), f.Val(in.In[1]), n, k, rs, out, pw)
	if !pw {
		out[0] = t
	}
}

// categoricalLogitLPMF is Σ_i logits_i[y_i] - logsumexp(logits_i) over n
// events of k categories: y_i at y[i*ys], row i of the logits at
// lg[i*rs:] (rs 0: one shared row). With pw it writes each term into
// out[i] too.
//
//gb:cuda gb_categorical_logit_lpmf
func categoricalLogitLPMF(y []float64, ys int, lg []float64, n, k, rs int, out []float64, pw bool) float64 {
	lse := 0.0
	if rs == 0 {
		lse = logSumExp(lg[:k])
	}
	t := 0.0
	for i := 0; i < n; i++ {
		e := math.Inf(-1)
		if c, ok := categoryIndex(y[i*ys], k); ok {
			if rs != 0 {
				lse = logSumExp(lg[i*rs : i*rs+k])
			}
			e = lg[i*rs+c] - lse
		}
		if e != e { // NaN from infinite inputs
			e = math.Inf(-1)
		}
		if pw {
			out[i] = e
		}
		t += e
	}
	return t
}

func categoricalBackward(f *Frame, in *Instr) {
	if !f.Grad(in.In[1]) {
		return
	}
	n, k, rs := categoricalDims(f, in)
	y := f.Val(in.In[0])
	categoricalLogitReverse(y, stride(y), f.Val(in.In[1]), n, k, rs, f.AdjOf(in.Out), outStride(in), f.AdjOf(in.In[1]))
}

// categoricalLogitReverse adds into adj the gradient of
// categoricalLogitLPMF's terms, term i weighted by g[i*gs]:
// g_i (onehot(y_i) - softmax(logits_i)).
//
//gb:cuda gb_categorical_logit_reverse
func categoricalLogitReverse(y []float64, ys int, lg []float64, n, k, rs int, g []float64, gs int, adj []float64) {
	if rs == 0 {
		// Shared logits: Σ_i g_i (onehot(y_i) - softmax).
		lse := logSumExp(lg[:k])
		if math.IsInf(lse, 0) || math.IsNaN(lse) {
			return
		}
		gsum := 0.0
		for i := 0; i < n; i++ {
			if c, ok := categoryIndex(y[i*ys], k); ok {
				gi := g[i*gs]
				adj[c] += gi
				gsum += gi
			}
		}
		for j := 0; j < k; j++ {
			adj[j] -= gsum * Exp(lg[j]-lse)
		}
		return
	}
	for i := 0; i < n; i++ {
		c, ok := categoryIndex(y[i*ys], k)
		if !ok {
			continue
		}
		row, ar := lg[i*k:i*k+k], adj[i*k:i*k+k]
		lse := logSumExp(row)
		if math.IsInf(lse, 0) || math.IsNaN(lse) {
			continue
		}
		gi := g[i*gs]
		ar[c] += gi
		for j, v := range row {
			ar[j] -= gi * Exp(v-lse)
		}
	}
}
