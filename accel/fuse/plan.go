package fuse

import (
	"math"

	"github.com/gobayes/gobayes/accel/dense"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/opdef"
	"github.com/gobayes/gobayes/accel/opdef/term"
)

// kernel is a fused replacement of one instruction (and of the skipped
// instructions feeding it).
type kernel = ir.Kernel

// termKernel is a kernel whose outputs are terms of the log density: it
// can run forward and backward in one pass when each output's adjoint is
// known to be 1 before the reverse sweep starts (see markLeaves).
type termKernel interface {
	ir.TermKernel
	// termOuts are the offsets of the outputs whose adjoints Backward
	// reads.
	termOuts() []int
}

// Plan is the Planner of model structures: it adds the kernels of this
// package to the steps of p (accel/ir's own already there) and marks the
// leaves. A compiler passes it to the builder (ir.Builder.SetPlanner);
// importing this package installs nothing.
func Plan(p *ir.Program, steps []ir.Step, priv int) int {
	// uses counts, per slot offset, the instructions reading a value that
	// starts there (reshaped views share their source's offset), plus one
	// for the target and each output that is not a fused chain's own.
	uses := map[int]int{}
	for i := range p.Instrs {
		for _, a := range p.Instrs[i].In {
			uses[p.Values[a].Off]++
		}
	}
	if p.Target != ir.None {
		uses[p.Values[p.Target].Off]++
	}
	// affine and linear hold the non-centred hierarchies and the
	// regressions by their normal_lpdf.
	affine := map[int]AffineNormal{}
	for _, m := range AffineNormals(p) {
		affine[m.Normal] = m
	}
	linear := map[int]LinearNormal{}
	for _, m := range LinearNormals(p) {
		linear[m.Normal] = m
	}
	// producer maps an output's offset to its instruction.
	// (Empty values are left out: their offset is the next value's.)
	producer := map[int]int{}
	for i := range p.Instrs {
		if v := &p.Values[p.Instrs[i].Out]; v.Len > 0 {
			producer[v.Off] = i
		}
	}
	set := func(i int, k kernel, absorbed ...int) {
		steps[i].Kernel = k
		for _, j := range absorbed {
			steps[j].Kernel, steps[j].Skip = nil, true
		}
	}
	// only reports that value id is produced by an instruction with op
	// among ops whose output only instruction `by` reads, and returns it.
	only := func(id ir.ID, by int, ops ...ir.Op) (int, bool) {
		v := &p.Values[id]
		j, ok := producer[v.Off]
		if !ok || v.Len == 0 || j >= by || uses[v.Off] != 1 || p.Values[p.Instrs[j].Out].Len != v.Len {
			return 0, false
		}
		if steps[j].Kernel != nil || steps[j].Skip {
			return 0, false
		}
		for _, op := range ops {
			if p.Instrs[j].Op == op {
				return j, true
			}
		}
		return 0, false
	}
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if ir.Pointwise(in) && in.Op != ir.OpScan {
			continue
		}
		switch in.Op {
		case ir.OpScan:
			if k, ok := hmmScan(p, i, &priv); ok {
				set(i, k)
			}
		case ir.OpCholesky:
			if k, ja, jk, ok := gpCholesky(p, i, only); ok {
				set(i, k, ja, jk)
				steps[ja].AdjRead = true
			}
		case ir.OpNormalLPDF:
			if m, ok := affine[i]; ok {
				if k, absorbed, ok := affineNormal(p, steps, m, &priv); ok {
					set(i, k, absorbed...)
					continue
				}
			}
			if m, ok := linear[i]; ok {
				if k, j, ok := regressionNormal(p, steps, m, &priv); ok {
					set(i, k, j)
					continue
				}
			}
			if p.Values[in.In[1]].Len == 1 && scaleIsData(p, in.In[2]) {
				set(i, newScalePrior(p, in, alloc(&priv, 3)))
			}
		case ir.OpAddN:
			if k, absorbed, ok := termSum(p, steps, i, uses, producer); ok {
				set(i, k, absorbed...)
			}
		case ir.OpGammaLPDF:
			if in.Scratch == ir.None && scaleIsData(p, in.In[1]) && scaleIsData(p, in.In[2]) {
				set(i, &kGammaPrior{in: in, memo: alloc(&priv, 4)})
			}
		case ir.OpHalfNormalLPDF, ir.OpHalfCauchyLPDF:
			if scaleIsData(p, in.In[1]) {
				set(i, newScalePrior(p, in, alloc(&priv, 3)))
			}
		}
	}
	markLeaves(p, steps, uses, producer)
	return priv
}

// markLeaves marks the term kernels of plan whose outputs' adjoints are 1
// in every Gradient: the target when nothing else reads it (Gradient
// seeds its adjoint with 1), and, when the target is an addn, the terms
// only it reads (addn passes its adjoint on unchanged). Their gradients
// can then be added as they run forward: an adjoint is complete once
// every reader of the value has run, and a term's only reader is the
// target. Gradient clears the adjoints before the forward pass for this.
func markLeaves(p *ir.Program, plan []ir.Step, uses, producer map[int]int) {
	if p.Target == ir.None {
		return
	}
	toff := p.Values[p.Target].Off
	it, ok := producer[toff]
	if !ok || uses[toff] != 1 {
		return
	}
	unit := map[int]bool{toff: true}
	if p.Instrs[it].Op == ir.OpAddN {
		for _, a := range p.Instrs[it].In {
			if off := p.Values[a].Off; uses[off] == 1 {
				unit[off] = true
			}
		}
	}
	unread := map[int]bool{} // the leaves' terms: their adjoints are never read
	for i := range plan {
		tk, ok := plan[i].Kernel.(termKernel)
		if !ok || plan[i].Skip {
			continue
		}
		all := true
		for _, off := range tk.termOuts() {
			all = all && unit[off]
		}
		if all {
			plan[i].Leaf = tk
			if ak, ok := tk.(*kAffineNormal); ok && ak.leanApplies() {
				plan[i].Leaf = affineLean{ak}
			}
			for _, off := range tk.termOuts() {
				unread[off] = true
			}
		}
	}
	for i := range plan {
		if ts, ok := plan[i].Kernel.(*kTermSum); ok && plan[i].Leaf != nil {
			ts.readTerms = nil
			for _, t := range ts.gterms {
				if !unread[t] {
					ts.readTerms = append(ts.readTerms, t)
				}
			}
		}
	}
}

// isOutput reports whether value id, or a view of it, is a named output.
func isOutput(p *ir.Program, id ir.ID) bool {
	off := p.Values[id].Off
	for _, o := range p.Outputs {
		if p.Values[o.ID].Off == off {
			return true
		}
	}
	return false
}

// scaleIsData reports a scalar scale that carries no gradient.
func scaleIsData(p *ir.Program, id ir.ID) bool {
	v := &p.Values[id]
	return v.Len == 1 && !v.Grad
}

// alloc reserves n private slots and returns their offset.
func alloc(priv *int, n int) int {
	off := *priv
	*priv += n
	return off
}

// memoLog is math.Log(s), remembered in the private slots m, m+1 of f.
func memoLog(f *ir.Frame, m int, s float64) float64 {
	c := f.Private()[m : m+2]
	if c[0] != s {
		c[0], c[1] = s, math.Log(s)
	}
	return c[1]
}

// memoScale is log s and 1/s, remembered in the private slots m..m+2 of
// f: a scale that is data changes seldom, and a division costs as much as
// the rest of a scalar prior.
func memoScale(f *ir.Frame, m int, s float64) (logS, inv float64) {
	c := (*[3]float64)(f.Private()[m:])
	if c[0] != s {
		setScale(c, s)
	}
	return c[1], c[2]
}

// setScale fills a scale memo (kept out of line so that memoScale
// inlines).
//
//go:noinline
func setScale(c *[3]float64, s float64) { c[0], c[1], c[2] = s, math.Log(s), 1/s }

// kScalePrior is a normal (scalar μ), half-normal or half-Cauchy log
// density, summed, whose scale σ carries no gradient: the registered
// forward with log σ memoised; the registered backward.
type kScalePrior struct {
	in *ir.Instr
	// Slot offsets in the frame (a planned program is never a scan body,
	// so its values stay in place), read once here rather than through
	// ir.Frame.Val on every evaluation: the variate y (n slots), μ (normal
	// only), σ and the output; and whether y and μ carry gradients. A
	// vector y may be a shared constant (data, outside the frame): it is
	// read through Frame.Val (yID); y is its offset for the scalar sums.
	op                 ir.Op
	y, n, mu, sig, out int
	yID                ir.ID
	gy, gmu            bool
	memo               int
}

// newScalePrior resolves the slots of instruction in.
func newScalePrior(p *ir.Program, in *ir.Instr, memo int) *kScalePrior {
	y := &p.Values[in.In[0]]
	k := &kScalePrior{in: in, op: in.Op, y: y.Off, yID: in.In[0], n: y.Len, out: p.Values[in.Out].Off, gy: y.Grad, memo: memo}
	if in.Op == ir.OpNormalLPDF {
		mu := &p.Values[in.In[1]]
		k.mu, k.gmu, k.sig = mu.Off, mu.Grad, p.Values[in.In[2]].Off
	} else {
		k.sig = p.Values[in.In[1]].Off
	}
	return k
}

func (k *kScalePrior) Forward(f *ir.Frame) { f.V[k.out] = k.eval(f) }

// eval is the log density (the registered forward's value). Each term
// is accel/opdef's formula (term.NormalValue, HalfNormalValue,
// HalfCauchyValue); a vector normal's sum is taken from the squares
// (normalFromSquares).
func (k *kScalePrior) eval(f *ir.Frame) float64 {
	v := f.V
	y, s := f.Val(k.yID), v[k.sig]
	if !(s > 0) {
		return negInf
	}
	switch k.op {
	case ir.OpNormalLPDF:
		mu := v[k.mu]
		if k.n == 1 {
			ls, inv := memoScale(f, k.memo, s)
			return finite(term.NormalValue(y[0], mu, ls, inv))
		}
		q := 0.0
		for _, yi := range y {
			d := yi - mu
			q += d * d
		}
		return k.normalFromSquares(f, q)
	case ir.OpHalfNormalLPDF:
		ls, inv := memoScale(f, k.memo, s)
		t := 0.0
		for _, yi := range y {
			e := negInf
			if yi >= 0 {
				e = finite(term.HalfNormalValue(yi, ls, inv))
			}
			t += e
		}
		return t
	case ir.OpHalfCauchyLPDF:
		ls, inv := memoScale(f, k.memo, s)
		t := 0.0
		for _, yi := range y {
			e := negInf
			if yi >= 0 {
				e = finite(term.HalfCauchyValue(yi, ls, inv))
			}
			t += e
		}
		return t
	}
	return 0
}

// finite is a term with NaN (from infinite inputs) as -Inf, as the
// registered ops count it.
func finite(e float64) float64 {
	if e != e {
		return negInf
	}
	return e
}

// evalGrad is eval followed by grad(f, 1), in one pass over y: the same
// arithmetic, so the same values.
func (k *kScalePrior) evalGrad(f *ir.Frame) float64 {
	v, adj := f.V, f.Adj
	y, s := f.Val(k.yID), v[k.sig]
	if !(s > 0) {
		return negInf
	}
	c := (*[3]float64)(f.Private()[k.memo:])
	if c[0] != s {
		setScale(c, s)
	}
	ls, inv := c[1], c[2] // memoScale, inlined by hand
	var ay []float64
	if k.gy {
		ay = adj[k.y : k.y+k.n]
	}
	switch k.op {
	case ir.OpNormalLPDF:
		mu := v[k.mu]
		if k.n == 1 {
			dy, dmu, _ := term.NormalGrad(y[0], mu, inv)
			if ay != nil {
				ay[0] += dy
			}
			if k.gmu {
				adj[k.mu] += dmu
			}
			return finite(term.NormalValue(y[0], mu, ls, inv))
		}
		q, am := 0.0, 0.0
		if ay != nil {
			ay = ay[:len(y)]
			for i, yi := range y {
				d := yi - mu
				q += d * d
				dy, dmu, _ := term.NormalGrad(yi, mu, inv)
				ay[i] += dy
				am += dmu
			}
		} else {
			for _, yi := range y {
				d := yi - mu
				q += d * d
				_, dmu, _ := term.NormalGrad(yi, mu, inv)
				am += dmu
			}
		}
		if k.gmu {
			adj[k.mu] += am
		}
		return finite(normalSquares(q, inv, ls, k.n))
	case ir.OpHalfNormalLPDF:
		t := 0.0
		for i, yi := range y {
			e := negInf
			if yi >= 0 {
				e = finite(term.HalfNormalValue(yi, ls, inv))
				if ay != nil {
					dy, _ := term.HalfNormalGrad(yi, inv)
					ay[i] += dy
				}
			}
			t += e
		}
		return t
	case ir.OpHalfCauchyLPDF:
		t := 0.0
		for i, yi := range y {
			e := negInf
			if yi >= 0 {
				e = finite(term.HalfCauchyValue(yi, ls, inv))
				if ay != nil {
					dy, _ := term.HalfCauchyGrad(yi, inv)
					ay[i] += dy
				}
			}
			t += e
		}
		return t
	}
	return 0
}

// normalFromSquares is the normal log density from q = Σ(y_i-μ)².
func (k *kScalePrior) normalFromSquares(f *ir.Frame, q float64) float64 {
	s := f.V[k.sig]
	if !(s > 0) {
		return negInf
	}
	ls, inv := memoScale(f, k.memo, s)
	return finite(normalSquares(q, inv, ls, k.n))
}

// normalSquares is Σ normal_lpdf(y_i | μ_i, σ) over n terms with one σ,
// from q = Σ(y_i-μ_i)², 1/σ and log σ: -½q/σ² plus n times the term at
// z = 0 (accel/opdef's NormalValue with y = μ and 1/σ = 0, so that a
// σ whose inverse overflows gives no 0·∞: -log σ - log √(2π), to the
// bit). The sum of the terms' -½z² is the one algebraic step the formulas
// cannot say (as accel/ir's normalSum shortcut); TestNormalSquares checks
// it against the terms.
func normalSquares(q, inv, ls float64, n int) float64 {
	return -0.5*(q*inv)*inv + float64(n)*term.NormalValue(0, 0, ls, 0)
}

// backward is the registered backward specialised to a scale without
// gradient: the same arithmetic, without the strides and accumulators of
// the general case.
func (k *kScalePrior) Backward(f *ir.Frame) { k.grad(f, f.Adj[k.out]) }

// grad adds g times the gradient of the log density into the adjoints.
func (k *kScalePrior) grad(f *ir.Frame, g float64) {
	v, adj := f.V, f.Adj
	y, s := f.Val(k.yID), v[k.sig]
	if !(s > 0) {
		return
	}
	var ay []float64
	if k.gy {
		ay = adj[k.y : k.y+k.n]
	}
	_, inv := memoScale(f, k.memo, s)
	switch k.op {
	case ir.OpNormalLPDF:
		mu := v[k.mu]
		am := 0.0
		for i, yi := range y {
			dy, dmu, _ := term.NormalGrad(yi, mu, inv)
			if ay != nil {
				ay[i] += g * dy
			}
			am += g * dmu
		}
		if k.gmu {
			adj[k.mu] += am
		}
	case ir.OpHalfNormalLPDF:
		if ay == nil {
			return
		}
		for i, yi := range y {
			if yi >= 0 {
				dy, _ := term.HalfNormalGrad(yi, inv)
				ay[i] += g * dy
			}
		}
	case ir.OpHalfCauchyLPDF:
		if ay == nil {
			return
		}
		for i, yi := range y {
			if yi >= 0 {
				dy, _ := term.HalfCauchyGrad(yi, inv)
				ay[i] += g * dy
			}
		}
	}
}

// only is buildPlan's test for an absorbable producer.
type onlyFunc func(id ir.ID, by int, ops ...ir.Op) (int, bool)

// regressionNormal is the kernel of match m (see LinearNormal) when the
// mean is one matvec, not already planned, that works X by columns (over
// the program's Xᵀ, ir.Transposed).
func regressionNormal(p *ir.Program, plan []ir.Step, m LinearNormal, priv *int) (kernel, int, bool) {
	if len(m.Terms) != 1 || m.Terms[0].Instr < 0 || p.Instrs[m.Terms[0].Instr].Op != ir.OpMatVec {
		return nil, 0, false
	}
	j := m.Terms[0].Instr
	mv := &p.Instrs[j]
	if mv.Scratch == ir.None || plan[j].Kernel != nil || plan[j].Skip {
		return nil, 0, false
	}
	in := &p.Instrs[m.Normal]
	n := p.Values[in.In[1]].Len
	k := &kRegressionNormal{in: in, mv: mv, resid: alloc(priv, n+1), memo: alloc(priv, 2), writeMu: m.MeanOut}
	return k, j, true
}

// kRegressionNormal is Σ normal_lpdf(y_i | (X·β)_i, σ) with X data worked
// column by column (over the program's Xᵀ, ir.Transposed).
type kRegressionNormal struct {
	in, mv *ir.Instr
	resid  int // n+1 private slots: y - X·β, then Σ(y - X·β)²
	memo   int
	// writeMu is set when X·β is an output: the kernel then writes it,
	// else it works on the residuals only.
	writeMu bool
}

func (k *kRegressionNormal) Forward(f *ir.Frame) {
	in, mv := k.in, k.mv
	y, mu, s := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])[0]
	beta := f.Val(mv.In[1])
	n := len(mu)
	y = y[:n]
	// r = y - Σ_l β_l·X[:,l], as a hand-written regression does.
	at := ir.Transposed(f, mv)
	r := f.Private()[k.resid : k.resid+n]
	copy(r, y)
	for l, bl := range beta {
		dense.Axpy(r, -bl, at[l*n:(l+1)*n])
	}
	q := dense.Dot(r, r)
	f.Private()[k.resid+n] = q
	if k.writeMu {
		for i, v := range y {
			mu[i] = v - r[i]
		}
	}
	out := f.Val(in.Out)
	if !(s > 0) {
		out[0] = negInf
		return
	}
	out[0] = finite(normalSquares(q, 1/s, memoLog(f, k.memo, s), n))
}

func (k *kRegressionNormal) Backward(f *ir.Frame) {
	in := k.in
	s := f.Val(in.In[2])[0]
	if !(s > 0) {
		return
	}
	n := p0Len(f, in.In[1])
	r := f.Private()[k.resid : k.resid+n]
	g := f.AdjOf(in.Out)[0]
	inv := 1 / s
	c := g * inv * inv
	beta := k.mv.In[1]
	if f.Grad(beta) {
		at := ir.Transposed(f, k.mv)
		gb := f.AdjOf(beta)
		for l := range gb {
			gb[l] += c * dense.Dot(at[l*n:(l+1)*n], r)
		}
	}
	if f.Grad(in.In[2]) {
		q := f.Private()[k.resid+n]
		f.AdjOf(in.In[2])[0] += g * inv * ((q*inv)*inv - float64(n))
	}
}

func p0Len(f *ir.Frame, id ir.ID) int { return f.P.Values[id].Len }

// gpCholesky matches cholesky(add_diag(cov_exp_quad(x, α, ρ), δ)) at
// instruction i, x and δ carrying no gradient and neither intermediate an
// output; it returns the add_diag and cov_exp_quad instructions.
func gpCholesky(p *ir.Program, i int, only onlyFunc) (kernel, int, int, bool) {
	in := &p.Instrs[i]
	ja, ok := only(in.In[0], i, ir.OpAddDiag)
	if !ok || isOutput(p, p.Instrs[ja].Out) {
		return nil, 0, 0, false
	}
	ad := &p.Instrs[ja]
	jk, ok := only(ad.In[0], ja, ir.OpCovExpQuad)
	if !ok || isOutput(p, p.Instrs[jk].Out) || p.Values[ad.In[1]].Grad {
		return nil, 0, 0, false
	}
	cov := &p.Instrs[jk]
	if p.Values[cov.In[0]].Grad {
		return nil, 0, 0, false
	}
	return &kGPCholesky{in: in, ad: ad, cov: cov}, ja, jk, true
}

// kGPCholesky is the factor L of K + diag(δ), K_ij = α²exp(-|x_i-x_j|²/(2ρ²)).
// It writes K + δ (lower triangle and diagonal, all the factorisation
// reads) into add_diag's output and L as cholesky does; cov_exp_quad's
// output is not written. The reverse sweep leaves K's adjoint (lower
// triangle) in add_diag's adjoint and adds ∂/∂α, ∂/∂ρ as cov_exp_quad's
// reverse would.
type kGPCholesky struct {
	in, ad, cov *ir.Instr
}

// sqDist is |x_i - x_j|² for points of d coordinates.
func sqDist(x []float64, i, j, d int) float64 {
	s := 0.0
	for t := range d {
		e := x[i*d+t] - x[j*d+t]
		s += e * e
	}
	return s
}

func (k *kGPCholesky) Forward(f *ir.Frame) {
	cov := k.cov
	x := f.Val(cov.In[0])
	alpha, rho := f.Val(cov.In[1])[0], f.Val(cov.In[2])[0]
	a, l := f.Val(k.ad.Out), f.Val(k.in.Out)
	dg := f.Val(k.ad.In[1])
	sd := 0 // the stride of δ: 0 for one δ, 1 for one per row
	if len(dg) > 1 {
		sd = 1
	}
	n := f.P.Values[k.in.Out].Shape[0]
	d := len(x) / n
	a2, c := alpha*alpha, -0.5/(rho*rho)
	for i := range n {
		a[i*n+i] = a2 + dg[i*sd]
		for j := range i {
			a[i*n+j] = a2 * math.Exp(c*sqDist(x, i, j, d)) // math.Exp as gp_exp_quad_cov (linalg.go)
		}
	}
	if dense.Cholesky(a, l, n, 0) >= 0 {
		for i := range l {
			l[i] = math.NaN()
		}
	}
}

func (k *kGPCholesky) Backward(f *ir.Frame) {
	cov := k.cov
	n := f.P.Values[k.in.Out].Shape[0]
	l, lb, ga := f.Val(k.in.Out), f.AdjOf(k.in.Out), f.AdjOf(k.ad.Out)
	dense.CholeskyReverse(l, lb, ga, f.Val(k.in.Scratch), n)
	ga0, gr := f.Grad(cov.In[1]), f.Grad(cov.In[2])
	if !ga0 && !gr {
		return
	}
	x, a := f.Val(cov.In[0]), f.Val(k.ad.Out)
	alpha, rho := f.Val(cov.In[1])[0], f.Val(cov.In[2])[0]
	d := len(x) / n
	ir2 := 1 / (rho * rho)
	a2 := alpha * alpha
	var sa, sr float64 // Σ g·K and Σ g·K·|xi-xj|²
	for i := range n {
		sa += ga[i*n+i] * a2
		for j := range i {
			gk := ga[i*n+j] * a[i*n+j]
			sa += gk
			sr += gk * sqDist(x, i, j, d)
		}
	}
	if ga0 {
		f.AdjOf(cov.In[1])[0] += 2 * sa / alpha
	}
	if gr {
		f.AdjOf(cov.In[2])[0] += sr * ir2 / rho
	}
}

// kGammaPrior is Σ gamma_lpdf(y_i | α, β) with scalar α and β that carry
// no gradient and a variate that is not data: the generated term
// (term.GammaValue) with opdef.LGamma(α) and log β memoised in private
// slots memo..memo+3; the registered backward (which needs neither).
type kGammaPrior struct {
	in   *ir.Instr
	memo int
}

func (k *kGammaPrior) Forward(f *ir.Frame) {
	in := k.in
	y, out := f.Val(in.In[0]), f.Val(in.Out)
	a, b := f.Val(in.In[1])[0], f.Val(in.In[2])[0]
	m := f.Private()[k.memo : k.memo+4]
	if m[0] != a {
		m[0], m[1] = a, opdef.LGamma(a)
	}
	lga, lb := m[1], memoLog(f, k.memo+2, b)
	ok := a > 0 && b > 0
	t := 0.0
	for _, yi := range y {
		e := negInf
		if ok && yi > 0 {
			e = term.GammaValue(yi, a, b, lb, lga)
		}
		if e != e {
			e = negInf
		}
		t += e
	}
	out[0] = t
}

func (k *kGammaPrior) Backward(f *ir.Frame) { ir.Def(ir.OpGammaLPDF).Backward(f, k.in) }

var negInf = math.Inf(-1)

// gradOrNil is the adjoint of id, nil when id carries no gradient.
func gradOrNil(f *ir.Frame, id ir.ID) []float64 {
	if f.Grad(id) {
		return f.AdjOf(id)
	}
	return nil
}
