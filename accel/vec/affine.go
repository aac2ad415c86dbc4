package vec

import (
	"math"

	"github.com/gobayes/gobayes/accel/ir"
)

// affineNormal is a fused kernel for the likelihood of a non-centred
// hierarchical model, Σ_i normal_lpdf(y_i | a + b·z_i, σ_i), with y and σ
// data (σ a scalar or one per element), a and b per-chain scalars and z a
// per-chain vector (θ = μ + τ·z). One loop over elements and chains
// computes θ, the residual and the term, and one loop the gradients
//
//	u = (y − θ)/σ²:  ∂a += u,  ∂b += u·z,  ∂z += u·b
//
// instead of the mul, the add and the normal each sweeping their own
// values and adjoints: the mul and the add are skipped. When z has a
// normal prior with shared scalar parameters (z ~ Normal(0, 1)), that
// prior's term and gradient are computed in the same loops, into the
// prior's output (the prior's instruction is skipped).
type affineNormal struct {
	a, b, z operand
	y, sg   operand
	n       int
	// theta, when per, is where θ is written for a deterministic output
	// that reads it (no instruction but the normal does).
	theta operand
	// prior, when per, is the output of z's prior normal_lpdf(z | pm, ps).
	prior  operand
	pm, ps operand
}

// fuseAffineNormals finds normal_lpdf(y, add(a, mul(b, z)), σ) summed
// (either operand order in add and mul), with y and σ shared, the mul's
// output read by the add only and the add's (or a view of all its slots,
// a deterministic θ) by the normal only, besides the program's outputs.
func (b *Batch) fuseAffineNormals() {
	p := b.P
	producer, uses := dataflow(p)
	scalar := func(id ir.ID) bool { l := b.loc[id]; return l.per && l.n == 1 }
	// binaryOf is the instruction computing id with op, when id is read
	// by the caller only.
	binaryOf := func(id ir.ID, op ir.Op) (*ir.Instr, int, bool) {
		j, ok := producer[id]
		if !ok || uses[id] != 1 || b.viewed(id) || b.plan[j].k != kBinary || p.Instrs[j].Op != op {
			return nil, 0, false
		}
		return &p.Instrs[j], j, true
	}
	for k := range p.Instrs {
		in := &p.Instrs[k]
		if b.plan[k].k != kNormal || ir.Pointwise(in) {
			continue
		}
		y, sg := b.loc[in.In[0]], b.elem(in.In[2])
		n := y.n
		if y.per || sg.per || n < 2 || b.loc[in.In[1]].n != n {
			continue
		}
		ja, ok := b.soleReader(in.In[1], k, producer)
		if !ok || b.plan[ja].k != kBinary || p.Instrs[ja].Op != ir.OpAdd {
			continue
		}
		add := &p.Instrs[ja]
		a, m := add.In[0], add.In[1]
		if !scalar(a) {
			a, m = m, a
		}
		mul, jm, ok := binaryOf(m, ir.OpMul)
		if !ok || !scalar(a) {
			continue
		}
		bb, z := mul.In[0], mul.In[1]
		if !scalar(bb) {
			bb, z = z, bb
		}
		if lz := b.loc[z]; !scalar(bb) || !lz.per || lz.n != n {
			continue
		}
		f := &affineNormal{a: b.loc[a], b: b.loc[bb], z: b.loc[z], y: y, sg: sg, n: n}
		if b.isOutput(add.Out) {
			f.theta = b.loc[add.Out]
		}
		if jp, ok := b.priorOf(z, k); ok {
			pin := &p.Instrs[jp]
			f.prior, f.pm, f.ps = b.loc[pin.Out], b.loc[pin.In[1]], b.loc[pin.In[2]]
			b.plan[jp] = step{k: kAbsorbed}
		}
		b.plan[k] = step{k: kAffineNormal, aff: f}
		b.plan[ja] = step{k: kNone}
		b.plan[jm] = step{k: kNone}
	}
}

// priorOf finds a summed normal_lpdf(z | m, s) with m and s shared
// scalars that can run at instruction k: no instruction between the two
// reads its output.
func (b *Batch) priorOf(z ir.ID, k int) (int, bool) {
	p := b.P
	for j := range p.Instrs {
		in := &p.Instrs[j]
		if b.plan[j].k != kNormal || in.Op != ir.OpNormalLPDF || ir.Pointwise(in) || in.In[0] != z {
			continue
		}
		m, s := b.loc[in.In[1]], b.loc[in.In[2]]
		if m.per || s.per || m.n != 1 || s.n != 1 || b.plan[j].fused || b.plan[j].mix != nil || b.viewed(in.Out) {
			continue
		}
		for jj := j + 1; jj < k; jj++ {
			for _, a := range p.Instrs[jj].In {
				if a == in.Out {
					return 0, false
				}
			}
		}
		return j, true
	}
	return 0, false
}

// soleReader finds the instruction producing the slots of id (id itself
// or the value id views in full) when instruction k is the only one
// reading those slots.
func (b *Batch) soleReader(id ir.ID, k int, producer map[ir.ID]int) (int, bool) {
	p := b.P
	v := p.Values[id]
	j, ok := producer[id]
	if !ok {
		for u, w := range p.Values {
			if jj, has := producer[ir.ID(u)]; has && w.Off == v.Off && w.Len == v.Len {
				j, ok = jj, true
				break
			}
		}
	}
	if !ok {
		return 0, false
	}
	for jj, in := range p.Instrs {
		for _, a := range in.In {
			if w := p.Values[a]; jj != k && w.Len > 0 && w.Off < v.Off+v.Len && v.Off < w.Off+w.Len {
				return 0, false
			}
		}
	}
	return j, true
}

// isOutput reports whether a program output shares slots with id.
func (b *Batch) isOutput(id ir.ID) bool {
	p := b.P
	v := p.Values[id]
	for _, o := range p.Outputs {
		if w := p.Values[o.ID]; w.Len > 0 && w.Off < v.Off+v.Len && v.Off < w.Off+w.Len {
			return true
		}
	}
	return false
}

func (b *Batch) affineNormalForward(in *ir.Instr, f *affineNormal) {
	v, o, nb := b.V, b.loc[in.Out], b.B
	out := v[o.off : o.off+nb]
	clear(out)
	as, bs := v[f.a.off:f.a.off+nb], v[f.b.off:f.b.off+nb]
	as, bs = as[:len(out)], bs[:len(out)]
	if f.prior.per {
		b.affinePriorForward(f)
	}
	for i := 0; i < f.n; i++ {
		yi, s := v[f.y.off+i], v[f.sg.off+i*f.sg.es]
		zs := v[f.z.off+i*nb : f.z.off+(i+1)*nb]
		zs = zs[:len(out)]
		if f.theta.per {
			th := v[f.theta.off+i*nb : f.theta.off+(i+1)*nb]
			th = th[:len(zs)]
			for c, zc := range zs {
				th[c] = as[c] + bs[c]*zc
			}
		}
		if !(s > 0) {
			for c := range out {
				out[c] = math.Inf(-1)
			}
			continue
		}
		k, r := -math.Log(s)-lnSqrt2Pi, 1/s
		for c, zc := range zs {
			u := (yi - (as[c] + bs[c]*zc)) * r
			e := k - 0.5*u*u
			if e != e {
				e = math.Inf(-1)
			}
			out[c] += e
		}
	}
}

func (b *Batch) affineNormalBackward(in *ir.Instr, f *affineNormal) {
	v, a, o, nb := b.V, b.Adj, b.loc[in.Out], b.B
	g := a[o.off : o.off+nb]
	as, bs := v[f.a.off:f.a.off+nb], v[f.b.off:f.b.off+nb]
	ga, gb := b.adjRow(f.a, 0, true), b.adjRow(f.b, 0, true)
	as, bs, ga, gb = as[:len(g)], bs[:len(g)], ga[:len(g)], gb[:len(g)]
	// The prior's gradient in z, −g_p·(z − m)/s², or nothing.
	gp, pm, pr2 := b.rows[4], 0.0, 0.0
	if s := v[f.ps.off]; f.prior.per && s > 0 {
		gp, pm, pr2 = a[f.prior.off:f.prior.off+nb], v[f.pm.off], 1/(s*s)
	}
	gp = gp[:len(g)]
	for i := 0; i < f.n; i++ {
		yi, s := v[f.y.off+i], v[f.sg.off+i*f.sg.es]
		zs, gz := v[f.z.off+i*nb:f.z.off+(i+1)*nb], b.adjRow(f.z, i, true)
		zs, gz = zs[:len(g)], gz[:len(g)]
		if pr2 != 0 {
			for c, zc := range zs {
				gz[c] -= gp[c] * (zc - pm) * pr2
			}
		}
		if !(s > 0) {
			continue
		}
		r := 1 / s
		for c, gc := range g {
			zc := zs[c]
			d := gc * (yi - (as[c] + bs[c]*zc)) * r * r
			ga[c] += d
			gb[c] += d * zc
			gz[c] += d * bs[c]
		}
	}
}

// affinePriorForward is z's prior, Σ_i normal_lpdf(z_i | m, s), into the
// prior's output (a loop of its own: z's rows are then in cache for the
// likelihood's).
func (b *Batch) affinePriorForward(f *affineNormal) {
	v, nb := b.V, b.B
	out := v[f.prior.off : f.prior.off+nb]
	m, s := v[f.pm.off], v[f.ps.off]
	if !(s > 0) {
		for c := range out {
			out[c] = math.Inf(-1)
		}
		return
	}
	clear(out)
	k, r := -math.Log(s)-lnSqrt2Pi, 1/s
	for i := 0; i < f.n; i++ {
		zs := v[f.z.off+i*nb : f.z.off+(i+1)*nb]
		zs = zs[:len(out)]
		for c, zc := range zs {
			w := (zc - m) * r
			e := k - 0.5*w*w
			if e != e {
				e = math.Inf(-1)
			}
			out[c] += e
		}
	}
}
