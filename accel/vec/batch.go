package vec

import (
	"fmt"
	"math"
	"slices"

	"github.com/gobayes/gobayes/accel/ir"
)

// Batch evaluates one program for B chains in lockstep.
type Batch struct {
	P *ir.Program
	B int
	// V and Adj hold every value: a value that depends on the position
	// (and every instruction's scratch) takes Len·B slots, element i of
	// chain c at off+i·B+c; a value that does not takes Len slots, shared.
	// The position comes first: slot j of chain c at j·B+c.
	V, Adj []float64
	// LP is the log density of each chain after an evaluation (-Inf where
	// it is not finite).
	LP []float64

	loc    []operand // per value
	perLen int       // slots of the per-chain region [0, perLen)
	plan   []step    // per instruction
	fb     *ir.Frame // fallback: one chain at a time through package ir
	// frames, when not nil, are one fallback frame per chain, used when a
	// fallback op keeps state in its scratch (a scan's step frames): each
	// chain's scratch then stays in its frame between the forward and the
	// reverse sweep instead of being copied in and out.
	frames  []*ir.Frame
	scratch []bool    // values that are some instruction's scratch
	tmp     []float64 // one value per chain, for kernels
	tmp2    []float64
	// rows are six more values per chain: the constants of a log
	// density's parameters (log σ, 1/σ: the generated kernels' rows) and
	// broadcast operands (see row); rows[5] is adjRow's sink.
	rows [6][]float64
	// fills are the rows of the generated kernels' arguments when they
	// are shared by every chain (one per argument, see Batch.row).
	fills [4][]float64
	// lpFrom is the value Forward reads LP from: the target, or the one
	// term of a target that sums a single term (that sum is then skipped).
	lpFrom ir.ID
	// density, when not nil, is the fused mixture that is the whole log
	// density (see DensityForm).
	density *mixture
	// adjSpans are the ranges of Adj that Gradient clears: all of it but
	// the adjoints of values that fused kernels never form.
	adjSpans [][2]int
}

// operand locates a value: element i of chain c at off + i·es + c·cs.
// es is B and cs 1 for a per-chain value, es 1 and cs 0 for a shared one.
type operand struct {
	off, es, cs int
	n           int
	per         bool // per-chain
	grad        bool // the reverse sweep propagates into it (ir.Value.Grad)
}

// kernel is how an instruction runs.
type kernel uint8

const (
	kSkip     kernel = iota // output does not depend on the position: computed once in New
	kFallback               // per chain through ir.Def
	kUnary
	kBinary
	kSum
	kAddN
	kLogSumExp
	kMatVec
	kLogMix
	kLower // lower and upper bounds (bounded.go)
	kInterval
	kIntervalLogJ
	kGen // the accel/opdef families (lpdf_gen.go, generated)
	// kLinearNormal is a regression's likelihood from sufficient
	// statistics (linear.go); kNone an instruction computed inside it.
	kLinearNormal
	kNone
	kAffineNormal // normal(y | a + b·z, σ) in one sweep each way (affine.go)
	kAbsorbed     // computed inside a fused kernel, its adjoint read there
	kRecurrence   // linear_recurrence (sequences.go)
	kConcat
	kSlice
)

type step struct {
	k kernel
	// fused steps are computed by a later fused kernel when no gradient
	// is asked for; mix is that kernel, on a log-sum-exp.
	fused bool
	mix   *mixture
	lin   *linearNormal
	aff   *affineNormal
	gen   genKernel
}

// genKernel is the forward and reverse kernel of an accel/opdef family.
type genKernel [2]func(*Batch, *ir.Instr)

// New prepares the evaluation of p for b chains; it allocates all the
// memory the evaluations use.
func New(p *ir.Program, b int) *Batch {
	if b < 1 {
		panic(fmt.Sprintf("vec: %d chains: want at least 1", b))
	}
	bt := &Batch{P: p, B: b, loc: make([]operand, len(p.Values)), plan: make([]step, len(p.Instrs)), LP: make([]float64, b)}
	bt.scratch = make([]bool, len(p.Values))
	bt.tmp, bt.tmp2 = make([]float64, b), make([]float64, b)
	for i := range bt.fills {
		bt.fills[i] = make([]float64, b)
	}
	for i := range bt.rows {
		bt.rows[i] = make([]float64, b)
	}
	for _, in := range p.Instrs {
		if in.Scratch != ir.None {
			bt.scratch[in.Scratch] = true
		}
	}
	// Values may alias (a view shares its source's slots), so the layout
	// is decided per frame slot: a slot is per-chain when a value over it
	// is, and a value over a per-chain slot is per-chain in all its slots
	// (to a fixed point). Per-chain slots keep their frame order, so the
	// position [0, Dim) comes first; shared slots follow.
	perSlot := make([]bool, p.Size)
	for i, v := range p.Values {
		if v.Kind == ir.Param || v.Grad || bt.scratch[i] {
			for s := v.Off; s < v.Off+v.Len; s++ {
				perSlot[s] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, v := range p.Values {
			some, all := false, true
			for s := v.Off; s < v.Off+v.Len; s++ {
				some = some || perSlot[s]
				all = all && perSlot[s]
			}
			if some && !all {
				for s := v.Off; s < v.Off+v.Len; s++ {
					perSlot[s] = true
				}
				changed = true
			}
		}
	}
	index := make([]int, p.Size+1)
	nPer := 0
	for s, per := range perSlot {
		if per {
			index[s] = nPer
			nPer++
		}
	}
	nShared := 0
	for s, per := range perSlot {
		if !per {
			index[s] = nPer*b + nShared
			nShared++
		}
	}
	for i, v := range p.Values {
		switch {
		case v.Len == 0:
			bt.loc[i] = operand{}
		case perSlot[v.Off]:
			bt.loc[i] = operand{off: index[v.Off] * b, es: b, cs: 1, n: v.Len, per: true, grad: v.Grad}
		default:
			bt.loc[i] = operand{off: index[v.Off], es: 1, n: v.Len}
		}
	}
	bt.perLen = nPer * b
	off := bt.perLen + nShared
	bt.V = make([]float64, off)
	bt.Adj = make([]float64, bt.perLen)
	// A fresh frame's scratch (prepared by ir.NewFrame) is every chain's
	// initial scratch; one forward pass then gives the shared values.
	bt.fb = ir.NewFrame(p)
	for i := range p.Values {
		if bt.loc[i].per {
			bt.scatter(ir.ID(i), bt.fb.V, bt.V, -1)
		}
	}
	bt.fb.Forward(make([]float64, p.Dim))
	for i := range p.Values {
		if l := bt.loc[i]; !l.per {
			copy(bt.V[l.off:l.off+l.n], bt.fb.Val(ir.ID(i)))
		}
	}
	scratchy := false
	for k := range p.Instrs {
		bt.plan[k] = step{k: bt.kernelOf(&p.Instrs[k])}
		if bt.plan[k].k == kGen {
			bt.plan[k].gen = genKernels[p.Instrs[k].Op]
		}
		if in := &p.Instrs[k]; bt.plan[k].k == kFallback && in.Scratch != ir.None && p.Values[in.Scratch].Len > 64 {
			scratchy = true
		}
	}
	if scratchy && b*p.FrameSize*16 <= framesBudget { // a frame holds no shared constant
		bt.frames = make([]*ir.Frame, b)
		for c := range bt.frames {
			f := ir.NewFrame(p)
			copy(f.V, bt.fb.V)
			bt.frames[c] = f
		}
	}
	bt.fuseLinearNormals()
	bt.fuseAffineNormals()
	bt.fuseMixtures()
	bt.adjSpans = bt.liveAdjSpans()
	bt.lpFrom = p.Target
	bt.skipLoneSum()
	bt.densityForm()
	return bt
}

// scatter copies value id of a frame buffer fv into chain c of the batch
// buffer bv (every chain when c < 0).
func (b *Batch) scatter(id ir.ID, fv, bv []float64, c int) {
	v, l := &b.P.Values[id], b.loc[id]
	src := fv[v.Off : v.Off+v.Len]
	if c < 0 {
		for i, x := range src {
			for k := 0; k < b.B; k++ {
				bv[l.off+i*l.es+k*l.cs] = x
			}
		}
		return
	}
	for i, x := range src {
		bv[l.off+i*l.es+c*l.cs] = x
	}
}

// gather copies chain c of value id from the batch buffer bv into the
// frame buffer fv.
func (b *Batch) gather(id ir.ID, bv, fv []float64, c int) {
	v, l := &b.P.Values[id], b.loc[id]
	dst := fv[v.Off : v.Off+v.Len]
	for i := range dst {
		dst[i] = bv[l.off+i*l.es+c*l.cs]
	}
}

func (b *Batch) kernelOf(in *ir.Instr) kernel {
	p := b.P
	if !b.loc[in.Out].per {
		return kSkip
	}
	if !p.Values[in.Out].Grad {
		return kFallback
	}
	if k, ok := elementwiseKernel(in.Op); ok {
		return k
	}
	switch in.Op {
	case ir.OpSum:
		return kSum
	case ir.OpAddN:
		return kAddN
	case ir.OpLogSumExp:
		if in.Scratch != ir.None && p.Values[in.Scratch].Len == p.Values[in.In[0]].Len {
			return kLogSumExp
		}
	case ir.OpLogMix:
		if in.Scratch != ir.None && p.Values[in.Scratch].Len == p.Values[in.Out].Len {
			return kLogMix
		}
	case ir.OpMatVec:
		if a, x := b.loc[in.In[0]], b.loc[in.In[1]]; !a.per && x.per && len(p.Values[in.In[0]].Shape) == 2 {
			return kMatVec
		}
	case ir.OpLowerFwd, ir.OpUpperFwd:
		if x := b.loc[in.In[0]]; x.per && x.n == b.loc[in.Out].n && in.Scratch != ir.None && p.Values[in.Scratch].Len == x.n {
			return kLower
		}
	case ir.OpLowerLogJ, ir.OpUpperLogJ:
		if b.loc[in.In[0]].per {
			return kSum // Σ x
		}
	case ir.OpIntervalFwd:
		if x := b.loc[in.In[0]]; x.per && x.n == b.loc[in.Out].n {
			return kInterval
		}
	case ir.OpIntervalLogJ:
		if b.loc[in.In[0]].per {
			return kIntervalLogJ
		}
	case ir.OpLinearRecurrence:
		return kRecurrence
	case ir.OpConcat:
		return kConcat
	case ir.OpSlice:
		if b.loc[in.In[0]].per && len(in.Ints) == 2 {
			return kSlice
		}
	}
	if _, ok := genKernels[in.Op]; ok {
		return kGen
	}
	return kFallback
}

// isNormal reports whether instruction k is a normal_lpdf that runs a
// lockstep kernel (not fused, not a fallback): what the fusion passes
// replace.
func (b *Batch) isNormal(k int) bool {
	return b.P.Instrs[k].Op == ir.OpNormalLPDF && b.plan[k].k == kGen
}

// framesBudget bounds the memory of per-chain fallback frames.
const framesBudget = 64 << 20

// X is the position region of V: slot j of chain c at j·B+c.
func (b *Batch) X() []float64 { return b.V[:b.P.Dim*b.B] }

// LPs is LP (accel.Batch).
func (b *Batch) LPs() []float64 { return b.LP }

// Grad is the gradient region of Adj after Gradient, laid out as X.
func (b *Batch) Grad() []float64 { return b.Adj[:b.P.Dim*b.B] }

// Forward evaluates the log density of every chain at the positions in X
// into LP.
func (b *Batch) Forward() { b.forward(false) }

// forward runs the instructions; for a gradient, unfused.
func (b *Batch) forward(grad bool) {
	for k := range b.P.Instrs {
		in := &b.P.Instrs[k]
		st := &b.plan[k]
		if !grad {
			if st.fused {
				continue
			}
			if st.mix != nil {
				b.mixtureForward(in, st.mix)
				continue
			}
		}
		switch st.k {
		case kSkip:
		case kUnary:
			b.unaryForward(in)
		case kBinary:
			b.binaryForward(in)
		case kSum:
			b.sumForward(in)
		case kAddN:
			b.addNForward(in)
		case kLogSumExp:
			b.logSumExpForward(in)
		case kMatVec:
			b.matVecForward(in)
		case kLogMix:
			b.logMixForward(in)
		case kLower:
			b.boundForward(in, boundSign(in.Op))
		case kInterval:
			b.intervalForward(in)
		case kIntervalLogJ:
			b.intervalLogJForward(in)
		case kGen:
			st.gen[0](b, in)
		case kLinearNormal:
			b.linearNormalForward(in, st.lin)
		case kAffineNormal:
			b.affineNormalForward(in, st.aff)
		case kRecurrence:
			b.recurrenceForward(in)
		case kConcat:
			b.concatForward(in)
		case kSlice:
			b.sliceForward(in)
		case kNone, kAbsorbed:
		default:
			b.fallbackForward(in)
		}
	}
	p := b.P
	if p.Target == ir.None {
		clear(b.LP)
		return
	}
	t := b.loc[p.Target]
	if !grad {
		t = b.loc[b.lpFrom]
	}
	for c := range b.LP {
		lp := b.V[t.off+c*t.cs]
		if math.IsNaN(lp) {
			lp = math.Inf(-1)
		}
		b.LP[c] = lp
	}
}

// Gradient evaluates the log density into LP and its gradient with
// respect to the position into Grad.
func (b *Batch) Gradient() {
	b.forward(true)
	p := b.P
	for _, s := range b.adjSpans {
		clear(b.Adj[s[0]:s[1]])
	}
	if p.Target == ir.None {
		return
	}
	t := b.loc[p.Target]
	if !t.per {
		return
	}
	for c := 0; c < b.B; c++ {
		b.Adj[t.off+c] = 1
	}
	for k := len(p.Instrs) - 1; k >= 0; k-- {
		in := &p.Instrs[k]
		if !p.Values[in.Out].Grad {
			continue
		}
		switch b.plan[k].k {
		case kSkip:
		case kUnary:
			b.unaryBackward(in)
		case kBinary:
			b.binaryBackward(in)
		case kSum:
			b.sumBackward(in)
		case kAddN:
			b.addNBackward(in)
		case kLogSumExp:
			b.logSumExpBackward(in)
		case kMatVec:
			b.matVecBackward(in)
		case kLogMix:
			b.logMixBackward(in)
		case kLower:
			b.boundBackward(in, boundSign(in.Op))
		case kInterval:
			b.intervalBackward(in)
		case kIntervalLogJ:
			b.intervalLogJBackward(in)
		case kGen:
			b.plan[k].gen[1](b, in)
		case kLinearNormal:
			b.linearNormalBackward(in, b.plan[k].lin)
		case kAffineNormal:
			b.affineNormalBackward(in, b.plan[k].aff)
		case kRecurrence:
			b.recurrenceBackward(in)
		case kConcat:
			b.concatBackward(in)
		case kSlice:
			b.sliceBackward(in)
		case kNone, kAbsorbed:
		default:
			b.fallbackBackward(in)
		}
	}
}

// LogDensity evaluates chain-major positions xs (chain c at c·Dim) into
// lps.
func (b *Batch) LogDensity(xs, lps []float64) {
	b.load(xs)
	b.Forward()
	copy(lps, b.LP)
}

// LogDensityGrad evaluates chain-major positions xs into lps and their
// gradients into grads (chain-major, like xs).
func (b *Batch) LogDensityGrad(xs, lps, grads []float64) {
	b.load(xs)
	b.Gradient()
	copy(lps, b.LP)
	d, g, nb := b.P.Dim, b.Grad(), b.B
	grads = grads[:nb*d]
	for c := 0; c < nb; c++ {
		dst := grads[c*d : (c+1)*d]
		for j := range dst {
			dst[j] = g[j*nb+c]
		}
	}
}

func (b *Batch) load(xs []float64) {
	d, x := b.P.Dim, b.X()
	if len(xs) != d*b.B {
		panic(fmt.Sprintf("vec: %d position values for %d chains of dimension %d", len(xs), b.B, d))
	}
	nb := b.B
	for c := 0; c < nb; c++ {
		for j, v := range xs[c*d : (c+1)*d] {
			x[j*nb+c] = v
		}
	}
}

// fallbackForward runs in through its reference semantics one chain at a
// time in the fallback frame, whose shared values are already in place.
func (b *Batch) fallbackForward(in *ir.Instr) {
	def, f := ir.Def(in.Op), b.fb
	if b.frames != nil {
		for c, f := range b.frames {
			for _, a := range in.In {
				if b.loc[a].per {
					b.gather(a, b.V, f.V, c)
				}
			}
			def.Forward(f, in)
			b.scatter(in.Out, f.V, b.V, c)
		}
		return
	}
	for c := 0; c < b.B; c++ {
		for _, a := range in.In {
			if b.loc[a].per {
				b.gather(a, b.V, f.V, c)
			}
		}
		if in.Scratch != ir.None {
			b.gather(in.Scratch, b.V, f.V, c)
		}
		def.Forward(f, in)
		b.scatter(in.Out, f.V, b.V, c)
		if in.Scratch != ir.None {
			b.scatter(in.Scratch, f.V, b.V, c)
			b.scatter(in.Scratch, f.Adj, b.Adj, c)
		}
	}
}

// fallbackBackward runs the reverse sweep of in one chain at a time; the
// adjoints of its inputs go through the frame so that it adds into them.
func (b *Batch) fallbackBackward(in *ir.Instr) {
	def, f := ir.Def(in.Op), b.fb
	if b.frames != nil {
		// Each frame still holds its chain's inputs, output and scratch
		// from the forward pass (every instruction ran in it), but the
		// adjoints live in the batch.
		for c, f := range b.frames {
			for _, a := range in.In {
				if b.loc[a].per {
					b.gather(a, b.Adj, f.Adj, c)
				}
			}
			b.gather(in.Out, b.Adj, f.Adj, c)
			def.Backward(f, in)
			for _, a := range in.In {
				if b.loc[a].per {
					b.scatter(a, f.Adj, b.Adj, c)
				}
			}
		}
		return
	}
	for c := 0; c < b.B; c++ {
		for _, a := range in.In {
			if b.loc[a].per {
				b.gather(a, b.V, f.V, c)
				b.gather(a, b.Adj, f.Adj, c)
			}
		}
		// Shared inputs get no adjoint; ir's ops add only into inputs
		// with Grad, which are all per-chain.
		if in.Scratch != ir.None {
			b.gather(in.Scratch, b.V, f.V, c)
			b.gather(in.Scratch, b.Adj, f.Adj, c)
		}
		b.gather(in.Out, b.V, f.V, c)
		b.gather(in.Out, b.Adj, f.Adj, c)
		def.Backward(f, in)
		for _, a := range in.In {
			if b.loc[a].per {
				b.scatter(a, f.Adj, b.Adj, c)
			}
		}
		if in.Scratch != ir.None {
			b.scatter(in.Scratch, f.V, b.V, c)
			b.scatter(in.Scratch, f.Adj, b.Adj, c)
		}
	}
}

// liveAdjSpans is [0, perLen) without the adjoints no sweep reads: those
// of the outputs of kNone instructions (values read by their fused kernel
// only, with no other value over their slots) and those of the scratch of
// every instruction that does not fall back to package ir (a lockstep
// kernel keeps values in its scratch, never adjoints).
func (b *Batch) liveAdjSpans() [][2]int {
	var dead [][2]int
	for k, in := range b.P.Instrs {
		if l := b.loc[in.Out]; b.plan[k].k == kNone && l.per {
			dead = append(dead, [2]int{l.off, l.off + l.n*b.B})
		}
		if in.Scratch == ir.None || b.plan[k].k == kFallback || b.viewed(in.Scratch) {
			continue
		}
		if l := b.loc[in.Scratch]; l.per {
			dead = append(dead, [2]int{l.off, l.off + l.n*b.B})
		}
	}
	slices.SortFunc(dead, func(x, y [2]int) int { return x[0] - y[0] })
	var spans [][2]int
	at := 0
	for _, d := range dead {
		if d[0] > at {
			spans = append(spans, [2]int{at, d[0]})
		}
		at = max(at, d[1])
	}
	if at < b.perLen {
		spans = append(spans, [2]int{at, b.perLen})
	}
	return spans
}
