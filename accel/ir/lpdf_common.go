package ir

import (
	"fmt"
	"math"
	"slices"

	"github.com/gobayes/gobayes/accel/opdef"
)

// Shared machinery of the log-density ops (lpdf_*.go).
//
// Every scalar family is one Forward loop and one Backward loop over the
// batch, written out by hand so that the compiler inlines everything: a
// generic driver calling a per-family kernel costs about twice as much per
// element (measured on go1.26: type-parameter methods are not
// devirtualised). Quantities that depend on one parameter only (log σ,
// lgamma(α)) are memoised on that parameter's value, so a broadcast scalar
// parameter costs one transcendental call per evaluation, not one per
// element. Terms that depend only on constant data (lgamma(y+1), log σ of
// known measurement errors, the validity of observed counts) are computed
// once per frame into the instruction's scratch. Elements outside the
// support — and NaN from infinite inputs — give -Inf in the forward pass
// and contribute nothing to the gradient.

const (
	lnSqrt2Pi = 0.91893853320467274178 // log(√(2π))
	lnPi      = 1.14472988584940017414 // log(π)
	ln2       = math.Ln2
)

var negInf = math.Inf(-1)

// Pointwise reports whether a log-density instruction gives one term per
// element (Ints[0] == 1) rather than their sum.
func Pointwise(in *Instr) bool { return len(in.Ints) > 0 && in.Ints[0] == 1 }

// checkLPDFInts rejects immediates other than the pointwise flag.
func checkLPDFInts(in *Instr) error {
	if len(in.Ints) > 1 || len(in.Ints) == 1 && in.Ints[0] != 0 && in.Ints[0] != 1 {
		return fmt.Errorf("log density immediates %v: want none, [0] (sum) or [1] (pointwise)", in.Ints)
	}
	return nil
}

// lpdfShape is the shape rule of the elementwise log densities: each input
// has the batch length or length 1; the output is a scalar, or in
// pointwise mode the shape of the longest input.
func lpdfShape(p *Program, in *Instr, args [][]int) ([]int, error) {
	if err := checkLPDFInts(in); err != nil {
		return nil, err
	}
	n, at := 1, -1
	for i, a := range args {
		l := ShapeLen(a)
		if l == 1 {
			continue
		}
		if at < 0 {
			n, at = l, i
			continue
		}
		if l != n {
			return nil, fmt.Errorf("argument %d has %d values but argument %d has %d: each argument must have the same length or be a scalar", i, l, at, n)
		}
	}
	if !Pointwise(in) || at < 0 {
		return nil, nil
	}
	return slices.Clone(args[at]), nil
}

// batchLen is the length of the longest slice (all others have that length
// or length 1, as lpdfShape checked).
func batchLen(xs ...[]float64) int {
	n := 1
	for _, x := range xs {
		if len(x) != 1 {
			n = len(x)
		}
	}
	return n
}

// stride is 0 for a broadcast scalar, 1 for a vector: x[i*stride(x)].
func stride(x []float64) int {
	if len(x) == 1 {
		return 0
	}
	return 1
}

// outStride is the stride of the output adjoint: 1 in pointwise mode.
func outStride(in *Instr) int {
	if Pointwise(in) {
		return 1
	}
	return 0
}

// Gradients of the inputs. gradOf gives an input's adjoint slots (nil
// when it carries no gradient) and whether it has one slot per element;
// acc adds one element's contribution, summing a broadcast input's in a
// local variable that flushAcc writes once. They are plain functions on
// local variables, not methods on a struct, so that the compiler keeps the
// sums in registers: a struct accumulator was three times slower
// (measured on go1.26).
func gradOf(f *Frame, id ID) (a []float64, vec bool) {
	if !f.Grad(id) {
		return nil, false
	}
	a = f.AdjOf(id)
	return a, len(a) > 1
}

func acc(a []float64, vec bool, i int, d, sum float64) float64 {
	if vec {
		a[i] += d
		return sum
	}
	return sum + d
}

func flushAcc(a []float64, vec bool, sum float64) {
	if a != nil && !vec {
		a[0] += sum
	}
}

// isCount reports whether x is a non-negative integer.
func isCount(x float64) bool { return opdef.IsCount(x) }

func lgamma(x float64) float64 { return opdef.LGamma(x) }

// dataScratch sizes the data cache of a generated op (see accel/opdef):
// k terms per element of its data arguments args, computed once per frame
// when every one of them is a constant, after a flag slot; none
// otherwise.
func dataScratch(k int, args ...int) func(p *Program, in *Instr) int {
	return func(p *Program, in *Instr) int {
		n := 1
		for _, a := range args {
			v := &p.Values[in.In[a]]
			if v.Kind != Const {
				return 0
			}
			n = max(n, v.Len)
		}
		return 1 + k*n
	}
}

// keepScratch sizes the scratch of a generated op whose Forward keeps k
// lets per element for Backward (accel/opdef's Dist.Keep): k rows of the
// batch length.
func keepScratch(k int) func(p *Program, in *Instr) int {
	return func(p *Program, in *Instr) int {
		n := 1 // batchLen's rule
		for _, a := range in.In {
			if l := p.Values[a].Len; l != 1 {
				n = l
			}
		}
		return k * n
	}
}

// keepDataScratch is the scratch of a generated op with both: the kept
// lets' rows (keepScratch) first, then the constant data's part
// (dataScratch), which constData finds after them.
func keepDataScratch(keep, k int, args ...int) func(p *Program, in *Instr) int {
	kept, data := keepScratch(keep), dataScratch(k, args...)
	return func(p *Program, in *Instr) int { return kept(p, in) + data(p, in) }
}

// constData is the constant data's part of a generated op's scratch,
// after skip slots of kept lets: a flag slot, 0 until the first
// evaluation in the frame has cached the data terms and tested the data
// conditions of the op's Valid, then 1 when every element passed and 2
// when some did not, and the cache after it. It returns the cache, whether
// the caller is to fill it now, and the flag; nil, false, nil when the op
// has no such part (its data are not constants).
func constData(f *Frame, in *Instr, skip int) (cache []float64, fill bool, flag *float64) {
	if in.Scratch == None {
		return nil, false, nil
	}
	s := f.Val(in.Scratch)[skip:]
	if len(s) == 0 {
		return nil, false, nil
	}
	return s[1:], s[0] == 0, &s[0]
}

// onHost is dense.OnHost: true here, false in the CUDA C that cmd/genops
// translates from a marked function, which leaves out a branch on it.
func onHost() bool { return true }
