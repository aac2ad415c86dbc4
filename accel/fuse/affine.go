package fuse

import (
	"math"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/opdef/term"
)

// affineNormal is the kernel of match m (see AffineNormal), when this
// interpreter can run it: the add and the mul not already planned, a
// scratch for the σ per element. z's prior is absorbed when it comes
// before the likelihood and runs as a kScalePrior: one loop over z then
// computes both log densities, and one loop their gradients.
func affineNormal(p *ir.Program, plan []ir.Step, m AffineNormal, priv *int) (kernel, []int, bool) {
	in := &p.Instrs[m.Normal]
	y, sg := &p.Values[in.In[0]], &p.Values[in.In[2]]
	n := y.Len
	for _, j := range []int{m.Add, m.Mul} {
		if plan[j].Kernel != nil || plan[j].Skip {
			return nil, nil, false
		}
	}
	if sg.Len == n && in.Scratch == ir.None {
		return nil, nil, false
	}
	add, mul := &p.Instrs[m.Add], &p.Instrs[m.Mul]
	va, vb, vz := &p.Values[m.A], &p.Values[m.B], &p.Values[m.Z]
	k := &kAffineNormal{
		y: y.Off, sg: sg.Off, ns: sg.Len, a: va.Off, b: vb.Off, z: vz.Off,
		yID: in.In[0], sgID: in.In[2], zID: m.Z,
		m: p.Values[mul.Out].Off, t: p.Values[add.Out].Off, out: p.Values[in.Out].Off, n: n,
		ga: va.Grad, gb: vb.Grad, gz: vz.Grad, gsg: sg.Grad,
		writeM: m.MulOut, cache: -1, memo: alloc(priv, 5+n),
	}
	if sg.Len == n {
		k.cache = alloc(priv, 1+2*n)
	}
	absorbed := []int{m.Add, m.Mul}
	if j := m.Prior; j >= 0 && j < m.Normal && !plan[j].Skip {
		if sp, ok := plan[j].Kernel.(*kScalePrior); ok {
			k.prior, k.pmu, k.psig, k.pout = sp, sp.mu, sp.sig, sp.out
			plan[j].AdjRead = true // the sum's sweep writes it, the kernel reads it
			absorbed = append(absorbed, j)
		}
	}
	return k, absorbed, true
}

// kAffineNormal is Σ normal_lpdf(y_i | a + b·z_i, σ_i); it writes add's
// output (and mul's when a caller reads it) as they would. Private slots:
// memo, memo+1 log σ memoised; memo+2 Σ(y-t)² for the gradient in a
// single σ; then n slots that take the gradient in z when z has none;
// then, with a σ per element, Σ log-normaliser (NaN until computed) and
// 1 when every σ_i > 0 (see sigmaSums). With a prior,
// it also is Σ normal_lpdf(z_i | μ₀, σ₀), written where the prior's
// instruction writes it, with the arithmetic of kScalePrior (so both
// values are the unfused ones to the last bit).
type kAffineNormal struct {
	// Slot offsets: the data y, σ (ns slots: 1 or n), the scalars a and b,
	// z, the outputs of mul and add, the log density; n elements.
	y, sg, ns, a, b, z, m, t, out, n int
	// The IDs of y, σ and z, vectors that may be shared constants
	// (outside the frame): read through Frame.Val.
	yID, sgID, zID  ir.ID
	ga, gb, gz, gsg bool
	writeM          bool // mul's output is a named output
	// cache is the offset of the kernel's own cache of a σ per element
	// (data): a flag, then -log σ - log √(2π) and 1/σ per element; -1
	// with one σ.
	cache int
	memo  int
	// The absorbed prior (nil without): its instruction's kernel, the
	// offsets of μ₀, σ₀ and of its term.
	prior           *kScalePrior
	pmu, psig, pout int
}

// sigmaCache is the log-normalisers and inverse scales of a σ per
// element, filled on first use (σ is data; the flag is NaN until then).
func (k *kAffineNormal) sigmaCache(f *ir.Frame) (cc, ci []float64) {
	n, c, pv := k.n, k.cache, f.Private()
	if pv[c] != 1 { // NaN until filled
		k.fillSigmaCache(f)
	}
	return pv[c+1 : c+1+n], pv[c+1+n : c+1+2*n]
}

func (k *kAffineNormal) fillSigmaCache(f *ir.Frame) {
	n, c, pv := k.n, k.cache, f.Private()
	cc, ci := pv[c+1:c+1+n], pv[c+1+n:c+1+2*n]
	for i, sv := range f.Val(k.sgID)[:n] {
		if sv > 0 {
			// The log-normaliser: the term at z = 0 (see normalSquares).
			cc[i], ci[i] = term.NormalValue(0, 0, math.Log(sv), 0), 1/sv
		} else {
			cc[i], ci[i] = negInf, 0
		}
	}
	pv[c] = 1
}

func (k *kAffineNormal) Forward(f *ir.Frame) {
	v := f.V
	z := f.Val(k.zID)
	n := len(z)
	y, t := f.Val(k.yID)[:n], v[k.t:k.t+n]
	a, b := v[k.a], v[k.b]
	var mu0 float64
	if k.prior != nil {
		mu0 = v[k.pmu]
	}
	q0 := 0.0 // Σ(z-μ₀)², the prior's
	if k.ns == 1 {
		s := v[k.sg]
		q := 0.0
		for i, zi := range z {
			ti := a + b*zi
			t[i] = ti
			d := y[i] - ti
			q += d * d
			d0 := zi - mu0
			q0 += d0 * d0
		}
		f.Private()[k.memo+2] = q
		e := negInf
		if s > 0 {
			e = finite(normalSquares(q, 1/s, memoLog(f, k.memo, s), n))
		}
		v[k.out] = e
	} else if sums := k.sigmaSums(f); sums[1] == 1 {
		// Every σ_i > 0: Σ log-normaliser - ½Σr², as forwardGrad.
		_, ci := k.sigmaCache(f)
		ci = ci[:n]
		rr := 0.0
		for i, zi := range z {
			ti := a + b*zi
			t[i] = ti
			r := (y[i] - ti) * ci[i]
			rr += r * r
			d0 := zi - mu0
			q0 += d0 * d0
		}
		tot := sums[0] - 0.5*rr
		if tot != tot {
			tot = negInf
		}
		v[k.out] = tot
	} else {
		cc, ci := k.sigmaCache(f)
		cc, ci = cc[:n], ci[:n]
		tot := 0.0
		for i, zi := range z {
			ti := a + b*zi
			t[i] = ti
			r := (y[i] - ti) * ci[i]
			e := cc[i] - 0.5*r*r
			if e != e {
				e = negInf
			}
			tot += e
			d0 := zi - mu0
			q0 += d0 * d0
		}
		v[k.out] = tot
	}
	if k.writeM {
		m := v[k.m : k.m+n]
		for i, zi := range z {
			m[i] = b * zi
		}
	}
	if k.prior != nil {
		v[k.pout] = k.prior.normalFromSquares(f, q0)
	}
}

func (k *kAffineNormal) Backward(f *ir.Frame) {
	v, adj := f.V, f.Adj
	z := f.Val(k.zID)
	n := len(z)
	y, t := f.Val(k.yID)[:n], v[k.t:k.t+n]
	g := adj[k.out]
	b := v[k.b]
	// gz gets ∂/∂z_i of the likelihood and, with a prior, g₀ times its
	// partial, as kScalePrior's backward adds it (nothing with σ₀ ≤ 0).
	// Without gradient in z, gz is a sink.
	gz := k.sink(f, n)
	if k.gz {
		gz = adj[k.z : k.z+n]
	}
	prior := false
	var mu0, inv0, g0 float64
	if k.prior != nil {
		if s0 := v[k.psig]; s0 > 0 {
			prior = true
			mu0 = v[k.pmu]
			_, inv0 = memoScale(f, k.prior.memo, s0)
			g0 = adj[k.pout]
		}
	}
	var sa, sb float64 // Σ ∂/∂t_i, Σ ∂/∂t_i·z_i
	switch {
	case k.ns == 1 && v[k.sg] > 0:
		inv := 1 / v[k.sg]
		for i, zi := range z {
			_, dt, _ := term.NormalGrad(y[i], t[i], inv)
			d := g * dt
			sa += d
			sb += d * zi
			if prior {
				dz, _, _ := term.NormalGrad(zi, mu0, inv0)
				gz[i] += d*b + g0*dz
			} else {
				gz[i] += d * b
			}
		}
		if k.gsg {
			q := f.Private()[k.memo+2]
			adj[k.sg] += g * inv * ((q*inv)*inv - float64(n))
		}
	case k.ns == 1: // σ ≤ 0: the likelihood adds nothing
		if !prior {
			break
		}
		for i, zi := range z {
			dz, _, _ := term.NormalGrad(zi, mu0, inv0)
			gz[i] += g0 * dz
		}
	default:
		_, ci := k.sigmaCache(f)
		ci = ci[:n]
		for i, zi := range z {
			// ci is 0 where σ ≤ 0: the registered backward adds
			// nothing there, and (y-t)·0 would be NaN for infinite t.
			d := 0.0
			if c := ci[i]; c != 0 {
				_, dt, _ := term.NormalGrad(y[i], t[i], c)
				d = g * dt
			}
			sa += d
			sb += d * zi
			if prior {
				dz, _, _ := term.NormalGrad(zi, mu0, inv0)
				gz[i] += d*b + g0*dz
			} else {
				gz[i] += d * b
			}
		}
	}
	if k.ga {
		adj[k.a] += sa
	}
	if k.gb {
		adj[k.b] += sb
	}
}

// sink is n private slots that take the gradient in z when z carries
// none.
func (k *kAffineNormal) sink(f *ir.Frame, n int) []float64 {
	return f.Private()[k.memo+3 : k.memo+3+n]
}

func (k *kAffineNormal) termOuts() []int {
	if k.prior != nil {
		return []int{k.out, k.pout}
	}
	return []int{k.out}
}

func (k *kAffineNormal) AdjWrites() [][2]int {
	return [][2]int{{k.z, k.z + k.n}, {k.a, k.a + 1}, {k.b, k.b + 1}, {k.sg, k.sg + k.ns}}
}

// forwardGrad is forward and backward with the adjoints of the log
// density (and of the prior's) 1, in one loop over z, as a hand-written
// non-centred model does.
func (k *kAffineNormal) ForwardGrad(f *ir.Frame) {
	v, adj := f.V, f.Adj
	z := f.Val(k.zID)
	n := len(z)
	y, t := f.Val(k.yID)[:n], v[k.t:k.t+n]
	a, b := v[k.a], v[k.b]
	gz := k.sink(f, n)
	if k.gz {
		gz = adj[k.z : k.z+n]
	}
	gz = gz[:n]
	// The prior: μ₀, 1/σ₀ (0 without a prior, or with σ₀ ≤ 0 where its
	// gradient is 0).
	prior := false
	var mu0, ls0, inv0 float64
	if k.prior != nil {
		mu0 = v[k.pmu]
		if s0 := v[k.psig]; s0 > 0 {
			prior = true
			c := (*[3]float64)(f.Private()[k.prior.memo:])
			if c[0] != s0 {
				setScale(c, s0)
			}
			ls0, inv0 = c[1], c[2]
		}
	}
	var q0, sa, sb float64 // Σ(z-μ₀)², Σ ∂/∂t_i, Σ ∂/∂t_i·z_i
	if k.ns == 1 {
		s := v[k.sg]
		ok := s > 0
		inv := 1 / s
		q := 0.0
		for i, zi := range z {
			ti := a + b*zi
			t[i] = ti
			d := y[i] - ti
			q += d * d
			d0 := zi - mu0
			q0 += d0 * d0
			var gi float64
			if ok {
				_, dd, _ := term.NormalGrad(y[i], ti, inv)
				sa += dd
				sb += dd * zi
				gi = dd * b
			}
			if prior {
				dz, _, _ := term.NormalGrad(zi, mu0, inv0)
				gi += dz
			}
			gz[i] += gi
		}
		f.Private()[k.memo+2] = q
		e := negInf
		if ok {
			e = finite(normalSquares(q, inv, memoLog(f, k.memo, s), n))
			if k.gsg {
				adj[k.sg] += inv * ((q*inv)*inv - float64(n))
			}
		}
		v[k.out] = e
	} else {
		c, sums := k.cache, f.Private()[k.memo+3+n:k.memo+5+n]
		if sums[0] != sums[0] {
			k.fillSigmaSums(f)
		}
		pv := f.Private()
		cc, ci := pv[c+1:c+1+n], pv[c+1+n:c+1+2*n] // sigmaCache, inlined by hand
		var tot float64
		if sums[1] == 1 && prior {
			var rr float64
			rr, q0, sa, sb = affineSigmasPosLoop(z, y, t, ci, gz, a, b, mu0, inv0)
			tot = sums[0] - 0.5*rr
		} else {
			var rr float64
			tot, rr, q0, sa, sb = affineSigmasLoop(z, y, t, cc, ci, gz, a, b, mu0, inv0, prior)
			if sums[1] == 1 {
				tot = sums[0] - 0.5*rr // as forward
			}
		}
		// No term is +Inf (cc is finite or -Inf), so a NaN total means a
		// NaN term, which the registered op counts as -Inf: the total is
		// -Inf either way.
		if tot != tot {
			tot = negInf
		}
		v[k.out] = tot
	}
	if k.writeM {
		m := v[k.m : k.m+n]
		for i, zi := range z {
			m[i] = b * zi
		}
	}
	if k.prior != nil {
		// normalFromSquares, inlined by hand.
		e := negInf
		if prior {
			e = finite(normalSquares(q0, inv0, ls0, n))
		}
		v[k.pout] = e
	}
	if k.ga {
		adj[k.a] += sa
	}
	if k.gb {
		adj[k.b] += sb
	}
}

// affineSigmasLoop is forwardGrad's loop with a σ per element (cc, ci: the
// log-normalisers and inverse scales): it writes t = a + b·z, adds the
// gradient in z into gz, and returns the log density, Σr² (r the
// standardised residuals), Σ(z-μ₀)² and the gradients in a and b. A function of its own so that the loop keeps its
// variables in registers.
func affineSigmasLoop(z, y, t, cc, ci, gz []float64, a, b, mu0, inv0 float64, prior bool) (tot, rr, q0, sa, sb float64) {
	n := len(z)
	y, t, cc, ci, gz = y[:n], t[:n], cc[:n], ci[:n], gz[:n]
	for i, zi := range z {
		ti := a + b*zi
		t[i] = ti
		c := ci[i]
		r := (y[i] - ti) * c
		tot += cc[i] - 0.5*r*r
		rr += r * r
		d0 := zi - mu0
		q0 += d0 * d0
		var gi float64
		if c != 0 { // σ_i > 0
			_, d, _ := term.NormalGrad(y[i], ti, c)
			sa += d
			sb += d * zi
			gi = d * b
		}
		if prior {
			dz, _, _ := term.NormalGrad(zi, mu0, inv0)
			gi += dz
		}
		gz[i] += gi
	}
	return tot, rr, q0, sa, sb
}

// sigmaSums returns the private slots after the sink, Σ log-normaliser
// and 1 when every σ_i > 0 (else 0), filling them on first use.
func (k *kAffineNormal) sigmaSums(f *ir.Frame) []float64 {
	n := k.n
	s := f.Private()[k.memo+3+n : k.memo+5+n]
	if s[0] != s[0] {
		k.fillSigmaSums(f)
	}
	return s
}

// fillSigmaSums fills the sigma cache if need be, then the sums of
// sigmaSums. They are computed once per frame, as the cache is (σ is
// data); the flag is NaN until filled.
func (k *kAffineNormal) fillSigmaSums(f *ir.Frame) {
	pv, n, c := f.Private(), k.n, k.cache
	if pv[c] != 1 { // NaN until filled
		k.fillSigmaCache(f)
	}
	sum, pos := 0.0, 1.0
	sg := f.Val(k.sgID)[:n]
	for i, cv := range pv[c+1 : c+1+n] {
		sum += cv
		if !(sg[i] > 0) {
			pos = 0
		}
	}
	f.Private()[k.memo+3+n], f.Private()[k.memo+4+n] = sum, pos
}

// affineSigmasPosLoop is affineSigmasLoop when every σ_i > 0 and z has a
// prior: it returns Σr_i² (r_i the standardised residual) in place of the
// log density, which is Σ log-normaliser - ½Σr_i², the normalisers'
// sum being constant.
func affineSigmasPosLoop(z, y, t, ci, gz []float64, a, b, mu0, inv0 float64) (rr, q0, sa, sb float64) {
	n := len(z)
	y, t, ci, gz = y[:n], t[:n], ci[:n], gz[:n]
	for i, zi := range z {
		ti := a + b*zi
		t[i] = ti
		c := ci[i]
		r := (y[i] - ti) * c
		rr += r * r
		d0 := zi - mu0
		q0 += d0 * d0
		_, d, _ := term.NormalGrad(y[i], ti, c)
		dz, _, _ := term.NormalGrad(zi, mu0, inv0)
		sa += d
		sb += d * zi
		gz[i] += d*b + dz
	}
	return rr, q0, sa, sb
}

// affineLean is the leaf form of a kAffineNormal with a σ per element and
// z's prior absorbed (the non-centred hierarchy as models write it), whose
// forwardGrad is the all-σ-positive loop alone: a function with few live
// values, so that its setup does not spill them around the loop. It falls
// back to kAffineNormal.forwardGrad (same values) when a σ_i or σ₀ is not
// positive, or before the per-frame sums are filled.
type affineLean struct{ *kAffineNormal }

// leanApplies reports whether k can run as affineLean: a σ per element,
// an absorbed prior, a gradient in z and no output of mul to write.
func (k *kAffineNormal) leanApplies() bool {
	return k.ns != 1 && k.prior != nil && k.gz && !k.writeM
}

func (l affineLean) ForwardGrad(f *ir.Frame) {
	k := l.kAffineNormal
	v, adj, n := f.V, f.Adj, k.n
	sums := f.Private()[k.memo+3+n : k.memo+5+n]
	c0 := (*[3]float64)(f.Private()[k.prior.memo:])
	if s0 := v[k.psig]; sums[1] != 1 || !(s0 > 0) || c0[0] != s0 {
		k.ForwardGrad(f)
		return
	}
	mu0, inv0 := v[k.pmu], c0[2]
	a, b := v[k.a], v[k.b]
	z := f.Val(k.zID)[:n]
	y, t, gz := f.Val(k.yID)[:n], v[k.t:k.t+n], adj[k.z:k.z+n]
	ci := f.Private()[k.cache+1+n : k.cache+1+2*n]
	// affineSigmasPosLoop, inlined by hand: the call cost eight schools
	// 3% of its gradient (ModelRatio 1.39 inlined, 1.44 called, idle).
	var rr, q0, sa, sb float64
	for i, zi := range z {
		ti := a + b*zi
		t[i] = ti
		c := ci[i]
		r := (y[i] - ti) * c
		rr += r * r
		d0 := zi - mu0
		q0 += d0 * d0
		_, d, _ := term.NormalGrad(y[i], ti, c)
		dz, _, _ := term.NormalGrad(zi, mu0, inv0)
		sa += d
		sb += d * zi
		gz[i] += d*b + dz
	}
	tot := sums[0] - 0.5*rr
	if tot != tot {
		tot = negInf
	}
	v[k.out] = tot
	v[k.pout] = finite(normalSquares(q0, inv0, c0[1], n))
	if k.ga {
		adj[k.a] += sa
	}
	if k.gb {
		adj[k.b] += sb
	}
}
