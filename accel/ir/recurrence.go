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
			a, sa := bval(f, in.In[1])
			b, sb := bval(f, in.In[2])
			linearRecurrence(f.Val(in.In[0])[0], a, sa, b, sb, f.Val(in.Out))
		},
		Backward: func(f *Frame, in *Instr) {
			b, sb := bval(f, in.In[2])
			_, sa := bval(f, in.In[1])
			g0, ga, gb := gradOrNil(f, in.In[0]), gradOrNil(f, in.In[1]), gradOrNil(f, in.In[2])
			c := linearRecurrenceReverse(f.Val(in.In[0])[0], f.Val(in.Out), f.AdjOf(in.Out), b, sb, sa, ga, gb)
			if g0 != nil {
				g0[0] += c
			}
		},
	})
}

// linearRecurrence writes x_t = a_t + b_t·x_{t-1} from x_{-1} = x0; a
// and b have strides sa and sb (0: one value for every step).
//
//gb:cuda gb_linear_recurrence
func linearRecurrence(x0 float64, a []float64, sa int, b []float64, sb int, x []float64) {
	prev := x0
	for t := range x {
		prev = a[t*sa] + b[t*sb]*prev
		x[t] = prev
	}
}

// linearRecurrenceReverse adds into ga and gb (those not empty) the
// adjoints of linearRecurrence's a and b given x and its adjoint g, and
// returns the adjoint of x0. (Their lengths, not two more flags, say
// which are wanted: the loop has no register to spare.)
//
//gb:cuda gb_linear_recurrence_reverse
func linearRecurrenceReverse(x0 float64, x, g, b []float64, sb, sa int, ga, gb []float64) float64 {
	c := 0.0 // adjoint of x_t, accumulated from the later steps
	for t := len(x) - 1; t >= 0; t-- {
		c += g[t]
		if len(ga) > 0 {
			ga[t*sa] += c
		}
		if len(gb) > 0 {
			prev := x0
			if t > 0 {
				prev = x[t-1]
			}
			gb[t*sb] += c * prev
		}
		c *= b[t*sb]
	}
	return c
}
