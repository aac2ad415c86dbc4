package cgen_test

import (
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/conformance"
	"github.com/gobayes/gobayes/accel/cuda/cgen"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/opdef"
)

// opCase builds a program over a position of 6 slots whose log density
// exercises one op (forward and reverse) and sums it to a scalar.
type opCase struct {
	name  string
	build func(b *ir.Builder, x ir.ID) ir.ID
}

func emit(b *ir.Builder, op ir.Op, ints []int, in ...ir.ID) ir.ID {
	id, err := b.Emit(op, in, ints, -1)
	if err != nil {
		panic(err)
	}
	return id
}

func sum(b *ir.Builder, id ir.ID) ir.ID { return emit(b, ir.OpSum, nil, id) }

// pos is exp(x): positive inputs for ops with a restricted domain.
func pos(b *ir.Builder, x ir.ID) ir.ID { return emit(b, ir.OpExp, nil, x) }

func unaryCase(name string, op ir.Op, positive bool) opCase {
	return opCase{name, func(b *ir.Builder, x ir.ID) ir.ID {
		if positive {
			x = pos(b, x)
		}
		return sum(b, emit(b, op, nil, x))
	}}
}

var opCases = []opCase{
	unaryCase("neg", ir.OpNeg, false),
	unaryCase("exp", ir.OpExp, false),
	unaryCase("log", ir.OpLog, true),
	unaryCase("log1p", ir.OpLog1p, true),
	unaryCase("expm1", ir.OpExpm1, false),
	unaryCase("sqrt", ir.OpSqrt, true),
	unaryCase("square", ir.OpSquare, false),
	unaryCase("logistic", ir.OpLogistic, false),
	unaryCase("softplus", ir.OpSoftplus, false),
	unaryCase("lgamma", ir.OpLgamma, true),
	unaryCase("digamma", ir.OpDigamma, true),
	unaryCase("digamma of negative non-integers", ir.OpDigamma, false),
	unaryCase("abs", ir.OpAbs, false),
	unaryCase("tanh", ir.OpTanh, false),
	unaryCase("inv", ir.OpInv, true),
	unaryCase("step", ir.OpStep, false),
	{"logit", func(b *ir.Builder, x ir.ID) ir.ID {
		return sum(b, emit(b, ir.OpLogit, nil, emit(b, ir.OpLogistic, nil, x)))
	}},
	{"binary ops, broadcast both ways", func(b *ir.Builder, x ir.ID) ir.ID {
		s := b.ParamSlice(0, nil)
		var terms []ir.ID
		for _, op := range []ir.Op{ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv} {
			terms = append(terms, sum(b, emit(b, op, nil, x, s)), sum(b, emit(b, op, nil, s, x)), sum(b, emit(b, op, nil, x, pos(b, x))))
		}
		terms = append(terms, sum(b, emit(b, ir.OpPow, nil, pos(b, x), s)), sum(b, emit(b, ir.OpPow, nil, pos(b, s), x)))
		return emit(b, ir.OpAddN, nil, terms...)
	}},
	{"log_mix", func(b *ir.Builder, x ir.ID) ir.ID {
		t := emit(b, ir.OpLogistic, nil, b.ParamSlice(0, nil))
		return sum(b, emit(b, ir.OpLogMix, nil, t, x, emit(b, ir.OpSquare, nil, x)))
	}},
	{"dot, log_sum_exp", func(b *ir.Builder, x ir.ID) ir.ID {
		return emit(b, ir.OpAddN, nil, emit(b, ir.OpDot, nil, x, pos(b, x)), emit(b, ir.OpLogSumExp, nil, x))
	}},
	{"gather, gather_rows, fill, concat, slice", func(b *ir.Builder, x ir.ID) ir.ID {
		g, _ := b.Emit(ir.OpGather, []ir.ID{x}, nil, b.Table([]int{5, 0, 0, 3}))
		m, _ := b.Reshape(x, []int{3, 2})
		r, _ := b.Emit(ir.OpGatherRow, []ir.ID{m}, nil, b.Table([]int{2, 2, 0}))
		f := emit(b, ir.OpFill, []int{3}, b.ParamSlice(1, nil))
		c := emit(b, ir.OpConcat, nil, g, r, f)
		s := emit(b, ir.OpSlice, []int{2, 9}, c)
		return emit(b, ir.OpDot, nil, s, emit(b, ir.OpSquare, nil, s))
	}},
	{"matvec, add_diag, cholesky", func(b *ir.Builder, x ir.ID) ir.ID {
		pts := b.Const([]float64{0, 0.5, 1.5}, []int{3})
		k := emit(b, ir.OpCovExpQuad, nil, pts, pos(b, b.ParamSlice(0, nil)), pos(b, b.ParamSlice(1, nil)))
		k2 := emit(b, ir.OpAddDiag, nil, k, pos(b, b.ParamSlice(5, nil))) // one value on the whole diagonal
		k = emit(b, ir.OpAddDiag, nil, k, pos(b, b.ParamSlice(2, []int{3})))
		l := emit(b, ir.OpCholesky, nil, k)
		v := emit(b, ir.OpMatVec, nil, l, b.ParamSlice(3, []int{3}))
		return emit(b, ir.OpAddN, nil, sum(b, emit(b, ir.OpSquare, nil, v)), sum(b, l), emit(b, ir.OpDot, nil, k2, k2))
	}},
	{"bijectors", func(b *ir.Builder, x ir.ID) ir.ID {
		lb, ub := b.ParamSlice(0, nil), b.Scalar(3)
		var terms []ir.ID
		for _, op := range []ir.Op{ir.OpLowerFwd, ir.OpUpperFwd} {
			terms = append(terms, sum(b, emit(b, ir.OpSquare, nil, emit(b, op, nil, x, lb))))
		}
		terms = append(terms,
			emit(b, ir.OpLowerLogJ, nil, x, lb), emit(b, ir.OpUpperLogJ, nil, x, lb),
			sum(b, emit(b, ir.OpSquare, nil, emit(b, ir.OpIntervalFwd, nil, x, lb, ub))),
			emit(b, ir.OpIntervalLogJ, nil, x, lb, ub))
		for _, op := range []ir.Op{ir.OpOrderedFwd, ir.OpPosOrderedFwd, ir.OpSimplexFwd} {
			y := emit(b, op, nil, x)
			terms = append(terms, emit(b, ir.OpDot, nil, y, emit(b, ir.OpSquare, nil, y)))
		}
		for _, op := range []ir.Op{ir.OpOrderedLogJ, ir.OpPosOrderedLogJ, ir.OpSimplexLogJ} {
			terms = append(terms, emit(b, op, nil, x))
		}
		return emit(b, ir.OpAddN, nil, terms...)
	}},
	{"scalar log densities, summed and pointwise", func(b *ir.Builder, x ir.ID) ir.ID {
		y := b.Const([]float64{0.3, 1.2, 2.5, 0.7, 0.05, 4}, []int{6})
		u := b.Const([]float64{0.3, 0.2, 0.5, 0.7, 0.05, 0.9}, []int{6})
		n := b.Const([]float64{0, 1, 2, 7, 3, 12}, []int{6})
		s := b.ParamSlice(0, nil)
		ps := pos(b, s)
		px := pos(b, x)
		var terms []ir.ID
		for _, pw := range [][]int{nil, {1}} {
			w := func(t ir.ID) ir.ID {
				if pw != nil {
					return sum(b, t)
				}
				return t
			}
			terms = append(terms,
				w(emit(b, ir.OpNormalLPDF, pw, y, x, ps)), w(emit(b, ir.OpNormalLPDF, pw, y, s, px)),
				w(emit(b, ir.OpNormalLPDF, pw, x, s, ps)),
				w(emit(b, ir.OpHalfNormalLPDF, pw, y, px)), w(emit(b, ir.OpHalfNormalLPDF, pw, px, ps)),
				w(emit(b, ir.OpHalfCauchyLPDF, pw, y, px)), w(emit(b, ir.OpHalfCauchyLPDF, pw, px, ps)),
				w(emit(b, ir.OpGammaLPDF, pw, y, px, ps)), w(emit(b, ir.OpGammaLPDF, pw, px, ps, px)),
				w(emit(b, ir.OpBetaLPDF, pw, u, px, ps)), w(emit(b, ir.OpBetaLPDF, pw, emit(b, ir.OpLogistic, nil, x), ps, px)),
				w(emit(b, ir.OpPoissonLogLPMF, pw, n, x)), w(emit(b, ir.OpPoissonLogLPMF, pw, n, s)))
		}
		return emit(b, ir.OpAddN, nil, terms...)
	}},
	{"dirichlet, multi_normal_cholesky", func(b *ir.Builder, x ir.ID) ir.ID {
		alpha := pos(b, b.ParamSlice(0, []int{3}))
		alphaRows := pos(b, b.ParamSlice(0, []int{2, 3})) // one α per event
		sx := emit(b, ir.OpSimplexFwd, nil, b.ParamSlice(3, []int{2}))
		ys := b.Const([]float64{0.2, 0.3, 0.5, 0.6, 0.1, 0.3}, []int{2, 3})
		l := emit(b, ir.OpCholesky, nil, emit(b, ir.OpAddDiag, nil,
			emit(b, ir.OpCovExpQuad, nil, b.Const([]float64{0, 1, 2}, []int{3}), b.Scalar(1.3), pos(b, b.ParamSlice(5, nil))), b.Scalar(0.5)))
		yn := b.Const([]float64{0.1, -0.4, 1.1, 0.8, 0.2, -1}, []int{2, 3})
		return emit(b, ir.OpAddN, nil,
			emit(b, ir.OpDirichletLPDF, nil, sx, alpha), emit(b, ir.OpDirichletLPDF, nil, ys, alpha),
			sum(b, emit(b, ir.OpDirichletLPDF, []int{1}, ys, alpha)),
			emit(b, ir.OpDirichletLPDF, nil, ys, alphaRows), sum(b, emit(b, ir.OpDirichletLPDF, []int{1}, ys, alphaRows)),
			emit(b, ir.OpMultiNormalCholLPDF, nil, yn, b.ParamSlice(0, []int{3}), l),
			sum(b, emit(b, ir.OpMultiNormalCholLPDF, []int{1}, b.ParamSlice(1, []int{3}), yn, l)))
	}},
}

// TestOpsGCC checks every op the generator covers, one small program
// each, compiled with gcc, against the ir reference at random points.
// program is the case's program of six parameters.
func (tc opCase) program() (*ir.Program, error) {
	b := ir.NewBuilder(6)
	x := b.ParamSlice(0, []int{6})
	return b.Finalize(tc.build(b, x))
}

func TestOpsGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is not on PATH: the generated CUDA C cannot be checked on the CPU (install gcc)")
	}
	for _, tc := range opCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each case waits mostly on its own gcc
			p, err := tc.program()
			if err != nil {
				t.Fatal(err)
			}
			c, err := cgen.NewGCC().Compile(p)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			const n = 16
			xs := conformance.Points(n, 6, 3)
			lps, grads := make([]float64, n), make([]float64, n*6)
			if err := c.LogDensityGrad(xs, lps, grads); err != nil {
				t.Fatal(err)
			}
			f := ir.NewFrame(p)
			want := make([]float64, 6)
			for i := range n {
				lp := f.Gradient(xs[i*6:(i+1)*6], want)
				if lp != lp {
					lp = math.Inf(-1)
				}
				if !near(lps[i], lp) {
					t.Errorf("point %d: log density %v, reference %v", i, lps[i], lp)
				}
				for j, w := range want {
					if !near(grads[i*6+j], w) {
						t.Errorf("point %d: gradient[%d] = %v, reference %v", i, j, grads[i*6+j], w)
					}
				}
			}
		})
	}
}

// near is agreement to 1e-12 relative (or 1e-13 absolute near zero).
func near(got, want float64) bool {
	if math.IsInf(want, 0) || math.IsNaN(want) {
		return got == want || math.IsNaN(got) && math.IsNaN(want)
	}
	return math.Abs(got-want) <= 1e-12*math.Max(math.Abs(want), 0.1)
}

func init() {
	opCases = append(opCases, opCase{"more scalar log densities, summed and pointwise", func(b *ir.Builder, x ir.ID) ir.ID {
		y := b.Const([]float64{0.3, 1.2, 2.5, 0.7, 0.05, 4}, []int{6})
		bin := b.Const([]float64{0, 1, 1, 0, 1, 0}, []int{6})
		n := b.Const([]float64{0, 1, 2, 7, 3, 12}, []int{6})
		tr := b.Const([]float64{0, 3, 2, 9, 3, 20}, []int{6})
		s := b.ParamSlice(0, nil)
		ps, px := pos(b, s), pos(b, x)
		var terms []ir.ID
		for _, pw := range [][]int{nil, {1}} {
			w := func(t ir.ID) ir.ID {
				if pw != nil {
					return sum(b, t)
				}
				return t
			}
			for _, op := range []ir.Op{ir.OpLogNormalLPDF, ir.OpCauchyLPDF, ir.OpLaplaceLPDF, ir.OpLogisticLPDF} {
				terms = append(terms, w(emit(b, op, pw, y, x, ps)), w(emit(b, op, pw, px, s, px)))
			}
			for _, op := range []ir.Op{ir.OpInvGammaLPDF, ir.OpWeibullLPDF} {
				terms = append(terms, w(emit(b, op, pw, y, px, ps)), w(emit(b, op, pw, px, ps, px)))
			}
			terms = append(terms,
				w(emit(b, ir.OpExponentialLPDF, pw, y, px)), w(emit(b, ir.OpExponentialLPDF, pw, px, ps)),
				w(emit(b, ir.OpUniformLPDF, pw, emit(b, ir.OpLogistic, nil, x), emit(b, ir.OpNeg, nil, ps), b.Scalar(1))),
				w(emit(b, ir.OpUniformLCDF, pw, emit(b, ir.OpLogistic, nil, x), emit(b, ir.OpNeg, nil, ps), b.Scalar(1))),
				w(emit(b, ir.OpUniformLCCDF, pw, emit(b, ir.OpLogistic, nil, x), emit(b, ir.OpNeg, nil, ps), b.Scalar(1))),
				w(emit(b, ir.OpBernoulliLogitLPMF, pw, bin, x)),
				w(emit(b, ir.OpBernoulliLPMF, pw, bin, emit(b, ir.OpLogistic, nil, x))),
				w(emit(b, ir.OpBinomialLPMF, pw, n, tr, emit(b, ir.OpLogistic, nil, x))),
				w(emit(b, ir.OpBinomialLogitLPMF, pw, n, tr, x)),
				w(emit(b, ir.OpPoissonLPMF, pw, n, px)), w(emit(b, ir.OpPoissonLPMF, pw, n, ps)),
				w(emit(b, ir.OpNegBinomialLPMF, pw, n, px, ps)), w(emit(b, ir.OpNegBinomialLPMF, pw, n, ps, px)))
		}
		return emit(b, ir.OpAddN, nil, terms...)
	}})
}

func init() {
	opCases = append(opCases,
		opCase{"student_t, half_student_t", func(b *ir.Builder, x ir.ID) ir.ID {
			y := b.Const([]float64{0.3, -1.2, 2.5, 0.7, 0.05, 4}, []int{6})
			s := b.ParamSlice(0, nil)
			ps, px := pos(b, s), pos(b, x)
			var terms []ir.ID
			for _, pw := range [][]int{nil, {1}} {
				w := func(t ir.ID) ir.ID {
					if pw != nil {
						return sum(b, t)
					}
					return t
				}
				terms = append(terms,
					w(emit(b, ir.OpStudentTLPDF, pw, y, px, x, ps)), w(emit(b, ir.OpStudentTLPDF, pw, x, ps, s, px)),
					w(emit(b, ir.OpHalfStudentTLPDF, pw, emit(b, ir.OpAbs, nil, y), px, ps)), w(emit(b, ir.OpHalfStudentTLPDF, pw, px, ps, px)))
			}
			return emit(b, ir.OpAddN, nil, terms...)
		}},
		opCase{"linear_recurrence", func(b *ir.Builder, x ir.ID) ir.ID {
			r1 := emit(b, ir.OpLinearRecurrence, nil, b.ParamSlice(0, nil), x, emit(b, ir.OpTanh, nil, x))
			r2 := emit(b, ir.OpLinearRecurrence, nil, b.ParamSlice(1, nil), x, emit(b, ir.OpTanh, nil, b.ParamSlice(2, nil)))
			return emit(b, ir.OpAddN, nil, emit(b, ir.OpDot, nil, r1, r1), emit(b, ir.OpDot, nil, r2, x))
		}},
		opCase{"matmul, tri_solve, mul_lower_self_transpose", func(b *ir.Builder, x ir.ID) ir.ID {
			a, _ := b.Reshape(x, []int{2, 3})
			at, _ := b.Reshape(emit(b, ir.OpSquare, nil, x), []int{3, 2})
			m := emit(b, ir.OpMatMul, nil, a, at) // 2×2
			l := emit(b, ir.OpCholesky, nil, emit(b, ir.OpAddDiag, nil, emit(b, ir.OpMulLowerTTr, nil, m), b.Scalar(3)))
			v := emit(b, ir.OpTriSolve, nil, l, b.ParamSlice(0, []int{2}))
			w := emit(b, ir.OpTriSolve, nil, l, m)
			return emit(b, ir.OpAddN, nil, emit(b, ir.OpDot, nil, v, v), emit(b, ir.OpDot, nil, w, w), sum(b, m))
		}})
}

func init() {
	opCases = append(opCases,
		opCase{"log_mat_mul_exp", func(b *ir.Builder, x ir.ID) ir.ID {
			m, _ := b.Reshape(x, []int{2, 3})
			mt, _ := b.Reshape(emit(b, ir.OpSquare, nil, x), []int{3, 2})
			v := emit(b, ir.OpLogMatMulExp, nil, b.ParamSlice(0, []int{2}), m) // [2]·[2×3] → [3]
			w := emit(b, ir.OpLogMatMulExp, nil, m, mt)                        // [2×3]·[3×2] → [2×2]
			return emit(b, ir.OpAddN, nil, emit(b, ir.OpDot, nil, v, v), sum(b, w))
		}},
		opCase{"categorical_logit", func(b *ir.Builder, x ir.ID) ir.ID {
			y := b.Const([]float64{2, 0, 1, 2}, []int{4})
			rows, _ := b.Reshape(emit(b, ir.OpConcat, nil, x, emit(b, ir.OpSquare, nil, x)), []int{4, 3})
			return emit(b, ir.OpAddN, nil,
				emit(b, ir.OpCategoricalLogitLPMF, nil, y, b.ParamSlice(0, []int{3})),
				sum(b, emit(b, ir.OpCategoricalLogitLPMF, []int{1}, y, b.ParamSlice(2, []int{3}))),
				emit(b, ir.OpCategoricalLogitLPMF, nil, y, rows),
				sum(b, emit(b, ir.OpCategoricalLogitLPMF, []int{1}, y, rows)))
		}})
}

func init() {
	opCases = append(opCases, opCase{"cholesky_corr, its log-Jacobian, lkj_corr_cholesky", func(b *ir.Builder, x ir.ID) ir.ID {
		y := b.ParamSlice(0, []int{6}) // K = 4
		l := emit(b, ir.OpCholCorrFwd, nil, y)
		y3 := b.ParamSlice(1, []int{3}) // K = 3
		l3 := emit(b, ir.OpCholCorrFwd, nil, y3)
		eta := pos(b, b.ParamSlice(5, nil))
		return emit(b, ir.OpAddN, nil,
			emit(b, ir.OpDot, nil, l, emit(b, ir.OpSquare, nil, l)),
			emit(b, ir.OpCholCorrLogJ, nil, y), emit(b, ir.OpCholCorrLogJ, nil, y3),
			emit(b, ir.OpLKJCorrCholLPDF, nil, l, eta), emit(b, ir.OpLKJCorrCholLPDF, nil, l3, b.Scalar(2)))
	}})
}

// Every family defined in accel/opdef, summed and pointwise, with its
// arguments made from the supports the definition declares: no family
// needs an entry here.
func init() {
	opCases = append(opCases, opCase{"accel/opdef families", func(b *ir.Builder, x ir.ID) ir.ID {
		counts := b.Const([]float64{0, 1, 2, 7, 3, 12}, []int{6})
		trials := b.Const([]float64{0, 3, 2, 9, 3, 20}, []int{6})
		s := b.ParamSlice(0, nil)
		arg := func(support string, scalar bool) ir.ID {
			v := x
			if scalar {
				v = s
			}
			switch kind, _, _ := strings.Cut(support, ":"); kind {
			case "Positive":
				return pos(b, v)
			case "UnitInterval":
				return emit(b, ir.OpLogistic, nil, v)
			case "NonNegInt", "BoundedInt":
				return counts
			case "Binary":
				return b.Const([]float64{0, 1, 1, 0, 1, 0}, []int{6})
			}
			return v
		}
		var terms []ir.ID
		for _, d := range opdef.Ops() {
			op := opNamed(d.Name)
			if op == ir.OpNop {
				panic("no ir op named " + d.Name)
			}
			if strings.HasPrefix(d.Support, "Bounded:") {
				continue // the uniform: its own case above
			}
			for _, pw := range [][]int{nil, {1}} {
				for _, scalar := range []bool{false, true} {
					args := []ir.ID{arg(d.Support, false)}
					for k, a := range d.Args[1:] {
						if a.Support == "NonNegInt" {
							args = append(args, trials) // a count parameter bounds the variate
							continue
						}
						args = append(args, arg(a.Support, scalar && k%2 == 0))
					}
					t := emit(b, op, pw, args...)
					if pw != nil {
						t = sum(b, t)
					}
					terms = append(terms, t)
				}
			}
		}
		return emit(b, ir.OpAddN, nil, terms...)
	}})
}

// opNamed is the op whose printed name is name (OpNop for none).
func opNamed(name string) ir.Op {
	for op := ir.Op(1); op < ir.NumOps; op++ {
		if ir.Def(op).Name == name {
			return op
		}
	}
	return ir.OpNop
}
