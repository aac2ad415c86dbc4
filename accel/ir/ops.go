package ir

import "fmt"

// Op is an instruction code. The list is the whole instruction set (the
// CPU interpreter's fused kernels, plan.go, are not ops: they replace
// chains of these ops inside a Frame only); each
// op's semantics (shape rule, forward, reverse) are registered by the file
// that implements it, through register, so that a backend can be checked
// against this reference op by op.
type Op uint16

// Conventions for every op:
//   - Elementwise ops broadcast: each input has the output's length or
//     length 1 (a scalar).
//   - Log-density ops (…LPDF, …LPMF) take the variate first, then the
//     parameters, and give the sum of the normalised log density as a
//     scalar. With Ints[0] == 1 ("pointwise") they give one term per
//     element of the variate instead (for mixtures and pointwise
//     log-likelihood).
//   - A bijector op maps unconstrained slots to constrained values; its
//     …LogJ partner takes the same inputs and gives the scalar log
//     absolute Jacobian determinant.
//   - Backward runs after Forward on the same frame and adds only into the
//     adjoints of inputs for which Frame.Grad is true. An op may keep
//     values from Forward for Backward in its Scratch (exp(x) of a bound,
//     the weights of log_sum_exp, a scan's step frames), or cache data
//     there once per frame.
const (
	OpNop Op = iota

	// Elementwise unary: one input x of any shape; the output has x's
	// shape. No Ints, no Table.
	OpNeg      // -x
	OpExp      // exp(x)
	OpLog      // log(x)
	OpLog1p    // log(1+x)
	OpExpm1    // exp(x)-1
	OpSqrt     // √x
	OpSquare   // x²
	OpLogistic // 1/(1+exp(-x)), Stan's inv_logit, without overflow
	OpSoftplus // log(1+exp(x)), Stan's log1p_exp, without overflow
	OpLgamma   // log|Γ(x)|
	OpDigamma  // ψ(x) (derivative: trigamma)
	OpAbs      // |x| (derivative 0 at 0)
	OpLogit    // log(x/(1-x))
	OpTanh     // tanh(x)
	OpInv      // 1/x
	OpStep     // 1 where x > 0, else 0 (derivative 0: of data, or of an enumerated discrete value)

	// Elementwise binary: inputs a, b, each with the output's length or
	// length 1 (broadcast); the output has the shape of the longer input
	// (of a when the lengths are equal). No Ints, no Table.
	OpAdd        // a+b
	OpSub        // a-b
	OpMul        // a·b
	OpDiv        // a/b
	OpPow        // a^b (a ≥ 0 for a gradient in b)
	OpMin        // min(a, b) (NaN in, NaN out; the gradient goes to a on ties)
	OpMax        // max(a, b) (likewise)
	OpLogDiffExp // log(exp(a) - exp(b)), b ≤ a (-Inf where b = a)

	// Elementwise ternary, broadcasting like the binary ops: inputs t, a,
	// b → log(t·exp(a) + (1-t)·exp(b)), Stan's log_mix.
	OpLogMix

	// Reductions: the output is a scalar.
	OpSum       // x (any shape) → Σ x
	OpDot       // a, b (equal lengths, any shapes) → Σ a·b
	OpLogSumExp // x (any shape) → log Σ exp(x), stable
	OpAddN      // any number of scalars → their sum (the target)

	// Structure.
	OpGather    // x (any shape, read flat), Table → out[i] = x[Table[i]] (0-based), shape [len(Table)]
	OpGatherRow // x [n×k], Table of row numbers → [len(Table)×k]
	OpConcat    // any inputs → their elements one after another; Ints = output shape (nil: a vector)
	OpSlice     // x (read flat), Ints = [start, length] → x[start : start+length], shape [length]
	OpFill      // scalar x, Ints = output shape → x in every element

	// Linear algebra; matrices are row-major. Ops marked "lower" read the
	// lower triangle (diagonal included) of their matrix input only.
	OpMatVec      // A [n×k], v [k] → A·v [n]
	OpMatMul      // A [n×k], B [k×m] → A·B [n×m]
	OpCholesky    // A [n×n] symmetric positive definite (lower) → its lower Cholesky factor L [n×n]; NaN when not positive definite
	OpTriSolve    // L [n×n] (lower), b [n] or [n×m] → L⁻¹b, b's shape
	OpCovExpQuad  // x [n] or [n×d], alpha (scalar), rho (scalar) → K [n×n], K_ij = α² exp(-|x_i-x_j|²/(2ρ²)) (no jitter: use OpAddDiag)
	OpAddDiag     // A [n×n], d (scalar or [n]) → A with d added to its diagonal
	OpMulLowerTTr // L [n×n] (lower) → L·Lᵀ [n×n]
	// A [k] or [n×k], B [k×m] → log(exp(A)·exp(B)), [m] or [n×m]:
	// out_ij = log Σ_l exp(A_il + B_lj), stable (Pyro's logmatmulexp; one
	// step of an HMM's forward algorithm in log space is
	// logmatmulexp(α, log Γ) + log emission).
	OpLogMatMulExp

	// Recurrence: In = [carry inits (C)…, sequences (S), leading axis T…,
	// statics…], Ints = [T, C, S], Body = the step's sub-program → the
	// values the body emits at each step stacked, [T] ++ emitted shape.
	// See scan.go for the body's calling convention.
	OpScan
	// x0 (scalar), a, b (each [T] or a scalar) → x [T] with
	// x_t = a_t + b_t·x_{t-1}, x_{-1} = x0: a first-order linear
	// recurrence in one op (GARCH(1,1) variances, ARMA(1,1) errors, AR(1)
	// states, random walks) at the cost of a hand-written loop.
	OpLinearRecurrence

	// Bijectors (unconstrained → constrained) and their log-Jacobians
	// (same inputs, scalar log |det J|; see bijectors.go for formulas and
	// the exported inverse functions). Bounds are inputs, each a scalar or
	// one per element, so a bound may be an expression of parameters.
	OpLowerFwd       // x, lb → lb + exp(x), x's shape
	OpLowerLogJ      // x, lb → Σ x
	OpUpperFwd       // x, ub → ub - exp(x), x's shape
	OpUpperLogJ      // x, ub → Σ x
	OpIntervalFwd    // x, lb, ub → lb + (ub-lb)·logistic(x), x's shape
	OpIntervalLogJ   // x, lb, ub → Σ log(ub-lb) + log σ(x) + log(1-σ(x))
	OpOrderedFwd     // x [K] → y₀ = x₀, y_k = y_{k-1} + exp(x_k), [K]
	OpOrderedLogJ    // x [K] → Σ_{k≥1} x_k
	OpPosOrderedFwd  // x [K] → y₀ = exp(x₀), y_k = y_{k-1} + exp(x_k), [K]
	OpPosOrderedLogJ // x [K] → Σ x_k
	OpSimplexFwd     // x [K-1] → Stan's stick-breaking simplex [K]
	OpSimplexLogJ    // x [K-1] → log |det| over the first K-1 coordinates
	OpCholCorrFwd    // x [K(K-1)/2] → lower Cholesky factor of a K×K correlation matrix, [K×K] (Stan's, via tanh)
	OpCholCorrLogJ   // x [K(K-1)/2] → log |det| over the strictly lower entries

	// Log densities and mass functions.
	OpNormalLPDF       // y, mu, sigma
	OpHalfNormalLPDF   // y, sigma
	OpStudentTLPDF     // y, nu, mu, sigma
	OpHalfStudentTLPDF // y, nu, sigma
	OpCauchyLPDF       // y, mu, sigma
	OpHalfCauchyLPDF   // y, sigma
	OpLaplaceLPDF      // y, mu, b
	OpLogisticLPDF     // y, mu, s
	OpLogNormalLPDF    // y, mu, sigma
	OpExponentialLPDF  // y, rate
	OpGammaLPDF        // y, alpha (shape), beta (rate)
	OpInvGammaLPDF     // y, alpha (shape), beta (scale)
	OpWeibullLPDF      // y, k (shape), lambda (scale)
	OpBetaLPDF         // y, alpha, beta
	OpUniformLPDF      // y, lower, upper
	OpBernoulliLPMF    // y, p
	OpBernoulliLogitLPMF
	OpBinomialLPMF // y, n, p
	OpBinomialLogitLPMF
	OpPoissonLPMF          // y, lambda
	OpPoissonLogLPMF       // y, log lambda
	OpNegBinomialLPMF      // y, mu, phi (Stan's neg_binomial_2)
	OpCategoricalLogitLPMF // y (values 0..K-1), logits [K] or [N×K]
	OpDirichletLPDF        // y [K], alpha [K]
	OpMultiNormalCholLPDF  // y [K] or [N×K], mu [K], L [K×K]
	OpLKJCorrCholLPDF      // L [K×K], eta

	numHandOps // the ops declared here; lpdf_gen.go declares the ones defined only in accel/opdef, then NumOps
)

// Frame is one evaluation's memory: values and their adjoints, laid out as
// Program.Values says.
type Frame struct {
	P   *Program
	V   []float64
	Adj []float64
	// subs are the frame headers of scan bodies, shared by the whole tree
	// of frames (see NewFrame).
	subs map[*Program]*Frame
	// vals and adjs are every value's slots in V and Adj, precomputed by
	// NewFrame (nil in scan body frames, whose V moves from step to step).
	vals, adjs [][]float64
	// gradSpans are the adjoint ranges Gradient clears.
	gradSpans [][2]int
	// plannedSpans are those of a planned sweep (see absorbedSlots),
	// leafSpans the part of them cleared before the forward pass (see
	// splitSpans).
	plannedSpans, leafSpans [][2]int
	// steps are the precomputed views of the step frames of this frame's
	// own scans (see scan.go); nil in body frames.
	steps map[*Instr]*stepViews
	// Unfused makes the frame run every instruction through its registered
	// semantics, ignoring the program's execution plan (plan.go): for
	// checking the fused kernels, or to time the plain interpreter.
	Unfused bool
	// priv is the fused kernels' private memory (memoised logarithms,
	// residuals), NaN-initialised by NewFrame.
	priv []float64
}

// Val is the slots of value id.
func (f *Frame) Val(id ID) []float64 {
	if f.vals != nil {
		return f.vals[id]
	}
	return f.P.Val(f.V, id)
}

// AdjOf is the adjoint slots of value id.
func (f *Frame) AdjOf(id ID) []float64 {
	if f.adjs != nil {
		return f.adjs[id]
	}
	return f.P.Val(f.Adj, id)
}

// Grad reports whether the reverse sweep must propagate into value id.
func (f *Frame) Grad(id ID) bool { return f.P.Values[id].Grad }

// OpDef is the reference semantics of one op.
type OpDef struct {
	Name string
	// Arity is the number of inputs, or -1 for any number (at least one).
	Arity int
	// Shape checks the inputs and returns the output shape. It may read
	// in.Ints and p.Tables. Errors say what is wrong in the user's terms
	// (the compiler adds the variable's name).
	Shape func(p *Program, in *Instr, args [][]int) ([]int, error)
	// Forward computes f.Val(in.Out) from the inputs.
	Forward func(f *Frame, in *Instr)
	// Backward adds the out-adjoint's contribution into the adjoints of
	// the inputs for which f.Grad is true. It may read forward values.
	Backward func(f *Frame, in *Instr)
	// Scratch, when set, says how many slots of private memory an
	// instruction needs (for example a scan's per-step frames); the
	// builder allocates them as Instr.Scratch.
	Scratch func(p *Program, in *Instr) int
}

var defs [NumOps]OpDef

// register installs the semantics of op. It panics on a second
// registration: that is a programming error.
func register(op Op, d OpDef) {
	if defs[op].Forward != nil {
		panic(fmt.Sprintf("ir: op %d (%s) registered twice", op, d.Name))
	}
	defs[op] = d
}

// Def returns the semantics of op; Forward is nil when op is not
// implemented yet.
func Def(op Op) *OpDef { return &defs[op] }

func (op Op) String() string {
	if op < NumOps && defs[op].Name != "" {
		return defs[op].Name
	}
	return fmt.Sprintf("op%d", op)
}
