package vec

import "math"

// The helpers of the generated density kernels (lpdf_gen.go). Every log
// density of accel/opdef runs the kernel generated from its definition,
// the normal with σ one value per chain (a parameter) included, which was
// written here by hand until the generator matched it. For a
// location-scale family whose Valid is σ > 0 and whose σ is per chain,
// the generator (cmd/genops, guardRow) fills the rows of log σ and 1/σ
// once per element with NaN where σ is not positive, and runs the loop
// over chains as a function of its own over rows resliced to B: the
// forward loop tests no support (a NaN term is -Inf), the reverse one
// only 1/σ's NaN, and neither spills (written inside the kernel, with
// σ > 0 tested per chain, the loop spilled its counter and a row pointer
// and was slower than the hand loop; bench/README.md, "The last
// hand-written normal", has the figures). Outside the support a term is
// -Inf and adds nothing to the gradient, as in ir (TestOpdefScaleOutside).

// row is element i of x for every chain as B values: x's own slots when
// x is per chain, else fill set to the shared value (refilled only when
// it changes, fill being this call's own row from i = 0).
func (b *Batch) row(x operand, i int, fill []float64) []float64 {
	o := x.off + i*x.es
	if x.cs == 1 {
		return b.V[o : o+b.B]
	}
	if xv := b.V[o]; i == 0 || fill[0] != xv {
		for c := range fill {
			fill[c] = xv
		}
	}
	return fill
}

// adjRow is the adjoint of element i of x for every chain, or a row that
// nothing reads when x carries no gradient (or !ok), so that the loops
// add without testing.
func (b *Batch) adjRow(x operand, i int, ok bool) []float64 {
	if !ok || !x.grad {
		return b.rows[5]
	}
	o := x.off + i*x.es
	return b.Adj[o : o+b.B]
}

// put stores a term (NaN from infinite inputs as -Inf), or adds it to
// the sum.
func (b *Batch) put(at int, e float64, pw bool) {
	if e != e {
		e = math.Inf(-1)
	}
	if pw {
		b.V[at] = e
	} else {
		b.V[at] += e
	}
}
