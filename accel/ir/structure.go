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
			gatherRows(f.Val(in.In[0]), f.P.Tables[in.Table], f.Val(in.Out), 1)
		},
		Backward: func(f *Frame, in *Instr) {
			gatherRowsReverse(f.AdjOf(in.Out), f.P.Tables[in.Table], f.AdjOf(in.In[0]), 1)
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
			gatherRows(f.Val(in.In[0]), f.P.Tables[in.Table], f.Val(in.Out), f.P.Values[in.In[0]].Shape[1])
		},
		Backward: func(f *Frame, in *Instr) {
			gatherRowsReverse(f.AdjOf(in.Out), f.P.Tables[in.Table], f.AdjOf(in.In[0]), f.P.Values[in.In[0]].Shape[1])
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
				x := f.Val(a)
				copyValues(y[off:off+len(x)], x)
				off += len(x)
			}
		},
		Backward: func(f *Frame, in *Instr) {
			g := f.AdjOf(in.Out)
			off := 0
			for _, a := range in.In {
				n := f.P.Values[a].Len
				if f.Grad(a) {
					addStrided(f.AdjOf(a), g[off:off+n], 1)
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
			y := f.Val(in.Out)
			copyValues(y, f.Val(in.In[0])[in.Ints[0]:in.Ints[0]+len(y)])
		},
		Backward: func(f *Frame, in *Instr) {
			g := f.AdjOf(in.Out)
			addStrided(f.AdjOf(in.In[0])[in.Ints[0]:in.Ints[0]+len(g)], g, 1)
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
			fill(f.Val(in.Out), f.Val(in.In[0])[0])
		},
		Backward: func(f *Frame, in *Instr) {
			addStrided(f.AdjOf(in.In[0]), f.AdjOf(in.Out), 0)
		},
	})
}

// The structure ops' bodies, which cgen's C calls through their
// translations (cmd/genops).

// gatherRows copies rows tbl[i] of x (rows of k values) to row i of y.
//
//gb:cuda gb_gather_rows
func gatherRows(x []float64, tbl []int, y []float64, k int) {
	if k == 1 {
		for i, r := range tbl {
			y[i] = x[r]
		}
		return
	}
	for i, r := range tbl {
		copy(y[i*k:(i+1)*k], x[r*k:(r+1)*k])
	}
}

// gatherRowsReverse adds row i of g into row tbl[i] of gx.
//
//gb:cuda gb_gather_rows_reverse
func gatherRowsReverse(g []float64, tbl []int, gx []float64, k int) {
	if k == 1 {
		for i, r := range tbl {
			gx[r] += g[i]
		}
		return
	}
	for i, r := range tbl {
		dst, src := gx[r*k:(r+1)*k], g[i*k:(i+1)*k]
		for j, v := range src {
			dst[j] += v
		}
	}
}

// copyValues is Go's copy, for the C (concat's and slice's forward; their
// reverse is addStrided).
//
//gb:cuda gb_copy
func copyValues(dst, src []float64) { copy(dst, src) }

// fill sets every element of y to v.
//
//gb:cuda gb_fill
func fill(y []float64, v float64) {
	for i := range y {
		y[i] = v
	}
}
