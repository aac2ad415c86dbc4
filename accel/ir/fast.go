package ir

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

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
	return op >= OpNeg && op <= OpPow
}

func (t *fastInstr) forward(v []float64) {
	x := v[t.a]
	var y float64
	switch t.op {
	case OpNeg:
		y = -x
	case OpExp:
		y = Exp(x)
	case OpLog:
		y = math.Log(x)
	case OpLog1p:
		y = math.Log1p(x)
	case OpExpm1:
		y = math.Expm1(x)
	case OpSqrt:
		y = math.Sqrt(x)
	case OpSquare:
		y = x * x
	case OpLogistic:
		y = Logistic(x)
	case OpSoftplus:
		y = Softplus(x)
	case OpLgamma:
		y, _ = math.Lgamma(x)
	case OpDigamma:
		y = mathext.Digamma(x)
	case OpAbs:
		y = math.Abs(x)
	case OpLogit:
		y = Logit(x)
	case OpTanh:
		y = math.Tanh(x)
	case OpInv:
		y = 1 / x
	case OpAdd:
		y = x + v[t.b]
	case OpSub:
		y = x - v[t.b]
	case OpMul:
		y = x * v[t.b]
	case OpDiv:
		y = x / v[t.b]
	case OpPow:
		y = math.Pow(x, v[t.b])
	}
	v[t.out] = y
}

// backward adds the adjoint of out into the adjoints of the inputs that
// carry gradients.
func (t *fastInstr) backward(v, adj []float64) {
	g := adj[t.out]
	x, y := v[t.a], v[t.out]
	var da, db float64 // ∂y/∂a·g, ∂y/∂b·g
	switch t.op {
	case OpNeg:
		da = -g
	case OpExp:
		da = g * y
	case OpLog:
		da = g / x
	case OpLog1p:
		da = g / (1 + x)
	case OpExpm1:
		da = g * Exp(x)
	case OpSqrt:
		da = g * 0.5 / y
	case OpSquare:
		da = 2 * g * x
	case OpLogistic:
		da = g * logisticDeriv(x)
	case OpSoftplus:
		da = g * Logistic(x)
	case OpLgamma:
		da = g * mathext.Digamma(x)
	case OpDigamma:
		da = g * Trigamma(x)
	case OpAbs:
		switch {
		case x > 0:
			da = g
		case x < 0:
			da = -g
		}
	case OpLogit:
		da = g / (x * (1 - x))
	case OpTanh:
		da = g * (1 - y*y)
	case OpInv:
		da = -g * y * y
	case OpAdd:
		da, db = g, g
	case OpSub:
		da, db = g, -g
	case OpMul:
		da, db = g*v[t.b], g*x
	case OpDiv:
		b := v[t.b]
		da, db = g/b, -g*y/b
	case OpPow:
		e := v[t.b]
		if e != 0 {
			da = g * e * math.Pow(x, e-1)
		}
		if y != 0 {
			db = g * y * math.Log(x)
		}
	}
	if t.ga {
		adj[t.a] += da
	}
	if t.twoOperand && t.gb {
		adj[t.b] += db
	}
}
