package vec

import (
	"math"

	"github.com/gobayes/gobayes/accel/ir"
)

// The lockstep kernels. Each loops over elements, then over chains, with
// the formulas of package ir's reference semantics; an input of length 1
// broadcasts (element stride 0), a shared input has chain stride 0.

// elem returns the operand of input id for an elementwise op with n
// output elements: a scalar input broadcasts.
func (b *Batch) elem(id ir.ID) operand {
	l := b.loc[id]
	if l.n == 1 {
		l.es = 0
	}
	return l
}

// The elementwise ops' kernels (unaryForward, unaryBackward, binaryForward,
// binaryBackward) are generated from accel/opdef (elementwise_gen.go).

func (b *Batch) sumForward(in *ir.Instr) {
	v, o, x := b.V, b.loc[in.Out], b.loc[in.In[0]]
	out := v[o.off : o.off+b.B]
	clear(out)
	for i := 0; i < x.n; i++ {
		xs := v[x.off+i*b.B : x.off+(i+1)*b.B]
		for c := range out {
			out[c] += xs[c]
		}
	}
}

func (b *Batch) sumBackward(in *ir.Instr) {
	a, o, x := b.Adj, b.loc[in.Out], b.loc[in.In[0]]
	g := a[o.off : o.off+b.B]
	for i := 0; i < x.n; i++ {
		xs := a[x.off+i*b.B : x.off+(i+1)*b.B]
		for c := range xs {
			xs[c] += g[c]
		}
	}
}

func (b *Batch) addNForward(in *ir.Instr) {
	v, o := b.V, b.loc[in.Out]
	out := v[o.off : o.off+b.B]
	clear(out)
	for _, id := range in.In {
		x := b.loc[id]
		if x.cs == 0 {
			for c := range out {
				out[c] += v[x.off]
			}
			continue
		}
		xs := v[x.off : x.off+b.B]
		for c := range out {
			out[c] += xs[c]
		}
	}
}

func (b *Batch) addNBackward(in *ir.Instr) {
	a, o := b.Adj, b.loc[in.Out]
	g := a[o.off : o.off+b.B]
	for _, id := range in.In {
		x := b.loc[id]
		if !x.grad {
			continue
		}
		xs := a[x.off : x.off+b.B]
		for c := range xs {
			xs[c] += g[c]
		}
	}
}

// logSumExpForward leaves exp(x_i - max) in the scratch for the reverse
// sweep, as ir does.
func (b *Batch) logSumExpForward(in *ir.Instr) {
	v, o, x, e := b.V, b.loc[in.Out], b.loc[in.In[0]], b.loc[in.Scratch]
	n, nb := x.n, b.B
	// The maximum of each chain (NaN wins), kept in the output slots.
	m := v[o.off : o.off+nb]
	copy(m, v[x.off:x.off+nb])
	for i := 1; i < n; i++ {
		xs := v[x.off+i*nb : x.off+(i+1)*nb]
		for c, xv := range xs {
			if xv > m[c] || xv != xv {
				m[c] = xv
			}
		}
	}
	// e_i = exp(x_i − max) for every element, the maximum's exactly 1; a
	// chain whose maximum is not finite gives zeros here and its maximum
	// as the result.
	es := v[e.off : e.off+n*nb]
	for i := 0; i < n; i++ {
		xs, ei := v[x.off+i*nb:x.off+(i+1)*nb], es[i*nb:(i+1)*nb]
		for c, xv := range xs {
			d := xv - m[c]
			if !(d > expMin) {
				d = -708 // exp gives 3e-308, nothing beside the maximum's 1; also for a non-finite maximum
			}
			ei[c] = d
		}
	}
	ExpInRange(es, es)
	sum := b.tmp
	copy(sum, es[:nb])
	for i := 1; i < n; i++ {
		for c, t := range es[i*nb : (i+1)*nb] {
			sum[c] += t
		}
	}
	logInRange(sum, sum) // every sum is in [1, n]
	for c, mc := range m {
		if !math.IsInf(mc, 0) && mc == mc {
			m[c] = mc + sum[c]
		}
	}
}

func (b *Batch) logSumExpBackward(in *ir.Instr) {
	v, a, o, x, e := b.V, b.Adj, b.loc[in.Out], b.loc[in.In[0]], b.loc[in.Scratch]
	if !x.grad {
		return
	}
	n := x.n
	for c := 0; c < b.B; c++ {
		y := v[o.off+c]
		if math.IsInf(y, 0) || math.IsNaN(y) {
			continue
		}
		s := 0.0
		for i := 0; i < n; i++ {
			s += v[e.off+i*b.B+c]
		}
		r := a[o.off+c] / s
		for i := 0; i < n; i++ {
			a[x.off+i*b.B+c] += r * v[e.off+i*b.B+c]
		}
	}
}

const lnSqrt2Pi = 0.91893853320467274178032973640561763986139747363778 // log √(2π)

// matVecForward is A·v with A data [n×k] and v per chain [k].
func (b *Batch) matVecForward(in *ir.Instr) {
	v, o, am, x := b.V, b.loc[in.Out], b.loc[in.In[0]], b.loc[in.In[1]]
	nb := b.B
	k := x.n
	n := o.n
	for i := 0; i < n; i++ {
		out := v[o.off+i*nb : o.off+(i+1)*nb]
		clear(out)
		row := v[am.off+i*k : am.off+(i+1)*k]
		for j, aij := range row {
			xs := v[x.off+j*nb : x.off+(j+1)*nb]
			xs = xs[:len(out)]
			for c, xv := range xs {
				out[c] += aij * xv
			}
		}
	}
}

// matVecBackward adds Aᵀ·g into v's adjoint.
func (b *Batch) matVecBackward(in *ir.Instr) {
	v, a, o, am, x := b.V, b.Adj, b.loc[in.Out], b.loc[in.In[0]], b.loc[in.In[1]]
	if !x.grad {
		return
	}
	nb := b.B
	k := x.n
	for i := 0; i < o.n; i++ {
		g := a[o.off+i*nb : o.off+(i+1)*nb]
		row := v[am.off+i*k : am.off+(i+1)*k]
		for j, aij := range row {
			gx := a[x.off+j*nb : x.off+(j+1)*nb]
			gx = gx[:len(g)]
			for c, gv := range g {
				gx[c] += aij * gv
			}
		}
	}
}

// logMixForward is log(t·exp(a) + (1−t)·exp(b)) elementwise, leaving
// exp(min−max) in the scratch for the reverse sweep, as ir does.
func (b *Batch) logMixForward(in *ir.Instr) {
	v, o, e := b.V, b.loc[in.Out], b.loc[in.Scratch]
	t, x, y := b.elem(in.In[0]), b.elem(in.In[1]), b.elem(in.In[2])
	nb := b.B
	for i := 0; i < o.n; i++ {
		to, xo, yo, oo, eo := t.off+i*t.es, x.off+i*x.es, y.off+i*y.es, o.off+i*nb, e.off+i*nb
		for c := 0; c < nb; c++ {
			ti, ai, bi := v[to+c*t.cs], v[xo+c*x.cs], v[yo+c*y.cs]
			switch {
			case math.IsInf(ai, -1) && math.IsInf(bi, -1):
				v[eo+c], v[oo+c] = 0, math.Inf(-1)
			case ai >= bi:
				r := ir.Exp(bi - ai)
				v[eo+c], v[oo+c] = r, ai+math.Log(ti+(1-ti)*r)
			default:
				r := ir.Exp(ai - bi)
				v[eo+c], v[oo+c] = r, bi+math.Log(ti*r+1-ti)
			}
		}
	}
}

func (b *Batch) logMixBackward(in *ir.Instr) {
	v, a, o, e := b.V, b.Adj, b.loc[in.Out], b.loc[in.Scratch]
	t, x, y := b.elem(in.In[0]), b.elem(in.In[1]), b.elem(in.In[2])
	nb := b.B
	for i := 0; i < o.n; i++ {
		to, xo, yo, oo, eo := t.off+i*t.es, x.off+i*x.es, y.off+i*y.es, o.off+i*nb, e.off+i*nb
		for c := 0; c < nb; c++ {
			g := a[oo+c]
			if math.IsInf(v[oo+c], -1) || g == 0 {
				continue
			}
			ti, r := v[to+c*t.cs], v[eo+c]
			var ea, eb float64 // exp(a−y), exp(b−y)
			if v[xo+c*x.cs] >= v[yo+c*y.cs] {
				d := ti + (1-ti)*r
				ea, eb = 1/d, r/d
			} else {
				d := ti*r + 1 - ti
				ea, eb = r/d, 1/d
			}
			if t.grad {
				a[to+c] += g * (ea - eb)
			}
			if x.grad {
				a[xo+c] += g * ti * ea
			}
			if y.grad {
				a[yo+c] += g * (1 - ti) * eb
			}
		}
	}
}
