package ir

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
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
			s := 0.0
			for _, v := range f.Val(in.In[0]) {
				s += v
			}
			f.Val(in.Out)[0] = s
		},
		Backward: func(f *Frame, in *Instr) {
			g := f.AdjOf(in.Out)[0]
			ga := f.AdjOf(in.In[0])
			for i := range ga {
				ga[i] += g
			}
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
			f.Val(in.Out)[0] = floats.Dot(f.Val(in.In[0]), f.Val(in.In[1]))
		},
		Backward: func(f *Frame, in *Instr) {
			g := f.AdjOf(in.Out)[0]
			a, b := f.Val(in.In[0]), f.Val(in.In[1])
			if f.Grad(in.In[0]) {
				floats.AddScaled(f.AdjOf(in.In[0]), g, b)
			}
			if f.Grad(in.In[1]) {
				floats.AddScaled(f.AdjOf(in.In[1]), g, a)
			}
		},
	})
	register(OpLogSumExp, OpDef{
		Name: "log_sum_exp", Arity: 1,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) { return nil, nil },
		Forward: func(f *Frame, in *Instr) {
			f.Val(in.Out)[0] = LogSumExp(f.Val(in.In[0]))
		},
		Backward: func(f *Frame, in *Instr) {
			y, g := f.Val(in.Out)[0], f.AdjOf(in.Out)[0]
			if math.IsInf(y, 0) || math.IsNaN(y) {
				return
			}
			x, gx := f.Val(in.In[0]), f.AdjOf(in.In[0])
			for i, v := range x {
				gx[i] += g * math.Exp(v-y)
			}
		},
	})
}

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
		s += math.Exp(v - m)
	}
	return m + math.Log(s)
}
