package ir

import "fmt"

func init() {
	register(OpGather, OpDef{
		Name: "gather", Arity: 1,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			if in.Table < 0 || in.Table >= len(p.Tables) {
				return nil, fmt.Errorf("gather needs an index table")
			}
			n := ShapeLen(args[0])
			for i, k := range p.Tables[in.Table] {
				if k < 0 || k >= n {
					return nil, fmt.Errorf("gather: index %d at position %d is outside 0..%d (the indexed value has shape %v)", k, i, n-1, args[0])
				}
			}
			return []int{len(p.Tables[in.Table])}, nil
		},
		Forward: func(f *Frame, in *Instr) {
			x, y := f.Val(in.In[0]), f.Val(in.Out)
			for i, k := range f.P.Tables[in.Table] {
				y[i] = x[k]
			}
		},
		Backward: func(f *Frame, in *Instr) {
			gx, g := f.AdjOf(in.In[0]), f.AdjOf(in.Out)
			for i, k := range f.P.Tables[in.Table] {
				gx[k] += g[i]
			}
		},
	})
	register(OpGatherRow, OpDef{
		Name: "gather_rows", Arity: 1,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			if in.Table < 0 || in.Table >= len(p.Tables) {
				return nil, fmt.Errorf("gather_rows needs an index table")
			}
			if len(args[0]) != 2 {
				return nil, fmt.Errorf("gather_rows: argument has shape %v, want a matrix", args[0])
			}
			n := args[0][0]
			for i, k := range p.Tables[in.Table] {
				if k < 0 || k >= n {
					return nil, fmt.Errorf("gather_rows: row %d at position %d is outside 0..%d", k, i, n-1)
				}
			}
			return []int{len(p.Tables[in.Table]), args[0][1]}, nil
		},
		Forward: func(f *Frame, in *Instr) {
			x, y := f.Val(in.In[0]), f.Val(in.Out)
			k := f.P.Values[in.In[0]].Shape[1]
			for i, r := range f.P.Tables[in.Table] {
				copy(y[i*k:(i+1)*k], x[r*k:(r+1)*k])
			}
		},
		Backward: func(f *Frame, in *Instr) {
			gx, g := f.AdjOf(in.In[0]), f.AdjOf(in.Out)
			k := f.P.Values[in.In[0]].Shape[1]
			for i, r := range f.P.Tables[in.Table] {
				dst, src := gx[r*k:(r+1)*k], g[i*k:(i+1)*k]
				for j, v := range src {
					dst[j] += v
				}
			}
		},
	})
	register(OpConcat, OpDef{
		Name: "concat", Arity: -1,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			n := 0
			for _, a := range args {
				n += ShapeLen(a)
			}
			if in.Ints == nil {
				return []int{n}, nil
			}
			if ShapeLen(in.Ints) != n {
				return nil, fmt.Errorf("concat: %d values do not fill shape %v", n, in.Ints)
			}
			return in.Ints, nil
		},
		Forward: func(f *Frame, in *Instr) {
			y := f.Val(in.Out)
			off := 0
			for _, a := range in.In {
				off += copy(y[off:], f.Val(a))
			}
		},
		Backward: func(f *Frame, in *Instr) {
			g := f.AdjOf(in.Out)
			off := 0
			for _, a := range in.In {
				n := f.P.Values[a].Len
				if f.Grad(a) {
					ga := f.AdjOf(a)
					for i, v := range g[off : off+n] {
						ga[i] += v
					}
				}
				off += n
			}
		},
	})
	register(OpSlice, OpDef{
		Name: "slice", Arity: 1,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			n := ShapeLen(args[0])
			if len(in.Ints) != 2 || in.Ints[0] < 0 || in.Ints[1] < 0 || in.Ints[0]+in.Ints[1] > n {
				return nil, fmt.Errorf("slice %v (start, length) is outside the %d values of %v", in.Ints, n, args[0])
			}
			return []int{in.Ints[1]}, nil
		},
		Forward: func(f *Frame, in *Instr) {
			copy(f.Val(in.Out), f.Val(in.In[0])[in.Ints[0]:])
		},
		Backward: func(f *Frame, in *Instr) {
			gx := f.AdjOf(in.In[0])[in.Ints[0]:]
			for i, v := range f.AdjOf(in.Out) {
				gx[i] += v
			}
		},
	})
	register(OpFill, OpDef{
		Name: "fill", Arity: 1,
		Shape: func(p *Program, in *Instr, args [][]int) ([]int, error) {
			if ShapeLen(args[0]) != 1 {
				return nil, fmt.Errorf("fill: argument has shape %v, want a scalar", args[0])
			}
			for _, d := range in.Ints {
				if d < 0 {
					return nil, fmt.Errorf("fill: negative dimension in shape %v", in.Ints)
				}
			}
			return in.Ints, nil
		},
		Forward: func(f *Frame, in *Instr) {
			v := f.Val(in.In[0])[0]
			y := f.Val(in.Out)
			for i := range y {
				y[i] = v
			}
		},
		Backward: func(f *Frame, in *Instr) {
			s := 0.0
			for _, v := range f.AdjOf(in.Out) {
				s += v
			}
			f.AdjOf(in.In[0])[0] += s
		},
	})
}
