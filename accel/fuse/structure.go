package fuse

import "github.com/gobayes/gobayes/accel/ir"

// The structures of models, found once. Every backend that runs a fused
// kernel for one of them reads these matches and adds only its own
// conditions (a layout it needs, a scratch it reads); none searches the
// instructions for the structure itself.

// AffineNormal is the likelihood of a non-centred hierarchical model as a
// program writes it, Σ_i normal_lpdf(y_i | a + b·z_i, σ_i) (θ = μ + τ·z):
//
//   - Normal is a summed normal_lpdf over n ≥ 2 elements whose y carries no
//     gradient and whose σ is one scalar or n elements without gradient;
//   - its mean is the output of instruction Add, a + m or m + a, with a a
//     scalar, read by no instruction but Normal (a view of all of it
//     counts as it; program outputs may read it);
//   - m is the output of instruction Mul, b·z or z·b with b a scalar and z
//     n elements, read by no instruction but Add.
//
// Prior, when not -1, is z's own prior Σ normal_lpdf(z | μ₀, σ₀) with μ₀
// and σ₀ scalars without gradient, whose term exactly one instruction
// reads, after Normal: a kernel may compute it in Normal's loops. AddOut
// and MulOut report that a program output reads the add's or the mul's
// slots (a kernel must then write them).
type AffineNormal struct {
	Normal, Add, Mul int
	A, B, Z          ir.ID
	Prior            int
	AddOut, MulOut   bool
}

// dataflow indexes a program's slots: the instruction producing each
// value's slots and, per instruction input, which slots it reads.
type dataflow struct {
	p *ir.Program
	// producer maps (offset, length) of an instruction's output to it.
	producer map[[2]int]int
}

func newDataflow(p *ir.Program) *dataflow {
	d := &dataflow{p: p, producer: map[[2]int]int{}}
	for i := range p.Instrs {
		if v := &p.Values[p.Instrs[i].Out]; v.Len > 0 {
			d.producer[[2]int{v.Off, v.Len}] = i
		}
	}
	return d
}

// overlaps reports whether values v and w share a slot.
func overlaps(v, w *ir.Value) bool {
	return v.Len > 0 && w.Len > 0 && v.Off < w.Off+w.Len && w.Off < v.Off+v.Len
}

// readers lists the instructions reading any slot of id, and whether the
// target does.
func (d *dataflow) readers(id ir.ID) (instrs []int, target bool) {
	p := d.p
	v := &p.Values[id]
	for j := range p.Instrs {
		for _, a := range p.Instrs[j].In {
			if overlaps(v, &p.Values[a]) {
				instrs = append(instrs, j)
				break
			}
		}
	}
	if p.Target != ir.None {
		target = overlaps(v, &p.Values[p.Target])
	}
	return instrs, target
}

// soleProducer returns the instruction with op, before instruction by,
// whose output is id's slots (id itself or a view of all of it), when no
// instruction but by reads those slots.
func (d *dataflow) soleProducer(id ir.ID, by int, op ir.Op) (int, bool) {
	v := &d.p.Values[id]
	j, ok := d.producer[[2]int{v.Off, v.Len}]
	if !ok || j >= by || d.p.Instrs[j].Op != op {
		return 0, false
	}
	rs, target := d.readers(id)
	if target || len(rs) != 1 || rs[0] != by {
		return 0, false
	}
	return j, true
}

// isOutput reports whether a program output shares a slot with id.
func (d *dataflow) isOutput(id ir.ID) bool {
	v := &d.p.Values[id]
	for _, o := range d.p.Outputs {
		if overlaps(v, &d.p.Values[o.ID]) {
			return true
		}
	}
	return false
}

// AffineNormals finds every AffineNormal of p, in program order.
func AffineNormals(p *ir.Program) []AffineNormal {
	d := newDataflow(p)
	var out []AffineNormal
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if in.Op != ir.OpNormalLPDF || ir.Pointwise(in) {
			continue
		}
		y, t, sg := &p.Values[in.In[0]], &p.Values[in.In[1]], &p.Values[in.In[2]]
		n := t.Len
		if n < 2 || y.Grad || y.Len != n || sg.Len != 1 && (sg.Len != n || sg.Grad) {
			continue
		}
		ja, ok := d.soleProducer(in.In[1], i, ir.OpAdd)
		if !ok {
			continue
		}
		add := &p.Instrs[ja]
		a, m := add.In[0], add.In[1]
		if p.Values[a].Len != 1 {
			a, m = m, a
		}
		if p.Values[a].Len != 1 || p.Values[m].Len != n {
			continue
		}
		jm, ok := d.soleProducer(m, ja, ir.OpMul)
		if !ok {
			continue
		}
		mul := &p.Instrs[jm]
		b, z := mul.In[0], mul.In[1]
		if p.Values[b].Len != 1 {
			b, z = z, b
		}
		if p.Values[b].Len != 1 || p.Values[z].Len != n {
			continue
		}
		out = append(out, AffineNormal{
			Normal: i, Add: ja, Mul: jm, A: a, B: b, Z: z,
			Prior:  d.priorOf(z, i),
			AddOut: d.isOutput(add.Out), MulOut: d.isOutput(mul.Out),
		})
	}
	return out
}

// priorOf finds z's prior for the likelihood at instruction i (see
// AffineNormal.Prior), -1 when there is none.
func (d *dataflow) priorOf(z ir.ID, i int) int {
	p := d.p
	vz := &p.Values[z]
	for j := range p.Instrs {
		in := &p.Instrs[j]
		if j == i || in.Op != ir.OpNormalLPDF || ir.Pointwise(in) {
			continue
		}
		y, mu, s := &p.Values[in.In[0]], &p.Values[in.In[1]], &p.Values[in.In[2]]
		if y.Off != vz.Off || y.Len != vz.Len || mu.Len != 1 || mu.Grad || s.Len != 1 || s.Grad {
			continue
		}
		rs, target := d.readers(in.Out)
		if target || len(rs) != 1 || rs[0] <= i || rs[0] <= j {
			continue
		}
		return j
	}
	return -1
}

// LinearNormal is a regression likelihood as a program writes it,
// Σ_i normal_lpdf(y_i | (X·β)_i, σ): Normal is a summed normal_lpdf over
// n ≥ 2 elements whose y carries no gradient and whose σ is one scalar,
// and its mean is X·β written as a sum of Terms, each a matvec of a data
// matrix, a scalar times a data vector (either operand order), or a
// scalar alone (an intercept: a column of ones), joined by adds. Instrs
// are the instructions computing the mean, the mean's producer last; the
// value of each is read by the next one only (and no program output);
// MeanOut reports that a program output reads the mean itself.
type LinearNormal struct {
	Normal  int
	Terms   []LinearTerm
	Instrs  []int
	MeanOut bool
}

// LinearTerm is one term of a LinearNormal's mean: X·Coef with X an n×k
// data matrix and Coef k values (Instr a matvec), X an n-vector of data
// and Coef one value (Instr a mul), or Coef alone (Instr -1, X ir.None).
type LinearTerm struct {
	Instr   int
	X, Coef ir.ID
}

// LinearNormals finds every LinearNormal of p, in program order.
func LinearNormals(p *ir.Program) []LinearNormal {
	d := newDataflow(p)
	var out []LinearNormal
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if in.Op != ir.OpNormalLPDF || ir.Pointwise(in) {
			continue
		}
		y, mu, sg := &p.Values[in.In[0]], &p.Values[in.In[1]], &p.Values[in.In[2]]
		n := mu.Len
		if n < 2 || y.Grad || y.Len != n || sg.Len != 1 {
			continue
		}
		m := LinearNormal{Normal: i, MeanOut: d.isOutput(in.In[1])}
		if d.linear(in.In[1], i, n, true, &m) {
			out = append(out, m)
		}
	}
	return out
}

// linear matches value id, n elements read by instruction by only, as a
// sum of LinearTerms, appending them and their instructions to m. The
// top of the mean may be read by program outputs (top), the values
// inside it not.
func (d *dataflow) linear(id ir.ID, by, n int, top bool, m *LinearNormal) bool {
	p := d.p
	v := &p.Values[id]
	j, ok := d.producer[[2]int{v.Off, v.Len}]
	if !ok || j >= by || v.Len != n || !top && d.isOutput(id) {
		return false
	}
	if rs, target := d.readers(id); target || len(rs) != 1 || rs[0] != by {
		return false
	}
	in := &p.Instrs[j]
	data := func(id ir.ID) bool { return !p.Values[id].Grad }
	switch in.Op {
	case ir.OpMatVec:
		x, beta := in.In[0], in.In[1]
		if !data(x) || p.Values[x].Len != n*p.Values[beta].Len {
			return false
		}
		m.Terms = append(m.Terms, LinearTerm{Instr: j, X: x, Coef: beta})
	case ir.OpMul:
		s, x := in.In[0], in.In[1]
		if p.Values[s].Len != 1 {
			s, x = x, s
		}
		if p.Values[s].Len != 1 || p.Values[x].Len != n || !data(x) {
			return false
		}
		m.Terms = append(m.Terms, LinearTerm{Instr: j, X: x, Coef: s})
	case ir.OpAdd:
		for _, a := range in.In {
			if p.Values[a].Len == 1 {
				m.Terms = append(m.Terms, LinearTerm{Instr: -1, X: ir.None, Coef: a})
				continue
			}
			if !d.linear(a, j, n, false, m) {
				return false
			}
		}
	default:
		return false
	}
	m.Instrs = append(m.Instrs, j)
	return true
}
