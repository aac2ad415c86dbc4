package vec

import (
	"math"

	"github.com/gobayes/gobayes/accel/ir"
)

// Lockstep kernels of the likelihoods of generalised linear models with
// observed data y (shared) and a per-chain linear predictor η, with
// package ir's formulas:
//
//	poisson_log_lpmf(y | η)     = y·η − exp(η) − lgamma(y+1), y a count
//	bernoulli_logit_lpmf(y | η) = log logistic(s·η), s = 2y − 1, y 0 or 1
//
// with gradients y − exp(η) and y − logistic(η). An invalid y gives -Inf
// and no gradient, as in ir.

// isCount reports whether x is a non-negative integer.
func isCount(x float64) bool { return x >= 0 && x == math.Trunc(x) && !math.IsInf(x, 1) }

func (b *Batch) glmForward(in *ir.Instr) {
	v, o, nb := b.V, b.loc[in.Out], b.B
	y, eta := b.elem(in.In[0]), b.elem(in.In[1])
	n := max(y.n, eta.n)
	pw := ir.Pointwise(in)
	if !pw {
		clear(v[o.off : o.off+nb])
	}
	poisson := in.Op == ir.OpPoissonLogLPMF
	for i := 0; i < n; i++ {
		oo := o.off
		if pw {
			oo += i * nb
		}
		yi, xo := v[y.off+i*y.es], eta.off+i*eta.es
		if poisson {
			lg, ok := 0.0, isCount(yi)
			if ok {
				lg = lgamma(yi + 1)
			}
			for c := 0; c < nb; c++ {
				x := v[xo+c*eta.cs]
				e := math.Inf(-1)
				if ok && x <= math.MaxFloat64 { // rejects NaN and +Inf
					e = -lg - ir.Exp(x)
					if yi > 0 {
						e += yi * x
					}
				}
				b.put(oo+c, e, pw)
			}
			continue
		}
		s, ok := 2*yi-1, yi == 0 || yi == 1
		for c := 0; c < nb; c++ {
			x := v[xo+c*eta.cs]
			e := math.Inf(-1)
			if ok {
				e = -math.Log1p(ir.Exp(-math.Abs(x)))
				if m := s * x; m < 0 {
					e += m
				}
			}
			b.put(oo+c, e, pw)
		}
	}
}

func (b *Batch) glmBackward(in *ir.Instr) {
	v, a, o, nb := b.V, b.Adj, b.loc[in.Out], b.B
	y, eta := b.elem(in.In[0]), b.elem(in.In[1])
	if !eta.grad {
		return
	}
	n := max(y.n, eta.n)
	pw := ir.Pointwise(in)
	poisson := in.Op == ir.OpPoissonLogLPMF
	for i := 0; i < n; i++ {
		oo := o.off
		if pw {
			oo += i * nb
		}
		yi, xo := v[y.off+i*y.es], eta.off+i*eta.es
		if poisson && !isCount(yi) || !poisson && yi != 0 && yi != 1 {
			continue
		}
		for c := 0; c < nb; c++ {
			x := v[xo+c]
			var p float64 // exp(η), or logistic(η)
			if poisson {
				p = ir.Exp(x)
				if !(x <= math.MaxFloat64) || math.IsInf(p, 1) {
					continue // an overflowed rate made the term -Inf
				}
			} else {
				if x != x {
					continue
				}
				em := ir.Exp(-math.Abs(x))
				p = 1 / (1 + em) // logistic(|x|)
				if x < 0 {
					p = em * p
				}
			}
			a[xo+c] += a[oo+c] * (yi - p)
		}
	}
}
