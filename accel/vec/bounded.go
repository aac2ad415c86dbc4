package vec

import (
	"math"

	"github.com/gobayes/gobayes/accel/ir"
)

// Lockstep kernels of the bijectors of bounded parameters, with the
// formulas of package ir (bijectors.go):
//
//	lower:    y = lb + exp(x)               log J = Σ x (kSum)
//	upper:    y = ub − exp(x)               log J = Σ x (kSum)
//	interval: y = lb + (ub−lb)·logistic(x)  log J = Σ log(ub−lb) + log σ(x) + log(1−σ(x))
//
// x is per chain; a bound is shared or per chain, a scalar or one per
// element.

// boundForward is lb + sign·exp(x) (sign −1: the upper bound), leaving
// exp(x) in the scratch for the reverse sweep, as ir does.
func (b *Batch) boundForward(in *ir.Instr, sign float64) {
	v, o, x, lb, e := b.V, b.loc[in.Out], b.loc[in.In[0]], b.elem(in.In[1]), b.loc[in.Scratch]
	nb := b.B
	// ir.Exp, ir's own scalar exp, so the values are ir's bit for bit: the
	// vector Exp is within 2 ulp, but a transformed parameter feeds
	// everything after it (a Cholesky factor of a nearly singular
	// covariance amplifies 1 ulp of a length scale to 1e-10).
	es, xs := v[e.off:e.off+x.n*nb], v[x.off:x.off+x.n*nb]
	xs = xs[:len(es)]
	for j, xv := range xs {
		es[j] = ir.Exp(xv)
	}
	for i := 0; i < o.n; i++ {
		out, ei := v[o.off+i*nb:o.off+(i+1)*nb], es[i*nb:(i+1)*nb]
		ei = ei[:len(out)]
		lo := lb.off + i*lb.es
		if lb.cs == 0 {
			l := v[lo]
			for c, t := range ei {
				out[c] = l + sign*t
			}
			continue
		}
		ls := v[lo : lo+nb]
		ls = ls[:len(out)]
		for c, t := range ei {
			out[c] = ls[c] + sign*t
		}
	}
}

func (b *Batch) boundBackward(in *ir.Instr, sign float64) {
	v, a, o, x, lb, e := b.V, b.Adj, b.loc[in.Out], b.loc[in.In[0]], b.elem(in.In[1]), b.loc[in.Scratch]
	nb := b.B
	for i := 0; i < o.n; i++ {
		g := a[o.off+i*nb : o.off+(i+1)*nb]
		if x.grad {
			gx, ei := a[x.off+i*nb:x.off+(i+1)*nb], v[e.off+i*nb:e.off+(i+1)*nb]
			gx, ei = gx[:len(g)], ei[:len(g)]
			for c, gc := range g {
				gx[c] += sign * gc * ei[c]
			}
		}
		if lb.grad {
			gl := a[lb.off+i*lb.es : lb.off+i*lb.es+nb]
			gl = gl[:len(g)]
			for c, gc := range g {
				gl[c] += gc
			}
		}
	}
}

// logisticPair is (σ(x), 1−σ(x)) from one exponential, both accurate in
// the tails (ir's formula).
func logisticPair(x float64) (s, sc float64) {
	e := ir.Exp(-math.Abs(x))
	p, q := 1/(1+e), e/(1+e)
	if x >= 0 {
		return p, q
	}
	return q, p
}

// intervalForward is lb + (ub−lb)·logistic(x), computed from the nearer
// bound as ir does.
func (b *Batch) intervalForward(in *ir.Instr) {
	v, o, x, lb, ub := b.V, b.loc[in.Out], b.loc[in.In[0]], b.elem(in.In[1]), b.elem(in.In[2])
	nb := b.B
	for i := 0; i < o.n; i++ {
		out, xs := v[o.off+i*nb:o.off+(i+1)*nb], v[x.off+i*nb:x.off+(i+1)*nb]
		xs = xs[:len(out)]
		lo, uo := lb.off+i*lb.es, ub.off+i*ub.es
		for c, xv := range xs {
			l, u := v[lo+c*lb.cs], v[uo+c*ub.cs]
			if xv > 0 {
				out[c] = u - (u-l)*ir.Logistic(-xv)
			} else {
				out[c] = l + (u-l)*ir.Logistic(xv)
			}
		}
	}
}

func (b *Batch) intervalBackward(in *ir.Instr) {
	v, a, o, x, lb, ub := b.V, b.Adj, b.loc[in.Out], b.loc[in.In[0]], b.elem(in.In[1]), b.elem(in.In[2])
	nb := b.B
	for i := 0; i < o.n; i++ {
		oo, xo, lo, uo := o.off+i*nb, x.off+i*nb, lb.off+i*lb.es, ub.off+i*ub.es
		for c := 0; c < nb; c++ {
			g := a[oo+c]
			s, sc := logisticPair(v[xo+c])
			if x.grad {
				a[xo+c] += g * (v[uo+c*ub.cs] - v[lo+c*lb.cs]) * s * sc
			}
			if lb.grad {
				a[lo+c] += g * sc
			}
			if ub.grad {
				a[uo+c] += g * s
			}
		}
	}
}

// logisticLogJ is log σ(x) + log(1−σ(x)) = −|x| − 2·log(1+e^{−|x|}),
// ir's formula (its log1p: exact where 1+t rounds to 1).
func logisticLogJ(x float64) float64 {
	t := math.Abs(x)
	e := ir.Exp(-t)
	u := 1 + e
	l := e
	if u != 1 {
		l = math.Log(u) * e / (u - 1)
	}
	return -t - 2*l
}

// intervalLogJForward is Σ_i log(ub−lb) + logisticLogJ(x_i); the width's
// logarithm once per element when both bounds are shared.
func (b *Batch) intervalLogJForward(in *ir.Instr) {
	v, o, x, lb, ub := b.V, b.loc[in.Out], b.loc[in.In[0]], b.elem(in.In[1]), b.elem(in.In[2])
	nb := b.B
	out := v[o.off : o.off+nb]
	clear(out)
	for i := 0; i < x.n; i++ {
		xs := v[x.off+i*nb : x.off+(i+1)*nb]
		xs = xs[:len(out)]
		lo, uo := lb.off+i*lb.es, ub.off+i*ub.es
		if lb.cs == 0 && ub.cs == 0 {
			w := math.Log(v[uo] - v[lo])
			for c, xv := range xs {
				out[c] += w + logisticLogJ(xv)
			}
			continue
		}
		for c, xv := range xs {
			out[c] += math.Log(v[uo+c*ub.cs]-v[lo+c*lb.cs]) + logisticLogJ(xv)
		}
	}
}

func (b *Batch) intervalLogJBackward(in *ir.Instr) {
	v, a, o, x, lb, ub := b.V, b.Adj, b.loc[in.Out], b.loc[in.In[0]], b.elem(in.In[1]), b.elem(in.In[2])
	nb := b.B
	g := a[o.off : o.off+nb]
	for i := 0; i < x.n; i++ {
		xo, lo, uo := x.off+i*nb, lb.off+i*lb.es, ub.off+i*ub.es
		for c, gc := range g {
			if x.grad {
				a[xo+c] += gc * (1 - 2*ir.Logistic(v[xo+c]))
			}
			if lb.grad || ub.grad {
				d := gc / (v[uo+c*ub.cs] - v[lo+c*lb.cs])
				if lb.grad {
					a[lo+c] -= d
				}
				if ub.grad {
					a[uo+c] += d
				}
			}
		}
	}
}

// boundSign is +1 for a lower bound (lb + exp(x)), −1 for an upper one.
func boundSign(op ir.Op) float64 {
	if op == ir.OpUpperFwd {
		return -1
	}
	return 1
}
