package ir

// The skeleton of the ops in term form. cmd/genops writes, for each such
// op (term_gen.go; which ops, cmd/genops's termForm says), the value and
// the partials of one element from its accel/opdef formulas; the one
// loop here does the rest for every one of them: the broadcasting of the
// arguments (each has the batch length or length 1), the sum or the
// pointwise terms, -Inf for NaN from infinite inputs, the kept lets
// (Dist.Keep) between the two sweeps, and the adjoints, a broadcast
// argument's summed before it is added. accel/vec's lockstep skeleton
// (accel/vec/term.go) calls the same functions through TermOf.

// MaxTermArity is the most arguments of an op in term form.
const MaxTermArity = 4

// TermArgs are one element's arguments, the variate first, in op order.
type TermArgs [MaxTermArity]float64

// Term is one op in term form.
type Term struct {
	// Keep is how many lets Value leaves for Grad (accel/opdef's Keep).
	Keep int
	// Value is the element's term: -Inf outside Valid; NaN (from
	// infinite arguments) the caller turns into -Inf. When keep is not
	// nil, Value writes the kept lets into its first Keep values. The
	// arguments and partials travel by value: through a function value,
	// a pointer to the caller's array would move it to the heap.
	Value func(x TermArgs, keep []float64) float64
	// Grad is the partial by argument k in d[k] for each bit k of need,
	// reading the kept lets from keep (what Value left there for the
	// same x) or, keep nil, computing them; ok is false where the
	// element adds nothing to any gradient (outside Valid or GradIf).
	Grad func(x TermArgs, keep []float64, need uint) (d TermArgs, ok bool)
}

// TermOf is op's term form, nil when op has loops of its own.
func TermOf(op Op) *Term { return terms[op] }

// termInputs are an instruction's arguments and their strides (0 for a
// broadcast one), and the batch length.
func termInputs(f *Frame, in *Instr) (xs [MaxTermArity][]float64, st [MaxTermArity]int, n int) {
	n = 1
	for j, id := range in.In {
		xs[j] = f.Val(id)
		st[j] = stride(xs[j])
		if len(xs[j]) != 1 {
			n = len(xs[j])
		}
	}
	return xs, st, n
}

func (t *Term) forward(f *Frame, in *Instr) {
	xs, st, n := termInputs(f, in)
	k := len(in.In)
	out, pw := f.Val(in.Out), Pointwise(in)
	var keep []float64
	if t.Keep > 0 {
		keep = f.Val(in.Scratch)
	}
	var x TermArgs
	sum := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			x[j] = xs[j][i*st[j]]
		}
		var kept []float64
		if keep != nil {
			kept = keep[i*t.Keep : (i+1)*t.Keep]
		}
		e := t.Value(x, kept)
		if e != e { // NaN from infinite inputs
			e = negInf
		}
		if pw {
			out[i] = e
		}
		sum += e
	}
	if !pw {
		out[0] = sum
	}
}

func (t *Term) backward(f *Frame, in *Instr) {
	xs, st, n := termInputs(f, in)
	k := len(in.In)
	g, gs := f.AdjOf(in.Out), outStride(in)
	var keep []float64
	if t.Keep > 0 {
		keep = f.Val(in.Scratch) // left by forward
	}
	var adj [MaxTermArity][]float64
	var perElem [MaxTermArity]bool
	var sums TermArgs
	var need uint
	for j, id := range in.In {
		adj[j], perElem[j] = gradOf(f, id)
		if adj[j] != nil {
			need |= 1 << j
		}
	}
	if need == 0 {
		return
	}
	var x TermArgs
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			x[j] = xs[j][i*st[j]]
		}
		var kept []float64
		if keep != nil {
			kept = keep[i*t.Keep : (i+1)*t.Keep]
		}
		d, ok := t.Grad(x, kept, need)
		if !ok {
			continue
		}
		gi := g[i*gs]
		for j := 0; j < k; j++ {
			if need&(1<<j) != 0 {
				sums[j] = acc(adj[j], perElem[j], i, gi*d[j], sums[j])
			}
		}
	}
	for j := 0; j < k; j++ {
		flushAcc(adj[j], perElem[j], sums[j])
	}
}
