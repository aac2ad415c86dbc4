package ir

import (
	"math"

	"github.com/gobayes/gobayes/accel/dense"
)

// The execution plan: how a Frame runs a program on the CPU. Finalize
// derives it from the instructions without changing them — Program.Instrs,
// the ops' semantics and their Scratch layouts stay exactly what other
// backends (code generators, the lockstep evaluator) read. The plan only
// replaces, for this interpreter, some instructions or short chains of
// them by fused kernels that compute the same values with fewer passes,
// fewer transcendental calls and no dispatch between the chain's links:
//
//   - kScalePrior: normal, half-normal or half-Cauchy log density with a
//     scale that carries no gradient (a prior's constant scale): log σ and
//     1/σ are memoised per frame instead of taken on every evaluation.
//   - kGammaPrior: a gamma log density whose shape and rate carry no
//     gradient, with lgamma(α) and log β memoised.
//   - kAffineNormal (plan_affine.go): normal_lpdf(y | a + b·z, σ) written
//     as mul → add → normal_lpdf — the non-centred parameterisation of a
//     hierarchical model (eight schools' theta = mu + tau·theta_tilde) —,
//     one loop forward and one backward, no adjoint of the intermediate.
//     When z has a normal prior with constant mean and scale (z ~ N(0, 1),
//     the usual companion of that parameterisation) the prior is absorbed
//     and computed in the same loops. With a σ per element and the prior,
//     its leaf form is affineLean: the all-σ-positive loop in a function
//     of its own, which keeps few values live (the general one spills).
//   - kTermSum (plan_sum.go): the addn of log-density terms with the
//     constant-scale priors among its terms (kScalePrior kernels only it
//     reads) evaluated in place, scalar ones without loops: a model's
//     priors cost one step, not one each.
//   - kRegressionNormal: normal_lpdf(y | X·β, σ) written as
//     matvec → normal_lpdf with data X and y and one σ: the residuals are
//     kept and the gradient in β is Xᵀr/σ², as a hand-written regression
//     does, without the adjoint of X·β.
//   - kLowerMatVec: matvec(L, v) with L a Cholesky factor works on the
//     lower triangle only (the registered op when v is not finite).
//   - kGPCholesky: cholesky(add_diag(cov_exp_quad(x, α, ρ), δ)) with data
//     x and δ, the covariance built straight into the factorisation's
//     input (lower triangle only) and the reverse sweep going from the
//     factor's adjoint to α and ρ without the intermediate adjoints.
//   - kBoundPair: a lower (upper) bound and its log-Jacobian on the same
//     inputs, in one pass. A bound of one scalar (a positive scalar
//     parameter, τ = exp(u)) Gradient runs without dispatch: forward
//     through a direct call of scalarForward (inlining it by hand measured
//     slower: more values live in Gradient), backward inline.
//   - kHMMScan (plan_hmm.go): a scan running an HMM's forward algorithm
//     with normal emissions, as one loop over the steps.
//
// A fused kernel writes every value of the chain it replaces (so outputs
// read after Forward are unchanged); it does not fill the adjoints of the
// intermediate values, which no caller reads. Instructions it absorbs are
// marked skipped. Results agree with the instruction-by-instruction run up
// to rounding (the sums are associated differently); Frame.Unfused runs
// the plain instructions instead, for checking.
//
// Leaves. A log density is a sum of terms, and in Gradient the adjoint of
// a term that only the target sum reads is exactly 1 before the reverse
// sweep starts. A term kernel (termKernel: kAffineNormal, kTermSum) whose
// outputs are such terms is a leaf (markLeaves): in Gradient it runs
// forwardGrad, its value and its gradient in one pass, adding into the
// adjoints of its inputs as it goes, and the reverse sweep skips it. This
// is sound because Gradient clears the adjoints the leaves add into before
// the forward pass (the others after it, see plannedClears) and a value's
// adjoint is only read, by its producer's backward, in the reverse sweep,
// after every reader has added to it. For a small model such as eight
// schools the reverse sweep is then only the bound of tau, and the
// forward pass is one loop over the schools, as in hand-written code.
// Forward (no gradient) runs the kernels' plain forward; both give the
// same log density.
//
// Calls cost as much as arithmetic at this scale (Go saves every live
// register around a call): the hot paths of kTermSum and kAffineNormal
// write small helpers (memoScale, normalFromSquares) out by hand, and
// Frame.Gradient runs the planned sweeps itself, over a forward list and
// a reverse list (Program.rsteps) holding only the steps with a gradient
// to pass on; when every step is a kernel (Program.kernelsOnly: a small
// model, such as eight schools: bound, likelihood, sum of priors) it runs
// gradientKernels, the same sweeps without the cases that cannot occur
// and with few values live across the kernels' calls. Work that depends on data only is done once per frame:
// kAffineNormal with a σ per element keeps Σ log σ_i-normalisers and
// whether every σ_i > 0, and then sums only the squared residuals; a leaf
// kTermSum does not write the adjoints of terms nobody reads (those of
// other leaves).

// kernel is a fused replacement of one instruction (and of the skipped
// instructions feeding it).
type kernel interface {
	forward(f *Frame)
	backward(f *Frame)
}

// termKernel is a kernel whose outputs are terms of the log density: it
// can run forward and backward in one pass when each output's adjoint is
// known to be 1 before the reverse sweep starts (see leaf below).
type termKernel interface {
	kernel
	// forwardGrad is forward then backward with the adjoint of every
	// output in termOuts taken as 1, in fewer passes.
	forwardGrad(f *Frame)
	// termOuts are the offsets of the outputs whose adjoints backward
	// reads.
	termOuts() []int
	// adjWrites are the slot ranges of the adjoints forwardGrad adds into.
	adjWrites() [][2]int
}

// planStep is the plan of one instruction: run it as registered (k nil,
// !skip), through kernel k, or not at all (absorbed by a later kernel).
type planStep struct {
	k    kernel
	skip bool
	// adjRead marks a skipped instruction whose output's adjoint the
	// absorbing kernel reads (so Gradient must still clear it).
	adjRead bool
	// leaf marks a termKernel whose outputs' adjoints are 1 in every
	// Gradient: it runs forwardGrad and is left out of the reverse sweep.
	leaf bool
}

// planOp is one entry of Program.steps: a kernel, a scalar fast-path
// instruction, or an instruction run through its registered semantics;
// grad says whether the reverse sweep visits it. leaf is set (and grad
// not) for a kernel that adds its gradient as it runs forward.
type planOp struct {
	k    kernel
	leaf termKernel
	fast *fastInstr
	in   *Instr
	grad bool
	// bound is set for a kBoundPair of one scalar with a gradient in x,
	// which Gradient runs without dispatch (scalarForward, scalarBackward).
	bound *kBoundPair
}

// planOps lists the steps of p's plan (nil without a plan).
func planOps(p *Program) []planOp {
	if p.plan == nil {
		return nil
	}
	var ops []planOp
	for i := range p.Instrs {
		st := &p.plan[i]
		if st.skip {
			continue
		}
		in := &p.Instrs[i]
		op := planOp{k: st.k, in: in, grad: p.Values[in.Out].Grad}
		if st.leaf {
			op.leaf, op.grad = st.k.(termKernel), false
			if ak, ok := st.k.(*kAffineNormal); ok && ak.leanApplies() {
				op.leaf = affineLean{ak}
			}
		}
		if b, ok := st.k.(*kBoundPair); ok && b.n == 1 && b.nb == 1 && b.gx {
			op.bound = b
		}
		if st.k == nil && len(p.fast) == len(p.Instrs) && p.fast[i].op != OpNop {
			op.fast = &p.fast[i]
		}
		ops = append(ops, op)
	}
	return ops
}

// kernelsOnly reports whether every step of p's plan runs a kernel (or a
// scalar bound inline) and p has a target: Gradient's short path.
func kernelsOnly(p *Program) bool {
	if p.Target == None || len(p.steps) == 0 {
		return false
	}
	for _, st := range p.steps {
		if st.k == nil {
			return false
		}
	}
	return true
}

// reverseOps are the steps of ops with grad set, last first.
func reverseOps(ops []planOp) []planOp {
	var r []planOp
	for i := len(ops) - 1; i >= 0; i-- {
		if ops[i].grad {
			r = append(r, ops[i])
		}
	}
	return r
}

// buildPlan returns the plan of p and the number of private per-frame
// slots its kernels need, or nil when no instruction is fused. Scan bodies
// (programs with Inputs) are not planned.
func buildPlan(p *Program) ([]planStep, int) {
	if len(p.Inputs) > 0 || len(p.Instrs) == 0 {
		return nil, 0
	}
	// uses counts, per slot offset, the instructions reading a value that
	// starts there (reshaped views share their source's offset), plus one
	// for the target and each output that is not a fused chain's own.
	uses := map[int]int{}
	for i := range p.Instrs {
		for _, a := range p.Instrs[i].In {
			uses[p.Values[a].Off]++
		}
	}
	if p.Target != None {
		uses[p.Values[p.Target].Off]++
	}
	// lastRead maps an offset to the last instruction reading it.
	lastRead := map[int]int{}
	for i := range p.Instrs {
		for _, a := range p.Instrs[i].In {
			lastRead[p.Values[a].Off] = i
		}
	}
	// producer maps an output's offset to its instruction.
	// (Empty values are left out: their offset is the next value's.)
	producer := map[int]int{}
	for i := range p.Instrs {
		if v := &p.Values[p.Instrs[i].Out]; v.Len > 0 {
			producer[v.Off] = i
		}
	}
	var plan []planStep
	priv := 0
	set := func(i int, k kernel, absorbed ...int) {
		if plan == nil {
			plan = make([]planStep, len(p.Instrs))
		}
		plan[i].k = k
		for _, j := range absorbed {
			plan[j].k, plan[j].skip = nil, true
		}
	}
	// only reports that value id is produced by an instruction with op
	// among ops whose output only instruction `by` reads, and returns it.
	only := func(id ID, by int, ops ...Op) (int, bool) {
		v := &p.Values[id]
		j, ok := producer[v.Off]
		if !ok || v.Len == 0 || j >= by || uses[v.Off] != 1 || p.Values[p.Instrs[j].Out].Len != v.Len {
			return 0, false
		}
		if plan != nil && (plan[j].k != nil || plan[j].skip) {
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
		if isPointwise(in) && in.Op != OpScan {
			continue
		}
		switch in.Op {
		case OpLowerFwd, OpUpperFwd:
			if j, ok := boundLogJ(p, i); ok && (plan == nil || !plan[j].skip && plan[j].k == nil) {
				sign := 1.0
				if in.Op == OpUpperFwd {
					sign = -1
				}
				set(i, newBoundPair(p, in, &p.Instrs[j], sign), j)
				plan[j].adjRead = true
			}
		case OpScan:
			if k, ok := hmmScan(p, i, &priv); ok {
				set(i, k)
			}
		case OpCholesky:
			if k, ja, jk, ok := gpCholesky(p, i, only); ok {
				set(i, k, ja, jk)
				plan[ja].adjRead = true
			}
		case OpMatVec:
			if k, ok := lowerMatVec(p, i, producer, &priv); ok {
				set(i, k)
			}
		case OpNormalLPDF:
			if k, absorbed, ok := affineNormal(p, plan, i, only, uses, lastRead, &priv); ok {
				set(i, k, absorbed...)
				continue
			}
			if k, j, ok := regressionNormal(p, i, only, &priv); ok {
				set(i, k, j)
				continue
			}
			if p.Values[in.In[1]].Len == 1 && scaleIsData(p, in.In[2]) {
				set(i, newScalePrior(p, in, alloc(&priv, 3)))
			}
		case OpAddN:
			if k, absorbed, ok := termSum(p, plan, i, uses, producer); ok {
				set(i, k, absorbed...)
			}
		case OpGammaLPDF:
			if in.Scratch == None && scaleIsData(p, in.In[1]) && scaleIsData(p, in.In[2]) {
				set(i, &kGammaPrior{in: in, memo: alloc(&priv, 4)})
			}
		case OpHalfNormalLPDF, OpHalfCauchyLPDF:
			if scaleIsData(p, in.In[1]) {
				set(i, newScalePrior(p, in, alloc(&priv, 3)))
			}
		}
	}
	markLeaves(p, plan, uses, producer)
	return plan, priv
}

// markLeaves marks the term kernels of plan whose outputs' adjoints are 1
// in every Gradient: the target when nothing else reads it (Gradient
// seeds its adjoint with 1), and, when the target is an addn, the terms
// only it reads (addn passes its adjoint on unchanged). Their gradients
// can then be added as they run forward: an adjoint is complete once
// every reader of the value has run, and a term's only reader is the
// target. Gradient clears the adjoints before the forward pass for this.
func markLeaves(p *Program, plan []planStep, uses, producer map[int]int) {
	if plan == nil || p.Target == None {
		return
	}
	toff := p.Values[p.Target].Off
	it, ok := producer[toff]
	if !ok || uses[toff] != 1 {
		return
	}
	unit := map[int]bool{toff: true}
	if p.Instrs[it].Op == OpAddN {
		for _, a := range p.Instrs[it].In {
			if off := p.Values[a].Off; uses[off] == 1 {
				unit[off] = true
			}
		}
	}
	unread := map[int]bool{} // the leaves' terms: their adjoints are never read
	for i := range plan {
		tk, ok := plan[i].k.(termKernel)
		if !ok || plan[i].skip {
			continue
		}
		all := true
		for _, off := range tk.termOuts() {
			all = all && unit[off]
		}
		plan[i].leaf = all
		if all {
			for _, off := range tk.termOuts() {
				unread[off] = true
			}
		}
	}
	for i := range plan {
		if ts, ok := plan[i].k.(*kTermSum); ok && plan[i].leaf {
			ts.readTerms = nil
			for _, t := range ts.gterms {
				if !unread[t] {
					ts.readTerms = append(ts.readTerms, t)
				}
			}
		}
	}
}

// absorbedSlots are the offsets of the outputs of absorbed instructions
// (and of their reshaped views, which share the offset): their adjoints are
// neither written nor read by a planned reverse sweep.
func absorbedSlots(p *Program) map[int]bool {
	m := map[int]bool{}
	for i, st := range p.plan {
		if st.skip && !st.adjRead {
			m[p.Values[p.Instrs[i].Out].Off] = true
		}
	}
	return m
}

// isOutput reports whether value id, or a view of it, is a named output.
func isOutput(p *Program, id ID) bool {
	off := p.Values[id].Off
	for _, o := range p.Outputs {
		if p.Values[o.ID].Off == off {
			return true
		}
	}
	return false
}

// scaleIsData reports a scalar scale that carries no gradient.
func scaleIsData(p *Program, id ID) bool {
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
func (f *Frame) memoLog(m int, s float64) float64 {
	if f.priv[m] != s {
		f.priv[m], f.priv[m+1] = s, math.Log(s)
	}
	return f.priv[m+1]
}

// memoScale is log s and 1/s, remembered in the private slots m..m+2 of
// f: a scale that is data changes seldom, and a division costs as much as
// the rest of a scalar prior.
func (f *Frame) memoScale(m int, s float64) (logS, inv float64) {
	c := (*[3]float64)(f.priv[m:])
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
	in *Instr
	// Slot offsets in the frame (a planned program is never a scan body,
	// so its values stay in place), read once here rather than through
	// Frame.Val on every evaluation: the variate y (n slots), μ (normal
	// only), σ and the output; and whether y and μ carry gradients.
	op                 Op
	y, n, mu, sig, out int
	gy, gmu            bool
	memo               int
}

// newScalePrior resolves the slots of instruction in.
func newScalePrior(p *Program, in *Instr, memo int) *kScalePrior {
	y := &p.Values[in.In[0]]
	k := &kScalePrior{in: in, op: in.Op, y: y.Off, n: y.Len, out: p.Values[in.Out].Off, gy: y.Grad, memo: memo}
	if in.Op == OpNormalLPDF {
		mu := &p.Values[in.In[1]]
		k.mu, k.gmu, k.sig = mu.Off, mu.Grad, p.Values[in.In[2]].Off
	} else {
		k.sig = p.Values[in.In[1]].Off
	}
	return k
}

func (k *kScalePrior) forward(f *Frame) { f.V[k.out] = k.eval(f) }

// eval is the log density (the registered forward's value).
func (k *kScalePrior) eval(f *Frame) float64 {
	v := f.V
	y, s := v[k.y:k.y+k.n], v[k.sig]
	if !(s > 0) {
		return negInf
	}
	switch k.op {
	case OpNormalLPDF:
		mu := v[k.mu]
		q := 0.0
		for _, yi := range y {
			d := yi - mu
			q += d * d
		}
		return k.normalFromSquares(f, q)
	case OpHalfNormalLPDF:
		ls, inv := f.memoScale(k.memo, s)
		c := ln2 - ls - lnSqrt2Pi
		t := 0.0
		for _, yi := range y {
			e := negInf
			if yi >= 0 {
				z := yi * inv
				e = c - 0.5*z*z
			}
			if e != e {
				e = negInf
			}
			t += e
		}
		return t
	case OpHalfCauchyLPDF:
		ls, inv := f.memoScale(k.memo, s)
		c := ln2 - lnPi - ls
		t := 0.0
		for _, yi := range y {
			e := negInf
			if yi >= 0 {
				z := yi * inv
				e = c - math.Log1p(z*z)
			}
			if e != e {
				e = negInf
			}
			t += e
		}
		return t
	}
	return 0
}

// evalGrad is eval followed by grad(f, 1), in one pass over y: the same
// arithmetic, so the same values.
func (k *kScalePrior) evalGrad(f *Frame) float64 {
	v, adj := f.V, f.Adj
	y, s := v[k.y:k.y+k.n], v[k.sig]
	if !(s > 0) {
		return negInf
	}
	c := (*[3]float64)(f.priv[k.memo:])
	if c[0] != s {
		setScale(c, s)
	}
	ls, inv := c[1], c[2] // memoScale, inlined by hand
	ay := adj[k.y : k.y+k.n]
	if !k.gy {
		ay = nil
	}
	switch k.op {
	case OpNormalLPDF:
		mu := v[k.mu]
		q, am := 0.0, 0.0
		if ay != nil {
			ay = ay[:len(y)]
			for i, yi := range y {
				d := yi - mu
				q += d * d
				t := inv * (d * inv)
				ay[i] -= t
				am += t
			}
		} else {
			for _, yi := range y {
				d := yi - mu
				q += d * d
				am += inv * (d * inv)
			}
		}
		if k.gmu {
			adj[k.mu] += am
		}
		e := -0.5*(q*inv)*inv - float64(k.n)*(ls+lnSqrt2Pi)
		if e != e {
			e = negInf
		}
		return e
	case OpHalfNormalLPDF:
		c := ln2 - ls - lnSqrt2Pi
		t := 0.0
		for i, yi := range y {
			e := negInf
			if yi >= 0 {
				z := yi * inv
				e = c - 0.5*z*z
				if ay != nil {
					ay[i] += -z * inv
				}
			}
			if e != e {
				e = negInf
			}
			t += e
		}
		return t
	case OpHalfCauchyLPDF:
		c := ln2 - lnPi - ls
		t := 0.0
		for i, yi := range y {
			e := negInf
			if yi >= 0 {
				z := yi * inv
				u := 1 + z*z
				e = c - math.Log1p(z*z)
				if ay != nil {
					ay[i] += -2 * z * (inv / u)
				}
			}
			if e != e {
				e = negInf
			}
			t += e
		}
		return t
	}
	return 0
}

// normalFromSquares is the normal log density from q = Σ(y_i-μ)².
func (k *kScalePrior) normalFromSquares(f *Frame, q float64) float64 {
	s := f.V[k.sig]
	if !(s > 0) {
		return negInf
	}
	ls, inv := f.memoScale(k.memo, s)
	e := -0.5*(q*inv)*inv - float64(k.n)*(ls+lnSqrt2Pi)
	if e != e {
		e = negInf
	}
	return e
}

// backward is the registered backward specialised to a scale without
// gradient: the same arithmetic, without the strides and accumulators of
// the general case.
func (k *kScalePrior) backward(f *Frame) { k.grad(f, f.Adj[k.out]) }

// grad adds g times the gradient of the log density into the adjoints.
func (k *kScalePrior) grad(f *Frame, g float64) {
	v, adj := f.V, f.Adj
	y, s := v[k.y:k.y+k.n], v[k.sig]
	if !(s > 0) {
		return
	}
	var ay []float64
	if k.gy {
		ay = adj[k.y : k.y+k.n]
	}
	_, inv := f.memoScale(k.memo, s)
	switch k.op {
	case OpNormalLPDF:
		mu := v[k.mu]
		r := g * inv
		am := 0.0
		for i, yi := range y {
			t := r * ((yi - mu) * inv)
			if ay != nil {
				ay[i] -= t
			}
			am += t
		}
		if k.gmu {
			adj[k.mu] += am
		}
	case OpHalfNormalLPDF:
		if ay == nil {
			return
		}
		for i, yi := range y {
			if yi >= 0 {
				z := yi * inv
				ay[i] += -g * z * inv
			}
		}
	case OpHalfCauchyLPDF:
		if ay == nil {
			return
		}
		for i, yi := range y {
			if yi >= 0 {
				z := yi * inv
				r := g * inv / (1 + z*z)
				ay[i] += -2 * z * r
			}
		}
	}
}

// only is buildPlan's test for an absorbable producer.
type onlyFunc func(id ID, by int, ops ...Op) (int, bool)

// regressionNormal matches normal_lpdf(y, matvec(X, β), σ) with X and y
// carrying no gradient, σ a scalar, and matvec working X by columns.
func regressionNormal(p *Program, i int, only onlyFunc, priv *int) (kernel, int, bool) {
	in := &p.Instrs[i]
	y, mu, sg := &p.Values[in.In[0]], &p.Values[in.In[1]], &p.Values[in.In[2]]
	n := mu.Len
	if n < 2 || y.Grad || y.Len != n || sg.Len != 1 {
		return nil, 0, false
	}
	j, ok := only(in.In[1], i, OpMatVec)
	if !ok {
		return nil, 0, false
	}
	mv := &p.Instrs[j]
	if mv.Scratch == None || p.Values[mv.In[0]].Grad {
		return nil, 0, false
	}
	k := &kRegressionNormal{in: in, mv: mv, resid: alloc(priv, n+1), memo: alloc(priv, 2), writeMu: isOutput(p, mv.Out)}
	return k, j, true
}

// kRegressionNormal is Σ normal_lpdf(y_i | (X·β)_i, σ) with X data worked
// column by column (matvec's own scratch holds Xᵀ).
type kRegressionNormal struct {
	in, mv *Instr
	resid  int // n+1 private slots: y - X·β, then Σ(y - X·β)²
	memo   int
	// writeMu is set when X·β is an output: the kernel then writes it,
	// else it works on the residuals only.
	writeMu bool
}

func (k *kRegressionNormal) forward(f *Frame) {
	in, mv := k.in, k.mv
	y, mu, s := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2])[0]
	beta := f.Val(mv.In[1])
	n := len(mu)
	y = y[:n]
	// r = y - Σ_l β_l·X[:,l], as a hand-written regression does.
	at := transposedData(f, mv, f.Val(mv.In[0]), n, len(beta))
	r := f.priv[k.resid : k.resid+n]
	copy(r, y)
	for l, bl := range beta {
		dense.Axpy(r, -bl, at[l*n:(l+1)*n])
	}
	q := dense.Dot(r, r)
	f.priv[k.resid+n] = q
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
	inv := 1 / s
	e := -0.5*(q*inv)*inv - float64(n)*(f.memoLog(k.memo, s)+lnSqrt2Pi)
	if e != e {
		e = negInf
	}
	out[0] = e
}

func (k *kRegressionNormal) backward(f *Frame) {
	in := k.in
	s := f.Val(in.In[2])[0]
	if !(s > 0) {
		return
	}
	n := p0Len(f, in.In[1])
	r := f.priv[k.resid : k.resid+n]
	g := f.AdjOf(in.Out)[0]
	inv := 1 / s
	c := g * inv * inv
	beta := k.mv.In[1]
	if f.Grad(beta) {
		at := f.Val(k.mv.Scratch)[1:]
		gb := f.AdjOf(beta)
		for l := range gb {
			gb[l] += c * dense.Dot(at[l*n:(l+1)*n], r)
		}
	}
	if f.Grad(in.In[2]) {
		q := f.priv[k.resid+n]
		f.AdjOf(in.In[2])[0] += g * inv * ((q*inv)*inv - float64(n))
	}
}

func p0Len(f *Frame, id ID) int { return f.P.Values[id].Len }

// Fused is the number of instructions the interpreter runs through fused
// kernels (see plan.go), absorbed instructions not counted: 0 when p runs
// instruction by instruction.
func (p *Program) Fused() int {
	n := 0
	for _, st := range p.plan {
		if st.k != nil {
			n++
		}
	}
	return n
}

// lowerMatVec matches matvec(L, v) with L the output of a cholesky.
func lowerMatVec(p *Program, i int, producer map[int]int, priv *int) (kernel, bool) {
	in := &p.Instrs[i]
	l := &p.Values[in.In[0]]
	j, ok := producer[l.Off]
	if !ok || j >= i || p.Instrs[j].Op != OpCholesky || p.Values[p.Instrs[j].Out].Len != l.Len {
		return nil, false
	}
	return &kLowerMatVec{in: in, flag: alloc(priv, 1)}, true
}

// kLowerMatVec is matvec(L, v) for a lower-triangular L (a Cholesky
// factor, whose upper triangle is zero): y_i = Σ_{j≤i} L_ij·v_j. The
// adjoint of L's upper triangle, which the Cholesky's reverse sweep never
// reads, is not written. When v is not finite (0·∞ would make NaN) it runs
// the registered op; private slot flag says which ran.
type kLowerMatVec struct {
	in   *Instr
	flag int
}

func (k *kLowerMatVec) forward(f *Frame) {
	in := k.in
	l, v, y := f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.Out)
	n := len(v)
	for _, x := range v {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			f.priv[k.flag] = 0
			defs[OpMatVec].Forward(f, in)
			return
		}
	}
	f.priv[k.flag] = 1
	for i := range y {
		y[i] = dense.Dot(l[i*n:i*n+i+1], v)
	}
}

func (k *kLowerMatVec) backward(f *Frame) {
	in := k.in
	if f.priv[k.flag] != 1 {
		defs[OpMatVec].Backward(f, in)
		return
	}
	l, v, g := f.Val(in.In[0]), f.Val(in.In[1]), f.AdjOf(in.Out)
	n := len(v)
	if f.Grad(in.In[0]) {
		ga := f.AdjOf(in.In[0])
		for i, gi := range g {
			dense.Axpy(ga[i*n:i*n+i+1], gi, v)
		}
	}
	if f.Grad(in.In[1]) {
		gv := f.AdjOf(in.In[1])
		for i, gi := range g {
			dense.Axpy(gv, gi, l[i*n:i*n+i+1])
		}
	}
}

// boundLogJ finds the log-Jacobian instruction of bound instruction i:
// the later …LogJ of the same op family on the same inputs.
func boundLogJ(p *Program, i int) (int, bool) {
	in := &p.Instrs[i]
	want := OpLowerLogJ
	if in.Op == OpUpperFwd {
		want = OpUpperLogJ
	}
	for j := i + 1; j < len(p.Instrs); j++ {
		o := &p.Instrs[j]
		if o.Op == want && o.In[0] == in.In[0] && o.In[1] == in.In[1] {
			return j, true
		}
	}
	return 0, false
}

// kBoundPair is y = lb + exp(x) (ub - exp(x) with sign -1) and its
// log-Jacobian Σx, with exp(x) left in the bound's scratch as the
// registered op leaves it.
type kBoundPair struct {
	fwd, logJ *Instr
	sign      float64
	// Slot offsets: x (n slots), the bound b (nb slots, 1 or n), the
	// output y, exp(x) in the scratch, the log-Jacobian; gradient flags of
	// x and b.
	x, n, b, nb, y, e, lj int
	gx, gb                bool
}

// newBoundPair resolves the slots of a bound and its log-Jacobian.
func newBoundPair(p *Program, fwd, logJ *Instr, sign float64) *kBoundPair {
	x, b := &p.Values[fwd.In[0]], &p.Values[fwd.In[1]]
	return &kBoundPair{fwd: fwd, logJ: logJ, sign: sign,
		x: x.Off, n: p.Values[fwd.Out].Len, b: b.Off, nb: b.Len, y: p.Values[fwd.Out].Off,
		e: p.Values[fwd.Scratch].Off, lj: p.Values[logJ.Out].Off, gx: x.Grad, gb: b.Grad}
}

// scalarForward is forward for one scalar x and bound (n = nb = 1).
func (k *kBoundPair) scalarForward(v []float64) {
	xi := v[k.x]
	ei := Exp(xi)
	v[k.e] = ei
	v[k.y] = v[k.b] + k.sign*ei
	v[k.lj] = 0 + xi // the sum over one element, as forward's loops sum (+0 for -0)
}

// scalarBackward is backward for one scalar x and bound without gradient.
func (k *kBoundPair) scalarBackward(v, adj []float64) {
	adj[k.x] += adj[k.lj] + k.sign*adj[k.y]*v[k.e]
}

func (k *kBoundPair) forward(f *Frame) {
	v := f.V
	n := k.n
	if n == 1 && k.nb == 1 { // a scalar parameter: no loop
		k.scalarForward(v)
		return
	}
	x, y, e := v[k.x:k.x+n], v[k.y:k.y+n], v[k.e:k.e+n]
	s := 0.0
	if k.nb == 1 {
		b := v[k.b]
		for i, xi := range x {
			ei := Exp(xi)
			e[i] = ei
			y[i] = b + k.sign*ei
			s += xi
		}
	} else {
		b := v[k.b : k.b+n]
		for i, xi := range x {
			ei := Exp(xi)
			e[i] = ei
			y[i] = b[i] + k.sign*ei
			s += xi
		}
	}
	v[k.lj] = s
}

func (k *kBoundPair) backward(f *Frame) {
	v, adj := f.V, f.Adj
	n := k.n
	if n == 1 && k.nb == 1 {
		if k.gx {
			k.scalarBackward(v, adj)
		}
		if k.gb {
			adj[k.b] += 0 + adj[k.y] // as the loop's sum over one element
		}
		return
	}
	e, g := v[k.e:k.e+n], adj[k.y:k.y+n]
	if k.gx {
		gj := adj[k.lj]
		gx := adj[k.x : k.x+n]
		for i, gi := range g {
			gx[i] += gj + k.sign*gi*e[i]
		}
	}
	if k.gb {
		if k.nb == 1 {
			t := 0.0
			for _, gi := range g {
				t += gi
			}
			adj[k.b] += t
		} else {
			gb := adj[k.b : k.b+n]
			for i, gi := range g {
				gb[i] += gi
			}
		}
	}
}

// gpCholesky matches cholesky(add_diag(cov_exp_quad(x, α, ρ), δ)) at
// instruction i, x and δ carrying no gradient and neither intermediate an
// output; it returns the add_diag and cov_exp_quad instructions.
func gpCholesky(p *Program, i int, only onlyFunc) (kernel, int, int, bool) {
	in := &p.Instrs[i]
	ja, ok := only(in.In[0], i, OpAddDiag)
	if !ok || isOutput(p, p.Instrs[ja].Out) {
		return nil, 0, 0, false
	}
	ad := &p.Instrs[ja]
	jk, ok := only(ad.In[0], ja, OpCovExpQuad)
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
	in, ad, cov *Instr
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

func (k *kGPCholesky) forward(f *Frame) {
	cov := k.cov
	x := f.Val(cov.In[0])
	alpha, rho := f.Val(cov.In[1])[0], f.Val(cov.In[2])[0]
	a, l := f.Val(k.ad.Out), f.Val(k.in.Out)
	dg, sd := bval(f, k.ad.In[1])
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

func (k *kGPCholesky) backward(f *Frame) {
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
// no gradient and a variate that is not data: the registered forward with
// lgamma(α) and log β memoised in private slots memo..memo+3; the
// registered backward (which needs neither).
type kGammaPrior struct {
	in   *Instr
	memo int
}

func (k *kGammaPrior) forward(f *Frame) {
	in := k.in
	y, out := f.Val(in.In[0]), f.Val(in.Out)
	a, b := f.Val(in.In[1])[0], f.Val(in.In[2])[0]
	m := f.priv[k.memo : k.memo+4]
	if m[0] != a {
		m[0], m[1] = a, lgamma(a)
	}
	lga, lb := m[1], f.memoLog(k.memo+2, b)
	ok := a > 0 && b > 0
	t := 0.0
	for _, yi := range y {
		e := negInf
		if ok && yi > 0 {
			e = a*lb - lga + (a-1)*math.Log(yi) - b*yi
		}
		if e != e {
			e = negInf
		}
		t += e
	}
	out[0] = t
}

func (k *kGammaPrior) backward(f *Frame) { gammaBackward(f, k.in) }
