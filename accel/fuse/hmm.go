package fuse

import (
	"math"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/opdef/term"
)

// kHMMScan replaces a scan that runs the forward algorithm of a hidden
// Markov model in log space with normal emissions, in the form
//
//	α_t[k] = log_sum_exp_j(α_{t-1}[j] + c_k[j]) + normal_lpdf(y_t | μ_k, σ)
//
// whose body is, for k = 0..K-1, add(α, c_k) → log_sum_exp, then concat of
// the K sums, a pointwise normal_lpdf(y_t, μ, σ) with σ a body constant,
// and their add, emitted and carried (hmm_example as ppl writes it). The
// kernel keeps the log-sum-exp weights of every step (T·K·K private slots)
// so that the reverse sweep is K² multiply-adds per step, and writes the
// scan's output α_0..α_{T-1}; the step frames in the scan's scratch are not
// used.
type kHMMScan struct {
	in      *ir.Instr
	k       int
	cols    []ir.ID // statics c_k, [K] each
	mu      ir.ID   // static μ, [K]
	sigma   float64
	weights int // private: T·K·K log-sum-exp weights, then 2K work slots
	memo    int
}

// hmmScan matches the scan instruction i against kHMMScan's body.
func hmmScan(p *ir.Program, i int, priv *int) (kernel, bool) {
	in := &p.Instrs[i]
	if in.Op != ir.OpScan || in.Body == nil {
		return nil, false
	}
	t, c, s := ir.ScanDims(in)
	body := in.Body
	if c != 1 || s != 1 || len(body.Outputs) != 2 || body.Outputs[0].ID != body.Outputs[1].ID {
		return nil, false
	}
	carry, seq := body.Inputs[0], body.Inputs[1]
	k := body.Values[carry].Len
	if k < 2 || body.Values[seq].Len != 1 || p.Values[in.In[1]].Grad {
		return nil, false
	}
	// staticOf maps a body input to the instruction's argument.
	staticOf := map[ir.ID]ir.ID{}
	for j, id := range body.Inputs[2:] {
		staticOf[id] = in.In[2+j]
	}
	ins := body.Instrs
	if len(ins) != 2*k+3 {
		return nil, false
	}
	cols := make([]ir.ID, k)
	lses := make([]ir.ID, k)
	for j := range k {
		add, lse := &ins[2*j], &ins[2*j+1]
		if add.Op != ir.OpAdd || lse.Op != ir.OpLogSumExp || lse.In[0] != add.Out || add.In[0] != carry {
			return nil, false
		}
		col, ok := staticOf[add.In[1]]
		if !ok || body.Values[add.In[1]].Len != k {
			return nil, false
		}
		cols[j], lses[j] = col, lse.Out
	}
	cat, nrm, sum := &ins[2*k], &ins[2*k+1], &ins[2*k+2]
	if cat.Op != ir.OpConcat || len(cat.In) != k || body.Values[cat.Out].Len != k {
		return nil, false
	}
	for j := range k {
		if cat.In[j] != lses[j] {
			return nil, false
		}
	}
	if nrm.Op != ir.OpNormalLPDF || !ir.Pointwise(nrm) || nrm.In[0] != seq || body.Values[nrm.Out].Len != k {
		return nil, false
	}
	mu, ok := staticOf[nrm.In[1]]
	sv := &body.Values[nrm.In[2]]
	if !ok || body.Values[nrm.In[1]].Len != k || sv.Kind != ir.Const || sv.Len != 1 {
		return nil, false
	}
	if sum.Op != ir.OpAdd || sum.Out != body.Outputs[0].ID ||
		!(sum.In[0] == cat.Out && sum.In[1] == nrm.Out || sum.In[0] == nrm.Out && sum.In[1] == cat.Out) {
		return nil, false
	}
	kern := &kHMMScan{in: in, k: k, cols: cols, mu: mu, sigma: body.Init[sv.Off],
		weights: alloc(priv, t*k*k+2*k), memo: alloc(priv, 2)}
	return kern, true
}

func (h *kHMMScan) Forward(f *ir.Frame) {
	in, k := h.in, h.k
	t := in.Ints[0]
	init, y, out := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.Out)
	mu := f.Val(h.mu)
	w := f.Private()[h.weights : h.weights+t*k*k]
	x := f.Private()[h.weights+t*k*k : h.weights+t*k*k+k]
	e := f.Private()[h.weights+t*k*k+k : h.weights+t*k*k+2*k]
	s := h.sigma
	ok, ls, inv := s > 0, 0.0, 0.0
	if ok {
		ls, inv = memoLog(f, h.memo, s), 1/s
	}
	prev := init[:k]
	if k == 2 {
		h.forward2(f, prev, y, out, w, mu, ok, ls, inv)
		return
	}
	for step := range t {
		yt := y[step]
		cur := out[step*k : (step+1)*k]
		for j := range k {
			col := f.Val(h.cols[j])[:k]
			for l := range k {
				x[l] = prev[l] + col[l]
			}
			lse := ir.LogSumExpInto(x, e)
			ws := w[(step*k+j)*k : (step*k+j+1)*k]
			if math.IsInf(lse, 0) || math.IsNaN(lse) {
				clear(ws)
			} else {
				tot := 0.0
				for _, v := range e {
					tot += v
				}
				r := 1 / tot
				for l, v := range e {
					ws[l] = r * v
				}
			}
			em := negInf
			if ok {
				em = term.NormalValue(yt, mu[j], ls, inv)
			}
			if em != em {
				em = negInf
			}
			cur[j] = lse + em
		}
		prev = cur
	}
}

func (h *kHMMScan) Backward(f *ir.Frame) {
	in, k := h.in, h.k
	t := in.Ints[0]
	y, g := f.Val(in.In[1]), f.AdjOf(in.Out)
	mu := f.Val(h.mu)
	w := f.Private()[h.weights : h.weights+t*k*k]
	ca := f.Private()[h.weights+t*k*k : h.weights+t*k*k+k]      // carry adjoint into step t
	nca := f.Private()[h.weights+t*k*k+k : h.weights+t*k*k+2*k] // into step t-1
	clear(ca)
	gmu := gradOrNil(f, h.mu)
	s := h.sigma
	inv := 1 / s
	for step := t - 1; step >= 0; step-- {
		clear(nca)
		for j := range k {
			b := g[step*k+j] + ca[j]
			if gmu != nil && s > 0 {
				_, dmu, _ := term.NormalGrad(y[step], mu[j], inv)
				gmu[j] += b * dmu
			}
			ws := w[(step*k+j)*k : (step*k+j+1)*k]
			var gc []float64
			if f.Grad(h.cols[j]) {
				gc = f.AdjOf(h.cols[j])
			}
			for l, v := range ws {
				d := b * v
				nca[l] += d
				if gc != nil {
					gc[l] += d
				}
			}
		}
		ca, nca = nca, ca
	}
	if ga := gradOrNil(f, in.In[0]); ga != nil {
		for l := range k {
			ga[l] += ca[l]
		}
	}
}

// forward2 is forward for two states, with log_sum_exp of two terms
// written out: the same arithmetic as logSumExpInto and the weights of
// the general loop, without its loops.
func (h *kHMMScan) forward2(f *ir.Frame, prev, y, out, w, mu []float64, ok bool, ls, inv float64) {
	c0, c1 := f.Val(h.cols[0])[:2], f.Val(h.cols[1])[:2]
	mu = mu[:2]
	p0, p1 := prev[0], prev[1]
	for step, yt := range y[:len(out)/2] {
		cur := out[2*step : 2*step+2]
		ws := w[4*step : 4*step+4]
		for j, col := range [2][]float64{c0, c1} {
			a0, a1 := p0+col[0], p1+col[1]
			m, hi := math.Inf(-1), -1
			if a0 > m || a0 != a0 {
				m, hi = a0, 0
			}
			if a1 > m || a1 != a1 {
				m, hi = a1, 1
			}
			var lse float64
			if math.IsInf(m, 0) || m != m {
				lse = m
				ws[2*j], ws[2*j+1] = 0, 0
			} else {
				lo := a1
				if hi == 1 {
					lo = a0
				}
				e := ir.Exp(lo - m)
				lse = m + math.Log1p(e)
				r := 1 / (1 + e)
				if hi == 0 {
					ws[2*j], ws[2*j+1] = r, r*e
				} else {
					ws[2*j], ws[2*j+1] = r*e, r
				}
			}
			em := negInf
			if ok {
				em = term.NormalValue(yt, mu[j], ls, inv)
			}
			if em != em {
				em = negInf
			}
			cur[j] = lse + em
		}
		p0, p1 = cur[0], cur[1]
	}
}
