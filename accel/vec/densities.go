package vec

import (
	"math"

	"github.com/gobayes/gobayes/accel/ir"
)

// The normal's lockstep kernel when σ is one value per chain (a
// parameter): the one log density still written here. Every other shape
// of the normal, and every other family, runs the kernels generated from
// accel/opdef (lpdf_gen.go). In this shape the generated kernel measured
// 1.10× (a regression's shape: y data, μ per chain) and 1.06× (a
// mixture's pointwise terms) the hand loops it would replace, and this
// kernel, the normal alone without the location-scale family's branches,
// 0.82× and 0.77× of them (vec's BenchmarkFamilies, best of 10 paired
// rounds, a third binary of the old code as control within 0.99–1.04):
// the generated loop over chains spills its counter and a row pointer
// around each iteration and tests σ > 0 per chain, where here an invalid
// σ gives NaN constants that the NaN test of the term covers. With σ
// shared by every chain the generated kernel runs: it took 0.97× (data σ
// per element) and 1.01× (a prior with constant μ and σ) the old hand
// loops (the same benchmarks, best of 6 paired rounds, control within
// 0.88–1.04). Outside the support a term is -Inf and adds nothing to the
// gradient, as in ir.

// row is element i of x for every chain as B values: x's own slots when
// x is per chain, else fill set to the shared value (refilled only when
// it changes, fill being this call's own row from i = 0).
func (b *Batch) row(x operand, i int, fill []float64) []float64 {
	o := x.off + i*x.es
	if x.cs == 1 {
		return b.V[o : o+b.B]
	}
	if xv := b.V[o]; i == 0 || fill[0] != xv {
		for c := range fill {
			fill[c] = xv
		}
	}
	return fill
}

// adjRow is the adjoint of element i of x for every chain, or a row that
// nothing reads when x carries no gradient (or !ok), so that the loops
// add without testing.
func (b *Batch) adjRow(x operand, i int, ok bool) []float64 {
	if !ok || !x.grad {
		return b.rows[5]
	}
	o := x.off + i*x.es
	return b.Adj[o : o+b.B]
}

// put stores a term (NaN from infinite inputs as -Inf), or adds it to
// the sum.
func (b *Batch) put(at int, e float64, pw bool) {
	if e != e {
		e = math.Inf(-1)
	}
	if pw {
		b.V[at] = e
	} else {
		b.V[at] += e
	}
}

// scaleRows fills lg[c] = log σ and inv[c] = 1/σ for element i of a
// per-chain σ and every chain c; both are NaN where σ is not positive
// (outside the support), lg is left out without withLog. Nothing changes
// when element i reads the same σ as element i−1 (a scalar σ).
func (b *Batch) scaleRows(s operand, i int, lg, inv []float64, withLog bool) {
	if i > 0 && s.es == 0 {
		return
	}
	ss := b.V[s.off+i*s.es : s.off+i*s.es+b.B]
	lg, inv = lg[:len(ss)], inv[:len(ss)]
	for c, sv := range ss {
		if !(sv > 0) {
			lg[c], inv[c] = math.NaN(), math.NaN()
			continue
		}
		if withLog {
			lg[c] = math.Log(sv)
		}
		inv[c] = 1 / sv
	}
}

// diffRow is element i of y − μ for every chain, in b.tmp.
func (b *Batch) diffRow(y, mu operand, i int) []float64 {
	v, d := b.V, b.tmp
	yo, mo := y.off+i*y.es, mu.off+i*mu.es
	switch {
	case y.cs == 1 && mu.cs == 1:
		ys, ms := v[yo:yo+b.B], v[mo:mo+b.B]
		ms = ms[:len(ys)]
		for c, yv := range ys {
			d[c] = yv - ms[c]
		}
	case y.cs == 1:
		ys, m := v[yo:yo+b.B], v[mo]
		for c, yv := range ys {
			d[c] = yv - m
		}
	case mu.cs == 1:
		yv, ms := v[yo], v[mo:mo+b.B]
		for c, m := range ms {
			d[c] = yv - m
		}
	default:
		r := v[yo] - v[mo]
		for c := range d {
			d[c] = r
		}
	}
	return d
}

// normalForward is normal_lpdf(y | μ, σ) with σ per chain, summed or
// pointwise: over the rows of y − μ, log σ and 1/σ.
func (b *Batch) normalForward(in *ir.Instr) {
	v, o, nb := b.V, b.loc[in.Out], b.B
	y, mu, sg := b.elem(in.In[0]), b.elem(in.In[1]), b.elem(in.In[2])
	n := max(y.n, mu.n, sg.n)
	pw := ir.Pointwise(in)
	if !pw {
		clear(v[o.off : o.off+nb])
	}
	lg, inv := b.rows[0], b.rows[1]
	for i := 0; i < n; i++ {
		d := b.diffRow(y, mu, i)
		out := v[o.off : o.off+nb]
		if pw {
			out = v[o.off+i*nb : o.off+(i+1)*nb]
		}
		b.scaleRows(sg, i, lg, inv, true)
		d, lg, inv := d[:len(out)], lg[:len(out)], inv[:len(out)]
		for c, dc := range d {
			z := dc * inv[c] // NaN outside σ's support
			e := -lnSqrt2Pi - lg[c] - 0.5*z*z
			if e != e {
				e = math.Inf(-1)
			}
			if pw {
				out[c] = e
			} else {
				out[c] += e
			}
		}
	}
}

func (b *Batch) normalBackward(in *ir.Instr) {
	a, o, nb := b.Adj, b.loc[in.Out], b.B
	y, mu, sg := b.elem(in.In[0]), b.elem(in.In[1]), b.elem(in.In[2])
	n := max(y.n, mu.n, sg.n)
	pw := ir.Pointwise(in)
	if !y.grad && !mu.grad && !sg.grad {
		return
	}
	lg, inv := b.rows[0], b.rows[1]
	for i := 0; i < n; i++ {
		d := b.diffRow(y, mu, i)
		gy, gm, gs := b.adjRow(y, i, true), b.adjRow(mu, i, true), b.adjRow(sg, i, true)
		g := a[o.off : o.off+nb]
		if pw {
			g = a[o.off+i*nb : o.off+(i+1)*nb]
		}
		b.scaleRows(sg, i, lg, inv, false)
		d, gy, gm, inv, gs := d[:len(g)], gy[:len(g)], gm[:len(g)], inv[:len(g)], gs[:len(g)]
		for c, gc := range g {
			r := inv[c]
			if r != r {
				continue
			}
			// dt = ∂/∂y = −∂/∂μ, ds = ∂/∂σ.
			z := d[c] * r
			dt, ds := -gc*z*r, gc*(z*z-1)*r
			gy[c] += dt
			gm[c] -= dt
			gs[c] += ds
		}
	}
}
