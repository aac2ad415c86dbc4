package vec

import (
	"math"

	"github.com/gobayes/gobayes/accel/ir"
)

// linearNormal is a fused kernel for the likelihood of a linear
// regression, Σ_i normal_lpdf(y_i | (X·β)_i, σ), with y and X data, β per
// chain and σ one scalar (shared or per chain). The sum of squares
// S = |y − Xβ|² comes from statistics of the data computed once in New,
// centred at the least-squares fit β₀:
//
//	S = S₀ − 2Δᵀc + ΔᵀGΔ,  Δ = β − β₀, G = XᵀX, c = Xᵀ(y − Xβ₀), S₀ = |y − Xβ₀|²
//	log p = −S/(2σ²) − N(log σ + log √(2π))
//	∂β = (c − GΔ)/σ²,  ∂σ = (S/σ² − N)/σ
//
// so a chain costs O(k²) instead of O(N·k), and X·β (N values per chain
// and their adjoints) is never formed: the matvec instruction is skipped.
// c is zero up to rounding, so S is a sum of two non-negative terms and
// keeps the accuracy of the direct sum; without a fit (XᵀX singular) β₀
// is 0.
type linearNormal struct {
	beta, sg operand
	n, k     int
	g        []float64 // XᵀX, k×k row-major
	c, beta0 []float64
	s0       float64
	d, gd    []float64 // one chain's Δ and GΔ
}

// fuseLinearNormals finds normal_lpdf(y, matvec(X, β), σ) summed, with y
// and X data, β per chain, σ a scalar, and the matvec's output read by
// nothing else; the normal then runs linearNormal and the matvec nothing.
func (b *Batch) fuseLinearNormals() {
	p := b.P
	producer := map[ir.ID]int{}
	uses := map[ir.ID]int{}
	for k, in := range p.Instrs {
		producer[in.Out] = k
		for _, a := range in.In {
			uses[a]++
		}
	}
	for _, o := range p.Outputs {
		uses[o.ID]++
	}
	uses[p.Target]++
	for k := range p.Instrs {
		in := &p.Instrs[k]
		if b.plan[k].k != kNormal || isPointwise(in) {
			continue
		}
		y, mu, sg := b.loc[in.In[0]], in.In[1], b.loc[in.In[2]]
		j, ok := producer[mu]
		if !ok || b.plan[j].k != kMatVec || uses[mu] != 1 || y.per || sg.n != 1 || b.viewed(mu) {
			continue
		}
		mv := &p.Instrs[j]
		x, beta := b.loc[mv.In[0]], b.loc[mv.In[1]]
		n, kk := y.n, beta.n
		if b.loc[mu].n != n || n < 2*kk {
			continue
		}
		l := &linearNormal{beta: beta, sg: sg, n: n, k: kk, d: make([]float64, kk), gd: make([]float64, kk)}
		l.fit(b.V[x.off:x.off+n*kk], b.V[y.off:y.off+n])
		b.plan[k] = step{k: kLinearNormal, lin: l}
		b.plan[j] = step{k: kNone}
	}
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
// not (numerically) positive definite.
func cholesky(a []float64, k int) ([]float64, bool) {
	l := make([]float64, k*k)
	for i := 0; i < k; i++ {
		for j := 0; j <= i; j++ {
			s := a[i*k+j]
			for m := 0; m < j; m++ {
				s -= l[i*k+m] * l[j*k+m]
			}
			if i == j {
				if !(s > 1e-12*a[i*k+i]) {
					return nil, false
				}
				l[i*k+i] = math.Sqrt(s)
			} else {
				l[i*k+j] = s / l[j*k+j]
			}
		}
	}
	return l, true
}

// chain loads chain c's Δ, computes GΔ and returns S.
func (l *linearNormal) chain(v []float64, nb, c int) float64 {
	k, d, gd := l.k, l.d, l.gd
	for j := range d {
		d[j] = v[l.beta.off+j*nb+c] - l.beta0[j]
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
		lgShared = LogScalar(v[l.sg.off])
	}
	for c := 0; c < nb; c++ {
		s := v[l.sg.off+c*l.sg.cs]
		lp := math.Inf(-1)
		if s > 0 {
			lg := lgShared
			if l.sg.cs != 0 {
				lg = LogScalar(s)
			}
			inv := 1 / s
			lp = -0.5*l.chain(v, nb, c)*inv*inv - nf*(lg+lnSqrt2Pi)
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
		q := l.chain(v, nb, c)
		if l.beta.grad {
			for j, gdj := range l.gd {
				a[l.beta.off+j*nb+c] += g * (l.c[j] - gdj) * r2
			}
		}
		if l.sg.grad {
			a[l.sg.off+c] += g * (q*r2 - nf) * inv
		}
	}
}
