package ir

// The skeleton of the ops in term form. cmd/genops writes, for each such
// op (term_gen.go; which ops, cmd/genops's termForm says), the value and
// the partials of one element from its accel/opdef formulas, and two
// loops over a row of elements that call them (Term.Values and
// Term.Grads: -Inf for NaN from infinite inputs, the kept lets of
// Dist.Keep, each partial only when asked, a broadcast argument's adjoint
// summed). The skeleton here runs them over a batch: the arguments'
// broadcasting, the sum or the pointwise terms, the scratch and the
// adjoints. accel/vec's lockstep skeleton (accel/vec/term.go) runs the
// same loops over the chains of each element, through TermOf.
//
// The row loops are the functions called through a value, not the
// element's: a call per element through a function value, with the
// arguments on the stack, is several times slower than a loop of the
// op's own (bench/README.md, "Terms, not expansions").

// MaxTermArity is the most arguments of an op in term form.
const MaxTermArity = 4

// TermArgs are one value per argument, in op order.
type TermArgs [MaxTermArity]float64

// TermRows are N elements of an op's arguments: element r of argument j
// is X[j][r*S[j]] (S[j] 0 for a broadcast argument, 1 for a vector).
type TermRows struct {
	X [MaxTermArity][]float64
	S [MaxTermArity]int
	N int
}

// Term is one op in term form.
type Term struct {
	// Keep is how many lets Values leaves for Grads per element
	// (accel/opdef's Keep), in keep[r*Keep:] for element r.
	Keep int
	// Values is the sum of the elements' terms, each -Inf outside Valid
	// and for NaN; it also writes element r's to out[r], or adds it when
	// add is set, unless out is nil. keep, when not nil, receives the
	// kept lets.
	Values func(x TermRows, keep, out []float64, add bool) float64
	// Grads adds g[r*gs] times the partial by argument j to d.X[j][r]
	// for each bit j of need, for the elements that add to the gradient
	// (inside Valid and GradIf); where d.S[j] is 0 (a broadcast
	// argument) it returns the sum instead, in its j-th value. The kept
	// lets are read from keep (what Values left for the same x) or, keep
	// nil, computed.
	Grads func(x TermRows, keep []float64, need uint, g []float64, gs int, d TermRows) TermArgs
}

// TermOf is op's term form, nil when op has loops of its own.
func TermOf(op Op) *Term { return terms[op] }

// keepAt is element r's kept lets, k of them; nil when nothing is kept.
func keepAt(keep []float64, r, k int) []float64 {
	if keep == nil {
		return nil
	}
	return keep[r*k : r*k+k]
}

// termRows are an instruction's arguments over its batch.
func termRows(f *Frame, in *Instr) TermRows {
	x := TermRows{N: 1}
	for j, id := range in.In {
		x.X[j] = f.Val(id)
		x.S[j] = stride(x.X[j])
		if len(x.X[j]) != 1 {
			x.N = len(x.X[j])
		}
	}
	return x
}

func (t *Term) forward(f *Frame, in *Instr) {
	x := termRows(f, in)
	out := f.Val(in.Out)
	var keep []float64
	if t.Keep > 0 {
		keep = f.Val(in.Scratch)
	}
	if Pointwise(in) {
		t.Values(x, keep, out, false)
		return
	}
	out[0] = t.Values(x, keep, nil, false)
}

func (t *Term) backward(f *Frame, in *Instr) {
	var d TermRows
	var need uint
	for j, id := range in.In {
		a, perElem := gradOf(f, id)
		if a == nil {
			continue
		}
		need |= 1 << j
		d.X[j] = a
		if perElem {
			d.S[j] = 1
		}
	}
	if need == 0 {
		return
	}
	var keep []float64
	if t.Keep > 0 {
		keep = f.Val(in.Scratch) // left by forward
	}
	sums := t.Grads(termRows(f, in), keep, need, f.AdjOf(in.Out), outStride(in), d)
	for j := range in.In {
		flushAcc(d.X[j], d.S[j] != 0, sums[j])
	}
}
