package fuse_test

import (
	"testing"

	"github.com/gobayes/gobayes/accel/fuse"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// TestAffineNormals checks the one matcher of the non-centred hierarchy
// that accel/ir's plan and accel/vec's batches both read: operand orders,
// the prior, and the chains it must refuse.
func TestAffineNormals(t *testing.T) {
	// a, b scalar parameters; z 4 parameters; y, σ data.
	args := []irtest.Arg{
		irtest.Param(-1, 1), irtest.Param(0.5, 2), irtest.Param(-1, 1, 4),
		irtest.Const([]int{4}, 0.5, -1, 2, 0.3), irtest.Const([]int{4}, 1, 2, 0.5, 1.5),
	}
	const a, b, z, y, s = 0, 1, 2, 3, 4
	cases := []struct {
		name  string
		build func(bl *ir.Builder, in []ir.ID) ir.ID
		// want: one match expected (checked through its instructions'
		// ops and its operands' slots), or none.
		want  bool
		prior bool
		swap  bool // b·z written z·b and a + m written m + a
	}{
		{"a + b·z with z's prior", func(bl *ir.Builder, in []ir.ID) ir.ID {
			pr := emit(bl, ir.OpNormalLPDF, in[z], bl.Scalar(0), bl.Scalar(1))
			t := emit(bl, ir.OpAdd, in[a], emit(bl, ir.OpMul, in[b], in[z]))
			return emit(bl, ir.OpAddN, pr, emit(bl, ir.OpNormalLPDF, in[y], t, in[s]))
		}, true, true, false},
		{"z·b + a, no prior", func(bl *ir.Builder, in []ir.ID) ir.ID {
			t := emit(bl, ir.OpAdd, emit(bl, ir.OpMul, in[z], in[b]), in[a])
			return emit(bl, ir.OpNormalLPDF, in[y], t, in[s])
		}, true, false, true},
		{"prior with a parameter mean is not absorbed", func(bl *ir.Builder, in []ir.ID) ir.ID {
			pr := emit(bl, ir.OpNormalLPDF, in[z], in[a], bl.Scalar(1))
			t := emit(bl, ir.OpAdd, in[a], emit(bl, ir.OpMul, in[b], in[z]))
			return emit(bl, ir.OpAddN, pr, emit(bl, ir.OpNormalLPDF, in[y], t, in[s]))
		}, true, false, false},
		{"θ read by another instruction", func(bl *ir.Builder, in []ir.ID) ir.ID {
			t := emit(bl, ir.OpAdd, in[a], emit(bl, ir.OpMul, in[b], in[z]))
			return emit(bl, ir.OpAddN, emit(bl, ir.OpNormalLPDF, in[y], t, in[s]), emit(bl, ir.OpSum, t))
		}, false, false, false},
		{"b·z read by another instruction", func(bl *ir.Builder, in []ir.ID) ir.ID {
			m := emit(bl, ir.OpMul, in[b], in[z])
			t := emit(bl, ir.OpAdd, in[a], m)
			return emit(bl, ir.OpAddN, emit(bl, ir.OpNormalLPDF, in[y], t, in[s]), emit(bl, ir.OpSum, m))
		}, false, false, false},
		{"a vector, not a scalar", func(bl *ir.Builder, in []ir.ID) ir.ID {
			t := emit(bl, ir.OpAdd, in[y], emit(bl, ir.OpMul, in[b], in[z]))
			return emit(bl, ir.OpNormalLPDF, in[s], t, bl.Scalar(1))
		}, false, false, false},
		{"y a parameter", func(bl *ir.Builder, in []ir.ID) ir.ID {
			t := emit(bl, ir.OpAdd, in[a], emit(bl, ir.OpMul, in[b], in[y]))
			return emit(bl, ir.OpNormalLPDF, in[z], t, in[s])
		}, false, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := irtest.BuildProgram(func(bl *ir.Builder, in []ir.ID) (ir.ID, error) { return c.build(bl, in), nil }, args...)
			if err != nil {
				t.Fatal(err)
			}
			ms := fuse.AffineNormals(p)
			if !c.want {
				if len(ms) != 0 {
					t.Fatalf("matched %+v in\n%v", ms, p)
				}
				return
			}
			if len(ms) != 1 {
				t.Fatalf("%d matches, want 1, in\n%v", len(ms), p)
			}
			m := ms[0]
			if p.Instrs[m.Normal].Op != ir.OpNormalLPDF || p.Instrs[m.Add].Op != ir.OpAdd || p.Instrs[m.Mul].Op != ir.OpMul {
				t.Fatalf("match %+v names the wrong instructions in\n%v", m, p)
			}
			// A, B, Z are the parameters a, b, z whatever the operand order.
			off := func(id ir.ID) int { return p.Values[id].Off }
			if off(m.A) != 0 || off(m.B) != 1 || off(m.Z) != 2 || p.Values[m.Z].Len != 4 {
				t.Fatalf("a, b, z at slots %d, %d, %d (z of %d), want 0, 1, 2 (of 4)", off(m.A), off(m.B), off(m.Z), p.Values[m.Z].Len)
			}
			if got := m.Prior >= 0; got != c.prior {
				t.Fatalf("prior found = %v (instruction %d), want %v", got, m.Prior, c.prior)
			}
			if c.prior && (p.Instrs[m.Prior].Op != ir.OpNormalLPDF || p.Instrs[m.Prior].In[0] != m.Z) {
				t.Fatalf("prior %d is not z's normal_lpdf in\n%v", m.Prior, p)
			}
			if m.AddOut || m.MulOut {
				t.Fatalf("AddOut, MulOut = %v, %v with no outputs", m.AddOut, m.MulOut)
			}
		})
	}
}

// TestLinearNormals checks the one matcher of the regression likelihood
// that accel/ir's plan and accel/vec's batches both read.
func TestLinearNormals(t *testing.T) {
	// c0 scalar, beta 2 parameters; X 4×2, x 4 and y 4 data; sigma a parameter.
	args := []irtest.Arg{
		irtest.Param(-1, 1), irtest.Param(-1, 1, 2),
		irtest.Const([]int{4, 2}, 1, 2, 3, 4, 5, 6, 7, 8), irtest.Const([]int{4}, 0.5, -1, 2, 0.3),
		irtest.Const([]int{4}, 1, 2, 0.5, 1.5), irtest.Param(0.5, 2),
	}
	const c0, beta, X, x, y, s = 0, 1, 2, 3, 4, 5
	cases := []struct {
		name  string
		build func(bl *ir.Builder, in []ir.ID) ir.ID
		// terms are the ops of the terms expected in order (ir.OpNop for an
		// intercept); nil: no match.
		terms []ir.Op
	}{
		{"X·β", func(bl *ir.Builder, in []ir.ID) ir.ID {
			return emit(bl, ir.OpNormalLPDF, in[y], emit(bl, ir.OpMatVec, in[X], in[beta]), in[s])
		}, []ir.Op{ir.OpMatVec}},
		{"c0 + x·c0 + X·β", func(bl *ir.Builder, in []ir.ID) ir.ID {
			mu := emit(bl, ir.OpAdd, emit(bl, ir.OpAdd, in[c0], emit(bl, ir.OpMul, in[x], in[c0])), emit(bl, ir.OpMatVec, in[X], in[beta]))
			return emit(bl, ir.OpNormalLPDF, in[y], mu, in[s])
		}, []ir.Op{ir.OpNop, ir.OpMul, ir.OpMatVec}},
		{"X·β read by another instruction", func(bl *ir.Builder, in []ir.ID) ir.ID {
			mu := emit(bl, ir.OpMatVec, in[X], in[beta])
			return emit(bl, ir.OpAddN, emit(bl, ir.OpNormalLPDF, in[y], mu, in[s]), emit(bl, ir.OpSum, mu))
		}, nil},
		{"a parameter design column", func(bl *ir.Builder, in []ir.ID) ir.ID {
			mu := emit(bl, ir.OpAdd, in[c0], emit(bl, ir.OpMul, in[c0], emit(bl, ir.OpMatVec, in[X], in[beta])))
			return emit(bl, ir.OpNormalLPDF, in[y], mu, in[s])
		}, nil},
		{"σ per element", func(bl *ir.Builder, in []ir.ID) ir.ID {
			return emit(bl, ir.OpNormalLPDF, in[y], emit(bl, ir.OpMatVec, in[X], in[beta]), in[x])
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := irtest.BuildProgram(func(bl *ir.Builder, in []ir.ID) (ir.ID, error) { return c.build(bl, in), nil }, args...)
			if err != nil {
				t.Fatal(err)
			}
			ms := fuse.LinearNormals(p)
			if c.terms == nil {
				if len(ms) != 0 {
					t.Fatalf("matched %+v in\n%v", ms, p)
				}
				return
			}
			if len(ms) != 1 {
				t.Fatalf("%d matches, want 1, in\n%v", len(ms), p)
			}
			m := ms[0]
			if len(m.Terms) != len(c.terms) {
				t.Fatalf("%d terms %+v, want %d", len(m.Terms), m.Terms, len(c.terms))
			}
			for i, tm := range m.Terms {
				op := ir.OpNop
				if tm.Instr >= 0 {
					op = p.Instrs[tm.Instr].Op
				}
				if op != c.terms[i] {
					t.Fatalf("term %d is %v, want %v", i, op, c.terms[i])
				}
				if tm.Instr < 0 && tm.X != ir.None || tm.Instr >= 0 && p.Values[tm.X].Grad {
					t.Fatalf("term %d: X %d is not data", i, tm.X)
				}
			}
			mean := p.Instrs[m.Normal].In[1]
			if last := m.Instrs[len(m.Instrs)-1]; p.Values[p.Instrs[last].Out].Off != p.Values[mean].Off {
				t.Fatalf("the last of Instrs %v does not produce the mean", m.Instrs)
			}
		})
	}
}
