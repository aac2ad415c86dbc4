package ir

import (
	"fmt"
	"math"

	"github.com/gobayes/gobayes/accel/dense"
)

func scalarShape(p *Program, in *Instr, args [][]int) ([]int, error) {
	for i, a := range args {
		if ShapeLen(a) != 1 {
			return nil, fmt.Errorf("argument %d has shape %v, want a scalar", i, a)
		}
	}
	return nil, nil
}

func init() {
	register(OpAddN, OpDef{
		Name: "addn", Arity: -1, Shape: scalarShape,
		Forward: func(f *Frame, in *Instr) {
			s := 0.0
			for _, a := range in.In {
				s += f.Val(a)[0]
			}
			f.Val(in.Out)[0] = s
		},
		Backward: func(f *Frame, in *Instr) {
			g := f.AdjOf(in.Out)[0]
			for _, a := range in.In {
				if f.Grad(a) {
					f.AdjOf(a)[0] += g
				}
			}
		},
	})
}

func init() {
	register(OpSum, OpDef{
		Name: "sum", Arity: 1,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) { return nil, nil },
		Forward: func(f *Frame, in *Instr) {
			f.Val(in.Out)[0] = sum(f.Val(in.In[0]))
		},
		Backward: func(f *Frame, in *Instr) {
			addScalar(f.AdjOf(in.In[0]), f.AdjOf(in.Out)[0])
		},
	})
	register(OpDot, OpDef{
		Name: "dot", Arity: 2,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			if ShapeLen(args[0]) != ShapeLen(args[1]) {
				return nil, fmt.Errorf("dot: arguments have shapes %v and %v, want the same number of values", args[0], args[1])
			}
			return nil, nil
		},
		Forward: func(f *Frame, in *Instr) {
			f.Val(in.Out)[0] = dense.Dot(f.Val(in.In[0]), f.Val(in.In[1]))
		},
		Backward: func(f *Frame, in *Instr) {
			g := f.AdjOf(in.Out)[0]
			a, b := f.Val(in.In[0]), f.Val(in.In[1])
			if f.Grad(in.In[0]) {
				dense.Axpy(f.AdjOf(in.In[0]), g, b)
			}
			if f.Grad(in.In[1]) {
				dense.Axpy(f.AdjOf(in.In[1]), g, a)
			}
		},
	})
	register(OpLogSumExp, OpDef{
		Name: "log_sum_exp", Arity: 1,
		Shape:   func(p *Program, in *Instr, args [][]int) ([]int, error) { return nil, nil },
		Scratch: func(p *Program, in *Instr) int { return p.Values[in.In[0]].Len },
		// Forward leaves exp(x_i - max) in the scratch (1 at the maximum),
		// so the reverse sweep needs no exponential: ∂y/∂x_i = e_i / Σe.
		Forward: func(f *Frame, in *Instr) {
			x, e := f.Val(in.In[0]), f.Val(in.Scratch)
			f.Val(in.Out)[0] = LogSumExpInto(x, e)
		},
		Backward: func(f *Frame, in *Instr) {
			logSumExpReverse(f.Val(in.Out)[0], f.AdjOf(in.Out)[0], f.Val(in.Scratch), f.AdjOf(in.In[0]))
		},
	})
}

// LogSumExpInto is LogSumExp that leaves exp(x_i - max) in e: the maximum
// needs no exponential, and with two elements it costs one exp and one
// log1p.
//
//gb:cuda gb_logsumexp
func LogSumExpInto(x, e []float64) float64 {
	m, im := math.Inf(-1), -1
	for i, v := range x {
		if v > m || math.IsNaN(v) {
			m, im = v, i
		}
	}
	if math.IsInf(m, 0) || math.IsNaN(m) {
		return m
	}
	e = e[:len(x)]
	s := 0.0
	for i, v := range x {
		if i == im {
			e[i] = 1
			continue
		}
		e[i] = Exp(v - m)
		s += e[i]
	}
	return m + log1p(s)
}

// log1p is log(1+x) for x ≥ 0, the ops' one entry point for it. It is
// math.Log1p: Goldberg's log(u)·x/(u-1), u = 1+x, through the assembly
// math.Log was tried and measured about twice as slow on the project's
// machine (the assembly Log and the division cost more than the pure-Go
// Log1p), both alone and inside the HMM and eight schools benchmarks.
func log1p(x float64) float64 { return math.Log1p(x) }

// LogSumExp is log(Σ exp(x[i])), shifted by the maximum so that it neither
// overflows nor underflows; -Inf for an empty x or all -Inf.
func LogSumExp(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		if v > m || math.IsNaN(v) {
			m = v
		}
	}
	if math.IsInf(m, 0) || math.IsNaN(m) {
		return m
	}
	s := 0.0
	for _, v := range x {
		s += Exp(v - m)
	}
	return m + math.Log(s)
}

// sum is Σ x.
//
//gb:cuda gb_sum
func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// addScalar adds g to every element of gx.
//
//gb:cuda gb_add_scalar
func addScalar(gx []float64, g float64) {
	for i := range gx {
		gx[i] += g
	}
}

// logSumExpReverse adds g·∂y/∂x_i = g·e_i/Σe into gx, given y =
// log_sum_exp(x) and e from LogSumExpInto; nothing where y is infinite
// or NaN.
//
//gb:cuda gb_logsumexp_reverse
func logSumExpReverse(y, g float64, e, gx []float64) {
	if y-y != 0 { // y infinite or NaN (one test, so that the function inlines)
		return
	}
	r := g / sum(e)
	gx = gx[:len(e)]
	for i, v := range e {
		gx[i] += r * v
	}
}
