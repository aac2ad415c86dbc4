package ir

import (
	"math"
	"slices"
)

// NewFrame allocates the memory to evaluate p: every later call on the
// frame runs without allocating. A frame is not safe for concurrent use;
// give each goroutine its own. Frames must come from NewFrame (a scan
// needs the frames of its body prepared here), and V and Adj must not be
// replaced afterwards (the frame keeps views into them).
//
// A frame holds the program's slots [0, FrameSize) only: the shared
// constants (a model's data) are read in place from the program, and have
// no adjoint (Frame.AdjOf is nil for them; they carry no gradient), so a
// frame costs the model's temporaries, not its data.
func NewFrame(p *Program) *Frame {
	f := &Frame{P: p, V: make([]float64, p.FrameSize), Adj: make([]float64, p.FrameSize)}
	copy(f.V, p.Init)
	prepareScratch(p, f.V)
	f.subs = subFrames(p, nil)
	f.gradSpans = gradSpans(p, nil)
	if p.plan != nil {
		f.leafSpans, f.plannedSpans = plannedClears(p)
	}
	f.vals = make([][]float64, len(p.Values))
	f.adjs = make([][]float64, len(p.Values))
	for i := range p.Values {
		f.vals[i] = p.Val(f.V, ID(i))
		if !p.IsShared(ID(i)) {
			f.adjs[i] = p.Val(f.Adj, ID(i))
		}
	}
	f.steps = scanStepViews(p, f.V)
	if p.privSize > 0 {
		f.priv = make([]float64, p.privSize)
		for i := range f.priv {
			f.priv[i] = math.NaN()
		}
	}
	return f
}

// subFrames collects a frame header (no memory of its own) for the body of
// every scan in p, recursively; scans point them at their scratch memory
// when they run.
func subFrames(p *Program, m map[*Program]*Frame) map[*Program]*Frame {
	for i := range p.Instrs {
		body := p.Instrs[i].Body
		if body == nil {
			continue
		}
		if m == nil {
			m = map[*Program]*Frame{}
		}
		if _, ok := m[body]; !ok {
			m[body] = &Frame{P: body}
			m = subFrames(body, m)
		}
	}
	return m
}

// gradSpans lists the merged slot ranges [from, to) of the values that
// carry gradients: the only adjoints a reverse sweep reads, hence the only
// ones Gradient clears (data can be large).
//
// Slots for which skip is true (the outputs of instructions the execution
// plan absorbs, whose adjoints a planned sweep never reads) are left out.
func gradSpans(p *Program, skip map[int]bool) [][2]int {
	var spans [][2]int
	for _, v := range p.Values {
		if v.Grad && v.Len > 0 && !skip[v.Off] {
			spans = append(spans, [2]int{v.Off, v.Off + v.Len})
		}
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	// Spans closer than a cache line or two are merged: clearing a few
	// data slots costs less than another call.
	const gap = 16
	merged := spans[:0]
	for _, s := range spans {
		if n := len(merged); n > 0 && s[0] <= merged[n-1][1]+gap {
			merged[n-1][1] = max(merged[n-1][1], s[1])
			continue
		}
		merged = append(merged, s)
	}
	return merged
}

// plannedClears returns the adjoint ranges a planned Gradient clears
// before the forward pass (pre) and after it (post). Only adjoints that
// are read need clearing: the position's (copied out) and, for every step
// of the reverse sweep, those of its output and scratch and of the
// absorbed outputs it reads (adjRead); the adjoints of the leaf kernels'
// terms, for one, are written but never read. Those the leaf kernels add
// into during the forward pass must be cleared before it; the others are
// cleared after it, when the reverse sweep is about to read them (a large
// program's adjoints are then still in cache). A small set is cleared in
// one span before the forward pass (clearing slots nobody reads does no
// harm, and one short loop costs less than several).
func plannedClears(p *Program) (pre, post [][2]int) {
	n := p.FrameSize
	read := make([]bool, n)
	mark := func(m []bool, from, to int) {
		// Shared constants lie past the frame, with no adjoint.
		for i := from; i < min(to, n); i++ {
			m[i] = true
		}
	}
	markID := func(id ID) {
		if id != None {
			v := &p.Values[id]
			mark(read, v.Off, v.Off+v.Len)
		}
	}
	mark(read, 0, p.Dim)
	for _, st := range p.steps {
		if st.grad {
			markID(st.in.Out)
			markID(st.in.Scratch)
		}
	}
	for i, st := range p.plan {
		if st.Skip && st.AdjRead {
			markID(p.Instrs[i].Out)
		}
	}
	grad := make([]bool, n)
	for _, v := range p.Values {
		if v.Grad {
			mark(grad, v.Off, v.Off+v.Len)
		}
	}
	leaf := make([]bool, n)
	for _, st := range p.steps {
		if st.leaf != nil {
			for _, r := range st.leaf.AdjWrites() {
				mark(leaf, r[0], r[1])
			}
		}
	}
	first, last, count := -1, -1, 0
	for i := range n {
		if read[i] && grad[i] {
			if first < 0 {
				first = i
			}
			last = i
			count++
		}
	}
	if count == 0 {
		return nil, nil
	}
	if last+1-first <= 256 {
		return [][2]int{{first, last + 1}}, nil
	}
	// add appends slot i to the ranges l, joining the last range across a
	// gap of up to 16 slots when ok allows every slot of the gap.
	add := func(l [][2]int, i int, ok func(int) bool) [][2]int {
		if k := len(l); k > 0 && i-l[k-1][1] <= 16 {
			join := true
			for j := l[k-1][1]; j < i; j++ {
				join = join && ok(j)
			}
			if join {
				l[k-1][1] = i + 1
				return l
			}
		}
		return append(l, [2]int{i, i + 1})
	}
	for i := range n {
		if !read[i] || !grad[i] {
			continue
		}
		if leaf[i] {
			pre = add(pre, i, func(int) bool { return true })
		} else {
			post = add(post, i, func(j int) bool { return !leaf[j] })
		}
	}
	return pre, post
}

// sub returns the frame header for body.
func (f *Frame) sub(body *Program) *Frame {
	s := f.subs[body]
	s.subs = f.subs
	return s
}

// Forward evaluates the program at position x and returns the log density
// (-Inf where it is not finite). Outputs can be read with Val afterwards.
func (f *Frame) Forward(x []float64) float64 {
	p := f.P
	copy(f.V[:p.Dim], x)
	f.run()
	if p.Target == None {
		return 0
	}
	lp := f.V[p.Values[p.Target].Off]
	if math.IsNaN(lp) {
		return math.Inf(-1)
	}
	return lp
}

// run executes the instructions in order over f.V.
func (f *Frame) run() {
	p := f.P
	if p.plan != nil && !f.Unfused {
		f.runPlanned()
		return
	}
	if len(p.fast) == len(p.Instrs) {
		fast := p.fast
		for i := range p.Instrs {
			if t := &fast[i]; t.op != OpNop {
				t.forward(f.V)
				continue
			}
			in := &p.Instrs[i]
			defs[in.Op].Forward(f, in)
		}
		return
	}
	for i := range p.Instrs {
		in := &p.Instrs[i]
		defs[in.Op].Forward(f, in)
	}
}

// reverse sweeps the instructions backwards, adding into f.Adj, which the
// caller has seeded.
func (f *Frame) reverse() {
	p := f.P
	if p.plan != nil && !f.Unfused {
		f.reversePlanned()
		return
	}
	for i := len(p.Instrs) - 1; i >= 0; i-- {
		in := &p.Instrs[i]
		if !p.Values[in.Out].Grad {
			continue
		}
		if len(p.fast) == len(p.Instrs) && p.fast[i].op != OpNop {
			p.fast[i].backward(f.V, f.Adj)
			continue
		}
		defs[in.Op].Backward(f, in)
	}
}

// Gradient evaluates the log density at x and writes its gradient with
// respect to x into grad (len Dim).
//
// With an execution plan, the adjoints the plan's leaf kernels (see
// markLeaves) add into as they run forward are cleared before the forward
// pass, the others after it (see plannedClears).
func (f *Frame) Gradient(x, grad []float64) float64 {
	p := f.P
	if p.plan == nil || f.Unfused {
		return f.gradientUnplanned(x, grad)
	}
	if p.kernelsOnly {
		return f.gradientKernels(x, grad)
	}
	v, adj := f.V, f.Adj
	copy(v[:p.Dim], x)
	clearSpans(adj, f.leafSpans)
	steps := p.steps
	for i := range steps {
		st := &steps[i]
		switch {
		case st.bound != nil:
			st.bound.scalarForward(v)
		case st.leaf != nil:
			st.leaf.ForwardGrad(f)
		case st.k != nil:
			st.k.Forward(f)
		case st.fast != nil:
			st.fast.forward(v)
		default:
			defs[st.in.Op].Forward(f, st.in)
		}
	}
	lp := math.Inf(-1)
	if p.Target != None {
		t := p.Values[p.Target].Off
		if l := v[t]; !math.IsNaN(l) {
			lp = l
		}
		clearSpans(adj, f.plannedSpans)
		adj[t] = 1
		// The reverse sweep (reversePlanned, inlined by hand).
		rsteps := p.rsteps
		for i := range rsteps {
			st := &rsteps[i]
			switch {
			case st.bound != nil && !st.bound.gb:
				st.bound.scalarBackward(v, adj)
			case st.k != nil:
				st.k.Backward(f)
			case st.fast != nil:
				st.fast.backward(v, adj)
			default:
				defs[st.in.Op].Backward(f, st.in)
			}
		}
	} else {
		lp = 0
	}
	copy(grad, adj[:p.Dim])
	return lp
}

// gradientKernels is Gradient for a plan whose every step runs a kernel
// (Program.kernelsOnly), the usual shape of a small model's: the same
// sweeps with the cases that cannot occur left out and few values kept
// across the kernels' calls (Go reloads every live value after a call).
func (f *Frame) gradientKernels(x, grad []float64) float64 {
	p := f.P
	copy(f.V[:p.Dim], x)
	clearSpans(f.Adj, f.leafSpans)
	for i := range p.steps {
		st := &p.steps[i]
		if b := st.bound; b != nil {
			b.scalarForward(f.V)
		} else if st.leaf != nil {
			st.leaf.ForwardGrad(f)
		} else {
			st.k.Forward(f)
		}
	}
	clearSpans(f.Adj, f.plannedSpans)
	t := p.targetOff
	f.Adj[t] = 1
	for i := range p.rsteps {
		st := &p.rsteps[i]
		if b := st.bound; b != nil && !b.gb {
			b.scalarBackward(f.V, f.Adj)
		} else {
			st.k.Backward(f)
		}
	}
	copy(grad, f.Adj[:p.Dim])
	if lp := f.V[t]; lp == lp {
		return lp
	}
	return negInf
}

// gradientUnplanned is Gradient instruction by instruction.
func (f *Frame) gradientUnplanned(x, grad []float64) float64 {
	p := f.P
	lp := f.Forward(x)
	for _, s := range f.gradSpans {
		clear(f.Adj[s[0]:s[1]])
	}
	if p.Target != None {
		f.Adj[p.Values[p.Target].Off] = 1
		f.reverse()
	}
	copy(grad, f.Adj[:p.Dim])
	return lp
}

// clearSpans zeroes the slot ranges spans of adj.
func clearSpans(adj []float64, spans [][2]int) {
	for _, s := range spans {
		clear(adj[s[0]:s[1]])
	}
}

// runPlanned is run following the program's plan.
func (f *Frame) runPlanned() {
	for i := range f.P.steps {
		st := &f.P.steps[i]
		switch {
		case st.k != nil:
			st.k.Forward(f)
		case st.fast != nil:
			st.fast.forward(f.V)
		default:
			defs[st.in.Op].Forward(f, st.in)
		}
	}
}

// reversePlanned is reverse following the program's plan.
func (f *Frame) reversePlanned() {
	rsteps := f.P.rsteps
	for i := range rsteps {
		st := &rsteps[i]
		switch {
		case st.k != nil:
			st.k.Backward(f)
		case st.fast != nil:
			st.fast.backward(f.V, f.Adj)
		default:
			defs[st.in.Op].Backward(f, st.in)
		}
	}
}
