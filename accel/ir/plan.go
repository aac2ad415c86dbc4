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
// them by kernels that compute the same values with fewer passes and no
// dispatch between the chain's links.
//
// This package plans what belongs to single ops: a lower (upper) bound and
// its log-Jacobian on the same inputs in one pass (kBoundPair; a bound of
// one scalar runs in Gradient without dispatch), and matvec(L, v) with L a
// Cholesky factor over the lower triangle only (kLowerMatVec). Kernels
// that fuse the structures of models (a non-centred hierarchy, a
// regression likelihood, the sum of a model's priors, a Gaussian-process
// covariance, an HMM's forward algorithm) are package accel/fuse's
// (fuse.Plan): the compiler that builds a program passes it to the
// Builder (Builder.SetPlanner; ppl does), and it sees these steps already
// planned. Nothing is installed by importing a package: whether a program
// is fused is decided where it is built. A Frame runs the plan; without a
// Planner it runs this package's kernels only, with the same results.
//
// A kernel writes every value of the chain it replaces (so outputs read
// after Forward are unchanged); it does not fill the adjoints of the
// intermediate values, which no caller reads. Instructions it absorbs are
// marked Skip. Results agree with the instruction-by-instruction run up to
// rounding; Frame.Unfused runs the plain instructions instead, for
// checking.

// Kernel is a fused replacement of one instruction (and of the skipped
// instructions feeding it).
type Kernel interface {
	Forward(f *Frame)
	Backward(f *Frame)
}

// TermKernel is a kernel whose outputs are terms of the log density that
// only the target's sum reads, so that their adjoints are 1 in every
// Gradient: it runs ForwardGrad, its value and its gradient in one pass,
// and the reverse sweep skips it. Gradient clears the adjoints it adds
// into (AdjWrites) before the forward pass.
type TermKernel interface {
	Kernel
	// ForwardGrad is Forward then Backward with the adjoint of every
	// output taken as 1, in fewer passes.
	ForwardGrad(f *Frame)
	// AdjWrites are the slot ranges of the adjoints ForwardGrad adds into.
	AdjWrites() [][2]int
}

// Step is the plan of one instruction: run it as registered (Kernel nil,
// not Skip), through Kernel, or not at all (Skip: absorbed by a later
// kernel).
type Step struct {
	Kernel Kernel
	Skip   bool
	// AdjRead marks a skipped instruction whose output's adjoint the
	// absorbing kernel reads (so Gradient must still clear it).
	AdjRead bool
	// Leaf, when set, is how Gradient runs this step: ForwardGrad, and no
	// reverse step (see TermKernel).
	Leaf TermKernel
}

// A Planner adds kernels to a program's plan: steps has one entry per
// instruction, this package's own kernels already in place; private is
// the number of per-frame private slots (Frame.Private) they use. It
// returns the new number of private slots. Scan bodies (programs with
// Inputs) are not planned.
type Planner func(p *Program, steps []Step, private int) int

// SetPlanner makes pl the Planner that Finalize calls after this
// package's own kernels are planned (nil: none). The program remembers it
// was planned (Program.Planned), and that travels with it (GobEncode).
func (b *Builder) SetPlanner(pl Planner) { b.planner = pl }

// Planned reports whether p was built with a Planner. A program read by
// GobDecode keeps its sender's answer but runs with this package's
// kernels only until it is planned again (WithPlanner): the receiving
// process chooses its Planner (accel/cpu's backend passes accel/fuse's).
func (p *Program) Planned() bool { return p.planned }

// NeedsPlanner reports whether p was planned where it was built but has
// no Planner here (it was read by GobDecode): WithPlanner restores its
// fused kernels.
func (p *Program) NeedsPlanner() bool { return p.planned && p.planner == nil }

// WithPlanner returns a copy of p planned with pl (nil: this package's
// kernels only). The copy shares p's instructions, values and constants,
// which neither changes.
func (p *Program) WithPlanner(pl Planner) *Program {
	q := *p
	q.planner, q.planned = pl, pl != nil && len(p.Inputs) == 0
	q.derive()
	return &q
}

// Private is the frame's private memory of the plan's kernels (memoised
// data statistics, residuals), NaN when the frame is made.
func (f *Frame) Private() []float64 { return f.priv }

// buildPlan returns the plan of p and its number of private slots, or nil
// when no instruction is fused.
func buildPlan(p *Program, planner Planner) ([]Step, int) {
	if len(p.Inputs) > 0 || len(p.Instrs) == 0 {
		return nil, 0
	}
	steps := make([]Step, len(p.Instrs))
	priv := 0
	// producer maps an output's offset to its instruction (empty values
	// left out: their offset is the next value's).
	producer := map[int]int{}
	for i := range p.Instrs {
		if v := &p.Values[p.Instrs[i].Out]; v.Len > 0 {
			producer[v.Off] = i
		}
	}
	for i := range p.Instrs {
		in := &p.Instrs[i]
		switch in.Op {
		case OpLowerFwd, OpUpperFwd:
			if j, ok := boundLogJ(p, i); ok && !steps[j].Skip && steps[j].Kernel == nil {
				sign := 1.0
				if in.Op == OpUpperFwd {
					sign = -1
				}
				steps[i].Kernel = newBoundPair(p, in, &p.Instrs[j], sign)
				steps[j] = Step{Skip: true, AdjRead: true}
			}
		case OpMatVec:
			if k, ok := lowerMatVec(p, i, producer, &priv); ok {
				steps[i].Kernel = k
			}
		}
	}
	if planner != nil {
		priv = planner(p, steps, priv)
	}
	for _, st := range steps {
		if st.Kernel != nil || st.Skip {
			return steps, priv
		}
	}
	return nil, 0
}

// alloc reserves n private slots and returns their offset.
func alloc(priv *int, n int) int {
	off := *priv
	*priv += n
	return off
}

// planOp is one entry of Program.steps: a kernel, a scalar fast-path
// instruction, or an instruction run through its registered semantics;
// grad says whether the reverse sweep visits it. leaf is set (and grad
// not) for a kernel that adds its gradient as it runs forward.
type planOp struct {
	k    Kernel
	leaf TermKernel
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
		if st.Skip {
			continue
		}
		in := &p.Instrs[i]
		op := planOp{k: st.Kernel, in: in, grad: p.Values[in.Out].Grad}
		if st.Leaf != nil {
			op.leaf, op.grad = st.Leaf, false
		}
		if b, ok := st.Kernel.(*kBoundPair); ok && b.n == 1 && b.nb == 1 && b.gx {
			op.bound = b
		}
		if st.Kernel == nil && len(p.fast) == len(p.Instrs) && p.fast[i].op != OpNop {
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

// Fused is the number of instructions the interpreter runs through fused
// kernels (see plan.go and accel/fuse), absorbed instructions not counted: 0 when p runs
// instruction by instruction.
func (p *Program) Fused() int {
	n := 0
	for _, st := range p.plan {
		if st.Kernel != nil {
			n++
		}
	}
	return n
}

// Leaves is the number of steps of p's plan that add their gradient as
// they run forward (Step.Leaf).
func (p *Program) Leaves() int {
	n := 0
	for _, st := range p.steps {
		if st.leaf != nil {
			n++
		}
	}
	return n
}

// lowerMatVec matches matvec(L, v) with L the output of a cholesky.
func lowerMatVec(p *Program, i int, producer map[int]int, priv *int) (Kernel, bool) {
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

func (k *kLowerMatVec) Forward(f *Frame) {
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

func (k *kLowerMatVec) Backward(f *Frame) {
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
	// bID is the bound's value: a vector of bounds may be a shared
	// constant (outside the frame), read through Frame.Val.
	bID ID
}

// newBoundPair resolves the slots of a bound and its log-Jacobian.
func newBoundPair(p *Program, fwd, logJ *Instr, sign float64) *kBoundPair {
	x, b := &p.Values[fwd.In[0]], &p.Values[fwd.In[1]]
	return &kBoundPair{fwd: fwd, logJ: logJ, sign: sign,
		x: x.Off, n: p.Values[fwd.Out].Len, b: b.Off, nb: b.Len, y: p.Values[fwd.Out].Off,
		e: p.Values[fwd.Scratch].Off, lj: p.Values[logJ.Out].Off, gx: x.Grad, gb: b.Grad, bID: fwd.In[1]}
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

func (k *kBoundPair) Forward(f *Frame) {
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
		b := f.Val(k.bID)[:n]
		for i, xi := range x {
			ei := Exp(xi)
			e[i] = ei
			y[i] = b[i] + k.sign*ei
			s += xi
		}
	}
	v[k.lj] = s
}

func (k *kBoundPair) Backward(f *Frame) {
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
