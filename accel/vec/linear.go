package vec

import (
	"math"

	"github.com/gobayes/gobayes/accel/dense"
	"github.com/gobayes/gobayes/accel/fuse"
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

// fuseLinearNormals runs linearNormal for each of accel/fuse's
// LinearNormal matches whose layout it handles: y, X and σ's data shared,
// σ one scalar, the coefficients per-chain, the mean's instructions plain
// lockstep instructions and the mean itself no program output; the normal
// then runs linearNormal and those instructions nothing.
func (b *Batch) fuseLinearNormals() {
	p := b.P
	for _, m := range fuse.LinearNormals(p) {
		k, in := m.Normal, &p.Instrs[m.Normal]
		y, sg := b.loc[in.In[0]], b.loc[in.In[2]]
		n := y.n
		if !b.isNormal(k) || y.per || sg.n != 1 || m.MeanOut || b.viewed(in.In[1]) {
			continue
		}
		x, coef, ok := b.linearDesign(m, n)
		if !ok || n <= len(coef) {
			continue
		}
		l := &linearNormal{coef: coef, sg: sg, n: n, k: len(coef), d: make([]float64, len(coef)), gd: make([]float64, len(coef))}
		l.fit(x, b.V[y.off:y.off+n])
		b.plan[k] = step{k: kLinearNormal, lin: l}
		for _, j := range m.Instrs {
			b.plan[j] = step{k: kNone}
		}
	}
}

// linearDesign lays out match m's design matrix X (n×k, row-major, the
// terms' columns in order) and the operands of the k coefficients, when
// every coefficient is per-chain, every column data, and every
// instruction of the mean one this batch runs as a plain kernel.
func (b *Batch) linearDesign(m fuse.LinearNormal, n int) (x []float64, coef []operand, ok bool) {
	p := b.P
	for _, j := range m.Instrs {
		if want := kBinary; p.Instrs[j].Op == ir.OpMatVec {
			want = kMatVec
			if b.plan[j].k != want {
				return nil, nil, false
			}
		} else if b.plan[j].k != want {
			return nil, nil, false
		}
	}
	var cols [][]float64
	for _, t := range m.Terms {
		c := b.loc[t.Coef]
		if !c.per {
			return nil, nil, false
		}
		if t.Instr < 0 { // an intercept
			one := make([]float64, n)
			for i := range one {
				one[i] = 1
			}
			cols = append(cols, one)
			coef = append(coef, c)
			continue
		}
		xl := b.loc[t.X]
		if xl.per {
			return nil, nil, false
		}
		data := b.V[xl.off : xl.off+xl.n]
		if p.Instrs[t.Instr].Op != ir.OpMatVec { // a scalar times a data vector
			cols = append(cols, append([]float64(nil), data...))
			coef = append(coef, c)
			continue
		}
		kk := c.n
		for j := range kk {
			col := make([]float64, n)
			for i := range col {
				col[i] = data[i*kk+j]
			}
			cols = append(cols, col)
			coef = append(coef, operand{off: c.off + j*b.B, cs: 1, n: 1, per: true, grad: c.grad})
		}
	}
	k := len(cols)
	x = make([]float64, n*k)
	for j, col := range cols {
		for i, v := range col {
			x[i*k+j] = v
		}
	}
	return x, coef, true
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
