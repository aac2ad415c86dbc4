package vec

import (
	"math"

	"github.com/gobayes/gobayes/accel/fuse"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/opdef/term"
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

// fuseAffineNormals runs affineNormal for each of accel/fuse's
// AffineNormal matches (θ = a + b·z into a summed normal_lpdf) whose
// layout it handles: y and σ shared, a and b per-chain scalars, z a
// per-chain vector, the add and the mul plain binary instructions, the
// mul's output read by nothing else (the add's may be a deterministic θ,
// which the kernel then writes).
func (b *Batch) fuseAffineNormals() {
	p := b.P
	scalar := func(id ir.ID) bool { l := b.loc[id]; return l.per && l.n == 1 }
	for _, m := range fuse.AffineNormals(p) {
		k, in, mul := m.Normal, &p.Instrs[m.Normal], &p.Instrs[m.Mul]
		if !b.isNormal(k) || b.plan[m.Add].k != kBinary || b.plan[m.Mul].k != kBinary {
			continue
		}
		y, sg, z := b.loc[in.In[0]], b.elem(in.In[2]), b.loc[m.Z]
		n := y.n
		if y.per || sg.per || !scalar(m.A) || !scalar(m.B) || !z.per || z.n != n || m.MulOut || b.viewed(mul.Out) {
			continue
		}
		f := &affineNormal{a: b.loc[m.A], b: b.loc[m.B], z: z, y: y, sg: sg, n: n}
		if m.AddOut {
			f.theta = b.loc[p.Instrs[m.Add].Out]
		}
		if jp := m.Prior; jp >= 0 {
			pin := &p.Instrs[jp]
			pm, ps := b.loc[pin.In[1]], b.loc[pin.In[2]]
			if b.isNormal(jp) && !pm.per && !ps.per && !b.plan[jp].fused && b.plan[jp].mix == nil && !b.viewed(pin.Out) {
				f.prior, f.pm, f.ps = b.loc[pin.Out], pm, ps
				b.plan[jp] = step{k: kAbsorbed}
			}
		}
		b.plan[k] = step{k: kAffineNormal, aff: f}
		b.plan[m.Add] = step{k: kNone}
		b.plan[m.Mul] = step{k: kNone}
	}
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
		ls, r := math.Log(s), 1/s
		for c, zc := range zs {
			e := term.NormalValue(yi, as[c]+bs[c]*zc, ls, r)
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
	// The prior's gradient in z, g_p·∂/∂z normal_lpdf(z | m, s), or
	// nothing.
	gp, pm, pr := b.rows[4], 0.0, 0.0
	if s := v[f.ps.off]; f.prior.per && s > 0 {
		gp, pm, pr = a[f.prior.off:f.prior.off+nb], v[f.pm.off], 1/s
	}
	gp = gp[:len(g)]
	for i := 0; i < f.n; i++ {
		yi, s := v[f.y.off+i], v[f.sg.off+i*f.sg.es]
		zs, gz := v[f.z.off+i*nb:f.z.off+(i+1)*nb], b.adjRow(f.z, i, true)
		zs, gz = zs[:len(g)], gz[:len(g)]
		if pr != 0 {
			for c, zc := range zs {
				dz, _, _ := term.NormalGrad(zc, pm, pr)
				gz[c] += gp[c] * dz
			}
		}
		if !(s > 0) {
			continue
		}
		r := 1 / s
		for c, gc := range g {
			zc := zs[c]
			_, dt, _ := term.NormalGrad(yi, as[c]+bs[c]*zc, r)
			d := gc * dt
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
	ls, r := math.Log(s), 1/s
	for i := 0; i < f.n; i++ {
		zs := v[f.z.off+i*nb : f.z.off+(i+1)*nb]
		zs = zs[:len(out)]
		for c, zc := range zs {
			e := term.NormalValue(zc, m, ls, r)
			if e != e {
				e = math.Inf(-1)
			}
			out[c] += e
		}
	}
}
