package fuse

import (
	"slices"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/opdef/term"
)

// kTermSum is addn(t_1, …, t_k) (the log density as the sum of its terms)
// with the constant-scale priors among its terms evaluated in place: a
// term produced by a kScalePrior kernel whose value only this sum reads is
// computed here, at the sum, rather than as a step of its own, and its
// reverse sweep gets the sum's adjoint directly. A model's priors are then
// one step forward and one backward however many parameters it has.
//
// Moving a prior to the sum is sound because the plan never changes a
// value's inputs: the prior's inputs are computed by then, and nothing
// before the sum reads its output. The prior's output is still written (a
// caller may read the terms after Forward); its adjoint is not.
type kTermSum struct {
	out int
	// plain are the offsets of the terms other than absorbed priors,
	// gterms those of them that carry gradients, priors the absorbed
	// priors in the addn's order. The sum adds the plain terms, then the
	// priors: the registered addn's value up to rounding, and the same
	// value whether or not a gradient is asked for.
	plain, gterms []int
	priors        []*kScalePrior
	// The first len(scalars) priors have a scalar variate; scalars are
	// their slots, read by forwardGrad without going through the kernel.
	scalars []scalarPrior
	// readTerms are the gterms whose adjoints something reads: the
	// others' (the terms of leaf kernels, see markLeaves) forwardGrad
	// does not write.
	readTerms []int
}

// scalarPrior is a kScalePrior of a scalar variate, by value.
type scalarPrior struct {
	op                 ir.Op
	y, mu, sig, out, m int
	gy, gmu            bool
}

// termSum matches addn instruction i and absorbs the priors among its
// terms; it returns the kernel and the absorbed instructions, or false
// when no term is a prior (the registered addn is as fast then).
func termSum(p *ir.Program, plan []ir.Step, i int, uses map[int]int, producer map[int]int) (kernel, []int, bool) {
	in := &p.Instrs[i]
	k := &kTermSum{out: p.Values[in.Out].Off}
	var absorbed []int
	for _, a := range in.In {
		v := &p.Values[a]
		if j, ok := producer[v.Off]; ok && j < i && uses[v.Off] == 1 && !plan[j].Skip {
			if sp, ok := plan[j].Kernel.(*kScalePrior); ok && sp.out == v.Off {
				k.priors = append(k.priors, sp)
				absorbed = append(absorbed, j)
				continue
			}
		}
		k.plain = append(k.plain, v.Off)
		if v.Grad {
			k.gterms = append(k.gterms, v.Off)
		}
	}
	if len(absorbed) == 0 {
		return nil, nil, false
	}
	// Scalar priors first (the sum's order is the same in forward and
	// forwardGrad, so both give the same value).
	slices.SortStableFunc(k.priors, func(a, b *kScalePrior) int { return min(a.n, 2) - min(b.n, 2) })
	for _, sp := range k.priors {
		if sp.n == 1 {
			k.scalars = append(k.scalars, scalarPrior{op: sp.op, y: sp.y, mu: sp.mu, sig: sp.sig, out: sp.out, m: sp.memo, gy: sp.gy, gmu: sp.gmu})
		}
	}
	k.readTerms = k.gterms
	return k, absorbed, true
}

func (k *kTermSum) Forward(f *ir.Frame) {
	v := f.V
	s := 0.0
	for _, off := range k.plain {
		s += v[off]
	}
	for _, sp := range k.priors {
		e := sp.eval(f)
		v[sp.out] = e
		s += e
	}
	v[k.out] = s
}

func (k *kTermSum) Backward(f *ir.Frame) {
	adj := f.Adj
	g := adj[k.out]
	for _, t := range k.gterms {
		adj[t] += g
	}
	for _, sp := range k.priors {
		sp.grad(f, g)
	}
}

func (k *kTermSum) termOuts() []int { return []int{k.out} }

// forwardGrad is forward and backward with the sum's adjoint 1: each
// absorbed prior runs its value and gradient in one pass.
func (k *kTermSum) ForwardGrad(f *ir.Frame) {
	v, adj := f.V, f.Adj
	s := 0.0
	for _, off := range k.plain {
		s += v[off]
	}
	for i := range k.scalars {
		// A scalar variate (a model's scalar parameters): kScalePrior's
		// evalGrad without loops, with the same arithmetic (accel/opdef's
		// formulas, which inline), so the same values; written out here,
		// as a call per prior costs as much as its arithmetic.
		sp := &k.scalars[i]
		e := negInf
		if y, sg := v[sp.y], v[sp.sig]; sg > 0 {
			c := (*[3]float64)(f.Private()[sp.m:])
			if c[0] != sg {
				setScale(c, sg)
			}
			ls, inv := c[1], c[2]
			switch sp.op {
			case ir.OpNormalLPDF:
				mu := v[sp.mu]
				dy, dmu, _ := term.NormalGrad(y, mu, inv)
				if sp.gy {
					adj[sp.y] += dy
				}
				if sp.gmu {
					adj[sp.mu] += dmu
				}
				e = term.NormalValue(y, mu, ls, inv)
			case ir.OpHalfNormalLPDF:
				if y >= 0 {
					e = term.HalfNormalValue(y, ls, inv)
					if sp.gy {
						dy, _ := term.HalfNormalGrad(y, inv)
						adj[sp.y] += dy
					}
				}
			case ir.OpHalfCauchyLPDF:
				if y >= 0 {
					e = term.HalfCauchyValue(y, ls, inv)
					if sp.gy {
						dy, _ := term.HalfCauchyGrad(y, inv)
						adj[sp.y] += dy
					}
				}
			}
			if e != e {
				e = negInf
			}
		}
		v[sp.out] = e
		s += e
	}
	for _, sp := range k.priors[len(k.scalars):] {
		e := sp.evalGrad(f)
		v[sp.out] = e
		s += e
	}
	v[k.out] = s
	for _, t := range k.readTerms {
		adj[t]++
	}
}

func (k *kTermSum) AdjWrites() [][2]int {
	var r [][2]int
	for _, t := range k.gterms {
		r = append(r, [2]int{t, t + 1})
	}
	for _, sp := range k.priors {
		r = append(r, [2]int{sp.y, sp.y + sp.n})
		if sp.op == ir.OpNormalLPDF {
			r = append(r, [2]int{sp.mu, sp.mu + 1})
		}
	}
	return r
}
