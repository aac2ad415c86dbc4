package ir

import (
	"fmt"
	"math"
)

// Elementwise ops. A unary op keeps its input's shape. Binary ops and
// LogMix broadcast: each input has the output's length or length 1, and the
// output takes the shape of the first longest input.

func unaryShape(p *Program, in *Instr, args [][]int) ([]int, error) {
	return args[0], nil
}

func broadcastShape(p *Program, in *Instr, args [][]int) ([]int, error) {
	out := args[0]
	for _, a := range args[1:] {
		if ShapeLen(a) > ShapeLen(out) {
			out = a
		}
	}
	n := ShapeLen(out)
	for i, a := range args {
		if l := ShapeLen(a); l != n && l != 1 {
			return nil, fmt.Errorf("%s: argument %d has shape %v, which does not broadcast with %v (want %d values or a scalar)",
				defs[in.Op].Name, i, a, out, n)
		}
	}
	return out, nil
}

// unary registers an elementwise op from its forward loop and its reverse
// loop (gx[i] += g[i]·f'(x[i]), given x and y = f(x)).
func unary(op Op, name string, fwd func(x, y []float64), bwd func(x, y, g, gx []float64)) {
	register(op, OpDef{
		Name: name, Arity: 1, Shape: unaryShape,
		Forward: func(f *Frame, in *Instr) { fwd(f.Val(in.In[0]), f.Val(in.Out)) },
		Backward: func(f *Frame, in *Instr) {
			a := in.In[0]
			if f.Grad(a) {
				bwd(f.Val(a), f.Val(in.Out), f.AdjOf(in.Out), f.AdjOf(a))
			}
		},
	})
}

// Logistic is 1/(1+exp(-x)) without overflow for any x.
//
//gb:cuda gb_logistic
func Logistic(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + Exp(-x))
	}
	e := Exp(x)
	return e / (1 + e)
}

// logisticPair is (σ(x), σ(-x)) = (σ(x), 1-σ(x)) from one exponential,
// both accurate in the tails.
//
//gb:cuda gb_logistic_pair
func logisticPair(x float64) (s, sc float64) {
	e := Exp(-math.Abs(x))
	a, b := 1/(1+e), e/(1+e)
	if x >= 0 {
		return a, b
	}
	return b, a
}

// LogisticDeriv is Logistic'(x) = e^{-|x|}/(1+e^{-|x|})², accurate in both tails.
//
//gb:cuda gb_logistic_deriv
func LogisticDeriv(x float64) float64 {
	e := Exp(-math.Abs(x))
	return e / ((1 + e) * (1 + e))
}

// Softplus is log(1+exp(x)) without overflow or cancellation.
//
//gb:cuda gb_softplus
func Softplus(x float64) float64 {
	if x > 0 {
		return x + log1p(Exp(-x))
	}
	return log1p(Exp(x))
}

// logisticLogJ is log σ(x) + log(1-σ(x)) = -|x| - 2·log(1+e^{-|x|}),
// the log-Jacobian of the logistic map, with one exponential.
//
//gb:cuda gb_logistic_logj
func logisticLogJ(x float64) float64 {
	a := math.Abs(x)
	return -a - 2*log1p(Exp(-a))
}

// Logit is log(x/(1-x)).
//
//gb:cuda gb_logit
func Logit(x float64) float64 { return math.Log(x) - math.Log1p(-x) }

func init() {
	// LogMix leaves in its scratch e = exp(min(a,b) - max(a,b)) per
	// element; with D = t + (1-t)e when a ≥ b (else t·e + 1-t), y = max +
	// log D, and the partials are ratios of e and D.
	register(OpLogMix, OpDef{
		Name: "log_mix", Arity: 3, Shape: broadcastShape,
		Scratch: func(p *Program, in *Instr) int { return p.Values[in.Out].Len },
		Forward: func(f *Frame, in *Instr) {
			t, st := bval(f, in.In[0])
			a, sa := bval(f, in.In[1])
			b, sb := bval(f, in.In[2])
			logMix(t, a, b, f.Val(in.Scratch), f.Val(in.Out), st, sa, sb)
		},
		Backward: func(f *Frame, in *Instr) {
			t, st := bval(f, in.In[0])
			a, sa := bval(f, in.In[1])
			b, sb := bval(f, in.In[2])
			logMixReverse(t, a, b, f.Val(in.Scratch), f.Val(in.Out), f.AdjOf(in.Out),
				gradOrNil(f, in.In[0]), gradOrNil(f, in.In[1]), gradOrNil(f, in.In[2]), st, sa, sb)
		},
	})
}

// bval returns a broadcast input and its stride (0 for a scalar).
func bval(f *Frame, id ID) ([]float64, int) {
	v := f.Val(id)
	if len(v) == 1 {
		return v, 0
	}
	return v, 1
}

func gradOrNil(f *Frame, id ID) []float64 {
	if f.Grad(id) {
		return f.AdjOf(id)
	}
	return nil
}

// addStrided adds g into dst element by element (s = 1), or its sum into
// dst[0] (s = 0, a broadcast scalar); nothing when dst is empty (no
// gradient wanted).
//
//gb:cuda gb_add_strided
func addStrided(dst, g []float64, s int) {
	if len(dst) == 0 {
		return
	}
	if s == 0 {
		t := 0.0
		for _, v := range g {
			t += v
		}
		dst[0] += t
		return
	}
	dst = dst[:len(g)]
	for i, v := range g {
		dst[i] += v
	}
}

// logMix is y_i = log(t·exp(a) + (1-t)·exp(b)) over the elements of y
// (t, a and b read at strides st, sa, sb: 1, or 0 for a scalar),
// leaving e_i = exp(min - max) of a and b for the reverse sweep.
//
//gb:cuda gb_log_mix
func logMix(t, a, b, e, y []float64, st, sa, sb int) {
	for i := range y {
		ti, ai, bi := t[i*st], a[i*sa], b[i*sb]
		switch {
		case math.IsInf(ai, -1) && math.IsInf(bi, -1):
			e[i], y[i] = 0, math.Inf(-1)
		case ai >= bi:
			e[i] = Exp(bi - ai)
			y[i] = ai + math.Log(ti+(1-ti)*e[i])
		default:
			e[i] = Exp(ai - bi)
			y[i] = bi + math.Log(ti*e[i]+1-ti)
		}
	}
}

// logMixReverse adds log_mix's partials times g into gt, ga and gb
// (each empty when no gradient is wanted).
//
//gb:cuda gb_log_mix_reverse
func logMixReverse(t, a, b, e, y, g, gt, ga, gb []float64, st, sa, sb int) {
	for i := range y {
		if math.IsInf(y[i], -1) || g[i] == 0 {
			continue
		}
		ti := t[i*st]
		var ea, eb float64 // exp(a-y), exp(b-y)
		if a[i*sa] >= b[i*sb] {
			d := ti + (1-ti)*e[i]
			ea, eb = 1/d, e[i]/d
		} else {
			d := ti*e[i] + 1 - ti
			ea, eb = e[i]/d, 1/d
		}
		if len(gt) > 0 {
			gt[i*st] += g[i] * (ea - eb)
		}
		if len(ga) > 0 {
			ga[i*sa] += g[i] * ti * ea
		}
		if len(gb) > 0 {
			gb[i*sb] += g[i] * (1 - ti) * eb
		}
	}
}
