package vec

import "github.com/gobayes/gobayes/accel/ir"

// The lockstep skeleton of the ops in term form (accel/ir/term.go): for
// each element, the row loops that cmd/genops writes once, in accel/ir
// (ir.TermOf), run over the chains. The ops with kernels of their own
// are in lpdf_gen.go.

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

// chains is element i of every argument, over the chains.
func (b *Batch) chains(ops *[ir.MaxTermArity]operand, k, i int) ir.TermRows {
	x := ir.TermRows{N: b.B}
	for j := 0; j < k; j++ {
		a := &ops[j]
		x.X[j], x.S[j] = b.V[a.off+i*a.es:], a.cs
	}
	return x
}

func (b *Batch) termForward(in *ir.Instr) {
	t := ir.TermOf(in.Op)
	v, o, nb := b.V, b.loc[in.Out], b.B
	ops, n := b.termOperands(in)
	pw := ir.Pointwise(in)
	if !pw {
		clear(v[o.off : o.off+nb])
	}
	for i := 0; i < n; i++ {
		oo := o.off
		if pw {
			oo += i * nb
		}
		t.Values(b.chains(&ops, len(in.In), i), nil, v[oo:oo+nb], !pw)
	}
}

func (b *Batch) termBackward(in *ir.Instr) {
	t := ir.TermOf(in.Op)
	o, nb := b.loc[in.Out], b.B
	ops, n := b.termOperands(in)
	k := len(in.In)
	var need uint
	for j := 0; j < k; j++ {
		if ops[j].grad {
			need |= 1 << j
		}
	}
	if need == 0 {
		return
	}
	pw := ir.Pointwise(in)
	for i := 0; i < n; i++ {
		oo := o.off
		if pw {
			oo += i * nb
		}
		var d ir.TermRows
		for j := 0; j < k; j++ {
			if need&(1<<j) != 0 {
				d.X[j], d.S[j] = b.adjRow(ops[j], i, true), 1
			}
		}
		t.Grads(b.chains(&ops, k, i), nil, need, b.Adj[oo:oo+nb], 1, d)
	}
}
