package ir

import "fmt"

// Op is an instruction code. The list is the whole instruction set; each
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
const (
	OpNop Op = iota

	// Elementwise unary.
	OpNeg
	OpExp
	OpLog
	OpLog1p
	OpExpm1
	OpSqrt
	OpSquare
	OpLogistic // 1/(1+exp(-x)), Stan's inv_logit
	OpSoftplus // log(1+exp(x)), Stan's log1p_exp
	OpLgamma
	OpDigamma
	OpAbs
	OpLogit
	OpTanh
	OpInv // 1/x

	// Elementwise binary (broadcasting).
	OpAdd
	OpSub
	OpMul
	OpDiv
	OpPow

	// Elementwise ternary: log(t*exp(a) + (1-t)*exp(b)), Stan's log_mix.
	OpLogMix

	// Reductions to a scalar.
	OpSum
	OpDot // dot(a, b), equal lengths
	OpLogSumExp
	OpAddN // sum of any number of scalars (the target)

	// Structure.
	OpGather    // out[i] = in[Table[i]] (0-based), shape [len(Table)]
	OpGatherRow // matrix in [n×k], Table picks rows: out [len(Table)×k]
	OpConcat    // concatenation of the inputs' elements; Ints = output shape
	OpSlice     // out = in[Ints[0] : Ints[0]+Ints[1]]
	OpFill      // broadcast a scalar to Ints (output shape)

	// Linear algebra (matrices row-major).
	OpMatVec      // [n×k] · [k] → [n]
	OpMatMul      // [n×k] · [k×m] → [n×m]
	OpCholesky    // lower Cholesky factor of a symmetric positive-definite [n×n]
	OpTriSolve    // L x = b for lower-triangular L [n×n], b [n] or [n×m]
	OpCovExpQuad  // x [n] (or [n×d]), alpha, rho → alpha² exp(-|xi-xj|²/(2ρ²)) [n×n]
	OpAddDiag     // [n×n] + d on the diagonal, d scalar or [n]
	OpMulLowerTTr // L Lᵀ for lower-triangular L

	// Recurrence: runs Body Ints[0] times; see scan.go for the calling
	// convention (carried state, per-step sequence slices, stacked output).
	OpScan

	// Bijectors (unconstrained → constrained) and their log-Jacobians.
	// Bounds are inputs, so a bound may be an expression of parameters.
	OpLowerFwd // x, lb → lb + exp(x)
	OpLowerLogJ
	OpUpperFwd // x, ub → ub - exp(x)
	OpUpperLogJ
	OpIntervalFwd // x, lb, ub → lb + (ub-lb)·logistic(x)
	OpIntervalLogJ
	OpOrderedFwd // y1 = x1, yk = y(k-1) + exp(xk)
	OpOrderedLogJ
	OpPosOrderedFwd // y1 = exp(x1), yk = y(k-1) + exp(xk)
	OpPosOrderedLogJ
	OpSimplexFwd // stick-breaking, [K-1] → [K]
	OpSimplexLogJ
	OpCholCorrFwd // [K(K-1)/2] → lower Cholesky factor of a correlation matrix [K×K]
	OpCholCorrLogJ

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

	NumOps
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
}

// Val is the slots of value id.
func (f *Frame) Val(id ID) []float64 { return f.P.Val(f.V, id) }

// AdjOf is the adjoint slots of value id.
func (f *Frame) AdjOf(id ID) []float64 { return f.P.Val(f.Adj, id) }

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
