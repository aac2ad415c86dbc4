package vec

import (
	"math"

	"github.com/gobayes/gobayes/accel/dense"
	"github.com/gobayes/gobayes/accel/ir"
)

// linearNormal is a fused kernel for the likelihood of a linear
// regression, Σ_i normal_lpdf(y_i | (X·β)_i, σ), with y and X data, the
// coefficients β per-chain scalars and σ one scalar (shared or per
// chain). X·β is a matvec of a data matrix, a per-chain scalar times a
// data vector, or a sum of these and of per-chain scalars (an intercept
// is a column of ones). The sum of squares S = |y − Xβ|² comes from
// statistics of the data computed once in New, centred at the
// least-squares fit β₀:
//
//	S = S₀ − 2Δᵀc + ΔᵀGΔ,  Δ = β − β₀, G = XᵀX, c = Xᵀ(y − Xβ₀), S₀ = |y − Xβ₀|²
//	log p = −S/(2σ²) − N(log σ + log √(2π))
//	∂β = (c − GΔ)/σ²,  ∂σ = (S/σ² − N)/σ
//
// so a chain costs O(k²) instead of O(N·k), and X·β (N values per chain
// and their adjoints) is never formed: the instructions computing it are
// skipped. c is zero up to rounding, so S is a sum of two non-negative
// terms and keeps the accuracy of the direct sum; without a fit (XᵀX
// singular) β₀ is 0.
type linearNormal struct {
	coef     []operand // β_j of chain c at coef[j].off + c
	sg       operand
	n, k     int
	g        []float64 // XᵀX, k×k row-major
	c, beta0 []float64
	s0       float64
	d, gd    []float64 // one chain's Δ and GΔ
}

// fuseLinearNormals finds normal_lpdf(y, X·β, σ) summed, with y data, σ a
// scalar and X·β as linearNormal says, computed by instructions whose
// outputs nothing else reads; the normal then runs linearNormal and those
// instructions nothing.
func (b *Batch) fuseLinearNormals() {
	p := b.P
	producer, uses := dataflow(p)
	for k := range p.Instrs {
		in := &p.Instrs[k]
		if b.plan[k].k != kNormal || ir.Pointwise(in) {
			continue
		}
		y, sg := b.loc[in.In[0]], b.loc[in.In[2]]
		n := y.n
		if y.per || sg.n != 1 || b.loc[in.In[1]].n != n {
			continue
		}
		x, coef, fused, ok := b.linearPredictor(in.In[1], n, producer, uses)
		if !ok || n <= len(coef) {
			continue
		}
		l := &linearNormal{coef: coef, sg: sg, n: n, k: len(coef), d: make([]float64, len(coef)), gd: make([]float64, len(coef))}
		l.fit(x, b.V[y.off:y.off+n])
		b.plan[k] = step{k: kLinearNormal, lin: l}
		for _, j := range fused {
			b.plan[j] = step{k: kNone}
		}
	}
}

// linearPredictor matches value mu (n elements per chain) as X·β: it
// returns X (n×k, row-major), the operands of β and the instructions
// that compute mu.
func (b *Batch) linearPredictor(mu ir.ID, n int, producer, uses map[ir.ID]int) (x []float64, coef []operand, instrs []int, ok bool) {
	j, found := producer[mu]
	if !found || uses[mu] != 1 || b.viewed(mu) || b.loc[mu].n != n {
		return nil, nil, nil, false
	}
	in := &b.P.Instrs[j]
	scalar := func(id ir.ID) bool { l := b.loc[id]; return l.per && l.n == 1 }
	switch {
	case b.plan[j].k == kMatVec:
		a, beta := b.loc[in.In[0]], b.loc[in.In[1]]
		x = append([]float64(nil), b.V[a.off:a.off+n*beta.n]...)
		for m := 0; m < beta.n; m++ {
			coef = append(coef, operand{off: beta.off + m*b.B, cs: 1, n: 1, per: true, grad: beta.grad})
		}
		return x, coef, []int{j}, true
	case b.plan[j].k != kBinary:
		return nil, nil, nil, false
	case in.Op == ir.OpMul:
		s, d := in.In[0], in.In[1]
		if !scalar(s) {
			s, d = d, s
		}
		if l := b.loc[d]; !scalar(s) || l.per || l.n != n {
			return nil, nil, nil, false
		}
		l := b.loc[d]
		return append([]float64(nil), b.V[l.off:l.off+n]...), []operand{b.loc[s]}, []int{j}, true
	case in.Op == ir.OpAdd:
		// Each side an intercept (a per-chain scalar) or a predictor.
		var cols [][]float64 // column-major pieces, joined below
		for _, id := range in.In {
			if scalar(id) {
				one := make([]float64, n)
				for i := range one {
					one[i] = 1
				}
				cols = append(cols, one)
				coef = append(coef, b.loc[id])
				continue
			}
			px, pc, pi, ok := b.linearPredictor(id, n, producer, uses)
			if !ok {
				return nil, nil, nil, false
			}
			for m := range pc {
				col := make([]float64, n)
				for i := range col {
					col[i] = px[i*len(pc)+m]
				}
				cols = append(cols, col)
			}
			coef = append(coef, pc...)
			instrs = append(instrs, pi...)
		}
		k := len(cols)
		x = make([]float64, n*k)
		for m, col := range cols {
			for i, v := range col {
				x[i*k+m] = v
			}
		}
		return x, coef, append(instrs, j), true
	}
	return nil, nil, nil, false
}

// viewed reports whether another value shares slots with id.
func (b *Batch) viewed(id ir.ID) bool {
	p := b.P
	v := p.Values[id]
	for j, w := range p.Values {
		if ir.ID(j) != id && w.Len > 0 && w.Off < v.Off+v.Len && v.Off < w.Off+w.Len {
			return true
		}
	}
	return false
}

// fit computes G, β₀ (by Cholesky of G; 0 when G is not positive
// definite), c and S₀ from X [n×k] and y [n].
func (l *linearNormal) fit(x, y []float64) {
	n, k := l.n, l.k
	l.g = make([]float64, k*k)
	xty := make([]float64, k)
	for i := 0; i < n; i++ {
		row := x[i*k : (i+1)*k]
		for a, xa := range row {
			xty[a] += xa * y[i]
			for c, xc := range row {
				l.g[a*k+c] += xa * xc
			}
		}
	}
	l.beta0 = make([]float64, k)
	if ch, ok := cholesky(l.g, k); ok {
		// Solve L·Lᵀ·β₀ = Xᵀy.
		z := make([]float64, k)
		for a := 0; a < k; a++ {
			s := xty[a]
			for c := 0; c < a; c++ {
				s -= ch[a*k+c] * z[c]
			}
			z[a] = s / ch[a*k+a]
		}
		for a := k - 1; a >= 0; a-- {
			s := z[a]
			for c := a + 1; c < k; c++ {
				s -= ch[c*k+a] * l.beta0[c]
			}
			l.beta0[a] = s / ch[a*k+a]
		}
	}
	l.c = make([]float64, k)
	l.s0 = 0
	for i := 0; i < n; i++ {
		row := x[i*k : (i+1)*k]
		r := y[i]
		for a, xa := range row {
			r -= xa * l.beta0[a]
		}
		l.s0 += r * r
		for a, xa := range row {
			l.c[a] += xa * r
		}
	}
}

// cholesky is the lower factor of the k×k matrix a, and false when a is
// not (numerically) positive definite: a pivot at most 1e-12 times its
// diagonal entry.
func cholesky(a []float64, k int) ([]float64, bool) {
	l := make([]float64, k*k)
	return l, dense.Cholesky(a, l, k, 1e-12) < 0
}

// chain loads chain c's Δ, computes GΔ and returns S.
func (l *linearNormal) chain(v []float64, c int) float64 {
	k, d, gd := l.k, l.d, l.gd
	for j := range d {
		d[j] = v[l.coef[j].off+c] - l.beta0[j]
	}
	s := l.s0
	for j := 0; j < k; j++ {
		row := l.g[j*k : (j+1)*k]
		t := 0.0
		for m, gm := range row {
			t += gm * d[m]
		}
		gd[j] = t
		s += d[j] * (t - 2*l.c[j])
	}
	return max(s, 0)
}

func (b *Batch) linearNormalForward(in *ir.Instr, l *linearNormal) {
	v, o, nb := b.V, b.loc[in.Out], b.B
	nf := float64(l.n)
	lgShared := 0.0
	if l.sg.cs == 0 {
		lgShared = math.Log(v[l.sg.off])
	}
	for c := 0; c < nb; c++ {
		s := v[l.sg.off+c*l.sg.cs]
		lp := math.Inf(-1)
		if s > 0 {
			lg := lgShared
			if l.sg.cs != 0 {
				lg = math.Log(s)
			}
			inv := 1 / s
			lp = -0.5*l.chain(v, c)*inv*inv - nf*(lg+lnSqrt2Pi)
			if lp != lp {
				lp = math.Inf(-1)
			}
		}
		v[o.off+c] = lp
	}
}

func (b *Batch) linearNormalBackward(in *ir.Instr, l *linearNormal) {
	v, a, o, nb := b.V, b.Adj, b.loc[in.Out], b.B
	nf := float64(l.n)
	for c := 0; c < nb; c++ {
		s := v[l.sg.off+c*l.sg.cs]
		if !(s > 0) {
			continue
		}
		g := a[o.off+c]
		inv := 1 / s
		r2 := inv * inv
		q := l.chain(v, c)
		for j, gdj := range l.gd {
			if l.coef[j].grad {
				a[l.coef[j].off+c] += g * (l.c[j] - gdj) * r2
			}
		}
		if l.sg.grad {
			a[l.sg.off+c] += g * (q*r2 - nf) * inv
		}
	}
}
