package compile

import (
	"slices"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// Censored and truncated variables: the compiler reads graph.RV's Censor
// and Truncated where it emits a variable's log density (logDensity), so
// that the sampler's target, the pointwise log-likelihood (LOO) and the
// predictive programs all see the same terms, and no other part of ppl
// needs to know.

// censoredDensity is the log density of the censored observed variable r
// at y, the family's op over params: an element at or below its lower
// bound adds log F(lower), one at or above its upper bound log(1 -
// F(upper)), the others their log density. The elements fall in these
// three groups by the data, when the program is built; the pointwise log
// likelihood's terms come back in the data's order. (Its y are slots of
// the position there, holding the same data.)
func (e *emitter) censoredDensity(r *graph.RV, y ir.ID, params []ir.ID, pointwise bool) ir.ID {
	c := r.Censor
	n := len(r.Data)
	if !(len(c.Lower) == 0 || len(c.Lower) == 1 || len(c.Lower) == n) || !(len(c.Upper) == 0 || len(c.Upper) == 1 || len(c.Upper) == n) {
		failf(r.Name, "the censoring bounds have %d and %d values for %d observations; give one value, or one per observation", len(c.Lower), len(c.Upper), n)
	}
	at := func(b []float64, i int) (float64, bool) {
		if len(b) == 0 {
			return 0, false
		}
		return b[i%len(b)], true
	}
	var obs, low, up []int
	for i, v := range r.Data {
		lo, okL := at(c.Lower, i)
		hi, okU := at(c.Upper, i)
		switch {
		case okL && v <= lo:
			low = append(low, i)
		case okU && v >= hi:
			up = append(up, i)
		default:
			obs = append(obs, i)
		}
	}
	var ints []int
	if pointwise {
		ints = []int{1}
	}
	// gather is the elements idx of id (of length n, or 1: shared).
	gather := func(id ir.ID, idx []int) ir.ID {
		if ir.ShapeLen(e.b.Shape(id)) == 1 || len(idx) == n {
			return id
		}
		return e.emitGather(id, idx)
	}
	var parts []ir.ID
	group := func(op ir.Op, idx []int, bound ir.ID) {
		if len(idx) == 0 {
			return
		}
		in := []ir.ID{bound}
		for _, p := range params {
			in = append(in, gather(p, idx))
		}
		parts = append(parts, e.emitOp(op, in, ints))
	}
	// boundAt is the constant bound of each element of idx.
	boundAt := func(b []float64, idx []int) ir.ID {
		v := make([]float64, len(idx))
		for k, i := range idx {
			v[k] = b[i%len(b)]
		}
		return e.b.Const(v, []int{len(v)})
	}
	group(r.Fam.Op, obs, gather(y, obs))
	if len(low) > 0 {
		group(r.Fam.LCDF, low, boundAt(c.Lower, low))
	}
	if len(up) > 0 {
		group(r.Fam.LCCDF, up, boundAt(c.Upper, up))
	}
	if !pointwise {
		if len(parts) == 1 {
			return parts[0]
		}
		return e.emitOp(ir.OpAddN, parts, nil)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	cat := e.emitOp(ir.OpConcat, parts, nil)
	// Back in the data's order: the k-th value of cat is element
	// order[k].
	order := slices.Concat(obs, low, up)
	pos := make([]int, n)
	for k, i := range order {
		pos[i] = k
	}
	return e.emitGather(cat, pos)
}

// emitGather is the elements idx of x (read flat).
func (e *emitter) emitGather(x ir.ID, idx []int) ir.ID {
	id, err := e.b.Emit(ir.OpGather, []ir.ID{x}, nil, e.b.Table(idx))
	e.check(err)
	return id
}

// truncate turns lp, the log density of r (summed, or pointwise) over
// params, into that of r truncated to (Lower, Upper): it subtracts, per
// element, log Z = log(F(U) - F(L)), log(1 - F(L)) with no upper bound,
// log F(U) with no lower one. With both, Z is computed from the CDFs,
// log_diff_exp(log F(U), log F(L)), and from the CCDFs,
// log_diff_exp(log(1-F(L)), log(1-F(U))), and the larger taken: each is
// accurate where its own tail is (the first below the median, the second
// above, where F rounds to 1 and the first gives -Inf), the other then
// smaller; log_diff_exp passes no gradient back from the one left aside.
func (e *emitter) truncate(r *graph.RV, lp ir.ID, params []ir.ID, pointwise bool) ir.ID {
	at := func(op ir.Op, bound *graph.Node) ir.ID {
		return e.emitOp(op, append([]ir.ID{e.emit(bound)}, params...), []int{1})
	}
	var logZ ir.ID
	switch lo, hi := r.Lower, r.Upper; {
	case lo != nil && hi != nil:
		fl, fu := at(r.Fam.LCDF, lo), at(r.Fam.LCDF, hi)
		sl, su := at(r.Fam.LCCDF, lo), at(r.Fam.LCCDF, hi)
		a := e.emitOp(ir.OpLogDiffExp, []ir.ID{fu, fl}, nil)
		b := e.emitOp(ir.OpLogDiffExp, []ir.ID{sl, su}, nil)
		logZ = e.emitOp(ir.OpMax, []ir.ID{a, b}, nil)
	case lo != nil:
		logZ = at(r.Fam.LCCDF, lo)
	case hi != nil:
		logZ = at(r.Fam.LCDF, hi)
	default:
		return lp
	}
	if pointwise {
		return e.emitOp(ir.OpSub, []ir.ID{lp, logZ}, nil)
	}
	if ir.ShapeLen(e.b.Shape(logZ)) == 1 {
		n := e.b.Scalar(float64(r.Value.Len()))
		return e.emitOp(ir.OpSub, []ir.ID{lp, e.emitOp(ir.OpMul, []ir.ID{n, logZ}, nil)}, nil)
	}
	return e.emitOp(ir.OpSub, []ir.ID{lp, e.emitOp(ir.OpSum, []ir.ID{logZ}, nil)}, nil)
}
