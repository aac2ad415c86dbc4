package vec

import "github.com/gobayes/gobayes/accel/ir"

// The lockstep skeleton of the ops in term form (accel/ir/term.go): one
// loop over the elements and the chains for every such op, calling the
// element's value and partials that cmd/genops writes once, in accel/ir
// (ir.TermOf). The ops with kernels of their own are in lpdf_gen.go.

func init() {
	for op := ir.Op(0); op < ir.NumOps; op++ {
		if ir.TermOf(op) != nil {
			genKernels[op] = genKernel{(*Batch).termForward, (*Batch).termBackward}
		}
	}
}

// termOperands are an instruction's arguments and the batch length.
func (b *Batch) termOperands(in *ir.Instr) (ops [ir.MaxTermArity]operand, n int) {
	for j, id := range in.In {
		ops[j] = b.elem(id)
		n = max(n, ops[j].n)
	}
	return ops, n
}

func (b *Batch) termForward(in *ir.Instr) {
	t := ir.TermOf(in.Op)
	v, o, nb := b.V, b.loc[in.Out], b.B
	ops, n := b.termOperands(in)
	k := len(in.In)
	pw := ir.Pointwise(in)
	if !pw {
		clear(v[o.off : o.off+nb])
	}
	var x ir.TermArgs
	for i := 0; i < n; i++ {
		oo := o.off
		if pw {
			oo += i * nb
		}
		for c := 0; c < nb; c++ {
			for j := 0; j < k; j++ {
				a := &ops[j]
				x[j] = v[a.off+i*a.es+c*a.cs]
			}
			b.put(oo+c, t.Value(x, nil), pw)
		}
	}
}

func (b *Batch) termBackward(in *ir.Instr) {
	t := ir.TermOf(in.Op)
	v, adj, o, nb := b.V, b.Adj, b.loc[in.Out], b.B
	ops, n := b.termOperands(in)
	k := len(in.In)
	pw := ir.Pointwise(in)
	var need uint
	for j := 0; j < k; j++ {
		if ops[j].grad {
			need |= 1 << j
		}
	}
	if need == 0 {
		return
	}
	var x ir.TermArgs
	var rows [ir.MaxTermArity][]float64
	for i := 0; i < n; i++ {
		oo := o.off
		if pw {
			oo += i * nb
		}
		for j := 0; j < k; j++ {
			rows[j] = b.adjRow(ops[j], i, true)
		}
		gs := adj[oo : oo+nb]
		for c, g := range gs {
			for j := 0; j < k; j++ {
				a := &ops[j]
				x[j] = v[a.off+i*a.es+c*a.cs]
			}
			d, ok := t.Grad(x, nil, need)
			if !ok {
				continue
			}
			for j := 0; j < k; j++ {
				if need&(1<<j) != 0 {
					rows[j][c] += g * d[j]
				}
			}
		}
	}
}
