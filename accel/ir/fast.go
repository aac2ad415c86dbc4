package ir

// The scalar fast path. An elementwise op whose inputs and output are all
// scalars costs more in dispatch (an indirect call, slice views) than in
// arithmetic; recurrences such as GARCH or ARMA are made of nothing else.
// Finalize records such instructions in Program.fast with the slot offsets
// of their operands, and run and reverse execute them through one switch,
// with exactly the formulas of the ops' registered semantics (the property
// suite compares both paths).

type fastInstr struct {
	op         Op // OpNop: not on the fast path
	out, a, b  int32
	ga, gb     bool // whether the inputs carry gradients
	gout       bool // whether the output does (else no reverse step)
	twoOperand bool
}

// isScalarBody reports whether p can run as a scalar scan body: all its
// instructions on the fast path, its inputs and outputs scalars, and few
// enough of them for scanScalar's fixed arrays.
func isScalarBody(p *Program) bool {
	if len(p.Inputs) == 0 || len(p.Inputs) > maxScalarArgs || len(p.Outputs) > maxScalarArgs || len(p.fast) != len(p.Instrs) {
		return false
	}
	for _, t := range p.fast {
		if t.op == OpNop {
			return false
		}
	}
	for _, id := range p.Inputs {
		if p.Values[id].Len != 1 {
			return false
		}
	}
	for _, o := range p.Outputs {
		if p.Values[o.ID].Len != 1 {
			return false
		}
	}
	return true
}

func fastInstrs(p *Program) []fastInstr {
	var fast []fastInstr
	for i, in := range p.Instrs {
		if !fastOp(in.Op) || p.Values[in.Out].Len != 1 {
			continue
		}
		scalar := true
		for _, a := range in.In {
			scalar = scalar && p.Values[a].Len == 1
		}
		if !scalar {
			continue
		}
		if fast == nil {
			fast = make([]fastInstr, len(p.Instrs))
		}
		t := fastInstr{op: in.Op, out: int32(p.Values[in.Out].Off), a: int32(p.Values[in.In[0]].Off),
			ga: p.Values[in.In[0]].Grad, gout: p.Values[in.Out].Grad}
		if len(in.In) == 2 {
			t.b, t.gb, t.twoOperand = int32(p.Values[in.In[1]].Off), p.Values[in.In[1]].Grad, true
		}
		fast[i] = t
	}
	return fast
}

func fastOp(op Op) bool {
	return op >= OpNeg && op <= OpLogDiffExp // the elementwise ops
}

// The scalar forward and backward of each op are generated from
// accel/opdef (elementwise_gen.go).
