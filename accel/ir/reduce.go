package ir

import "fmt"

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
