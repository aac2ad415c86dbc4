package ir

import "fmt"

func init() {
	register(OpLinearRecurrence, OpDef{
		Name: "linear_recurrence", Arity: 3,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			if ShapeLen(args[0]) != 1 {
				return nil, fmt.Errorf("linear_recurrence: the initial value has shape %v, want a scalar", args[0])
			}
			t := 1
			for _, a := range args[1:] {
				if l := ShapeLen(a); l != 1 {
					if t != 1 && l != t {
						return nil, fmt.Errorf("linear_recurrence: coefficients of %d and %d values; want the same length (the steps) or a scalar", t, l)
					}
					t = l
				}
			}
			return []int{t}, nil
		},
		Forward: func(f *Frame, in *Instr) {
			x := f.Val(in.Out)
			prev := f.Val(in.In[0])[0]
			a, sa := bval(f, in.In[1])
			b, sb := bval(f, in.In[2])
			for t := range x {
				prev = a[t*sa] + b[t*sb]*prev
				x[t] = prev
			}
		},
		Backward: func(f *Frame, in *Instr) {
			x, g := f.Val(in.Out), f.AdjOf(in.Out)
			x0 := f.Val(in.In[0])[0]
			b, sb := bval(f, in.In[2])
			_, sa := bval(f, in.In[1])
			g0, ga, gb := gradOrNil(f, in.In[0]), gradOrNil(f, in.In[1]), gradOrNil(f, in.In[2])
			c := 0.0 // adjoint of x_t, accumulated from the later steps
			for t := len(x) - 1; t >= 0; t-- {
				c += g[t]
				if ga != nil {
					ga[t*sa] += c
				}
				if gb != nil {
					prev := x0
					if t > 0 {
						prev = x[t-1]
					}
					gb[t*sb] += c * prev
				}
				c *= b[t*sb]
			}
			if g0 != nil {
				g0[0] += c
			}
		},
	})
}
