package ir

// SetMaxStepViews changes the cap on precomputed scan step views for a
// test and returns a function restoring it.
func SetMaxStepViews(n int) (restore func()) {
	old := maxStepViews
	maxStepViews = n
	return func() { maxStepViews = old }
}

// WithoutFastPath returns a copy of p that runs every instruction through
// its registered semantics (no scalar fast path, no execution plan).
func WithoutFastPath(p *Program) *Program {
	q := *p
	q.fast = nil
	q.plan, q.steps, q.rsteps, q.privSize, q.kernelsOnly = nil, nil, nil, 0, false
	q.Instrs = append([]Instr(nil), p.Instrs...)
	for i, in := range q.Instrs {
		if in.Body != nil {
			q.Instrs[i].Body = WithoutFastPath(in.Body)
		}
	}
	q.transposed = transposedOf(&q)
	return &q
}

// FastPathLen counts the instructions of p on the scalar fast path.
func FastPathLen(p *Program) int {
	n := 0
	for _, t := range p.fast {
		if t.op != OpNop {
			n++
		}
	}
	return n
}

// SetShortcuts turns the hand-written shortcuts of the generated loops on
// or off (see accel/opdef's Dist.Shortcut) and returns a function
// restoring them.
func SetShortcuts(on bool) (restore func()) {
	old := shortcuts
	shortcuts = on
	return func() { shortcuts = old }
}

// SetSharedMin changes the length from which Builder.Const shares a
// constant (SharedMin) for a test and returns a function restoring it.
func SetSharedMin(n int) (restore func()) {
	old := sharedMin
	sharedMin = n
	return func() { sharedMin = old }
}

// PrivateSize is the per-frame memory of p's fused kernels, in slots.
func PrivateSize(p *Program) int { return p.privSize }
