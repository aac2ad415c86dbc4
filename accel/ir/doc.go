// Package ir is the instruction set of compiled models and its reference
// semantics: the one contract between the model compiler (package ppl) and
// every backend (accel/cpu, accel/cuda). No backend imports ppl.
//
// A Program is a flat list of instructions over one float64 buffer (a
// Frame). Slots [0, Dim) hold the unconstrained position; small constants
// sit in place from Program.Init; every other value is written by
// exactly one instruction.
//
// Large constants — a model's data — are not in frames: the program
// holds each once (Program.Shared, at slots from FrameSize on, past every
// frame) and each frame reads it in place through Frame.Val, without an
// adjoint (data carry no gradient). Builder.SharedConst takes the
// caller's slice itself, so a model and its programs hold one copy of
// the data however many chains run; Const copies. Kernels that keep slot
// offsets (the plan's, accel/fuse's) read a vector operand that may be
// data through Frame.Val; scalars are never shared (SharedMin), so the
// scalar fast path keeps its offsets. A scan body keeps its constants in
// its frames, which move from step to step. Forward runs the instructions in order;
// Gradient then sweeps them in reverse, each op adding its contribution
// into the adjoints of the inputs that depend on the position. Nothing is
// allocated per evaluation: a Frame owns all the memory, scratch included.
//
// Build programs with a Builder: it checks shapes as it goes, so a model
// error is reported when the model is built, not when it is sampled.
//
//	b := ir.NewBuilder(2)
//	x := b.ParamSlice(0, []int{2})
//	y, _ := b.Emit(ir.OpExp, []ir.ID{x}, nil, -1)
//	s, _ := b.Emit(ir.OpSum, []ir.ID{y}, nil, -1)
//	p, _ := b.Finalize(s)
//	f := ir.NewFrame(p) // one per goroutine
//	lp := f.Gradient([]float64{0.1, 0.2}, grad)
//
// The op list and each op's inputs, immediates and output are in ops.go;
// each file registers the semantics of a family of ops: elementwise.go
// (unary, broadcasting binary, log_mix), reduce.go, structure.go,
// linalg.go, scan.go (recurrences, with the body's calling convention),
// bijectors.go (constraining transforms, their log-Jacobians and the
// exported inverses), lpdf_*.go (log densities). Package irtest checks ops
// and programs against finite differences, and holds the fixtures: the
// programs ppl compiles for the posteriordb models and for the small
// models of accel's tests, so that no package under accel, tests
// included, imports ppl (internal/layers fails when one does).
//
// A Frame runs a program through its execution plan (plan.go), which
// Finalize derives without touching Program.Instrs: kernels (Kernel,
// TermKernel) run in place of an instruction and of the instructions it
// absorbs. This package plans what belongs to single ops — a bound with
// its log-Jacobian (a scalar bound, τ = exp(u), runs without dispatch in
// Gradient) and matvec with a Cholesky factor. The structures of models
// (a prior with a constant scale, the sum of a model's priors, normal_lpdf
// of a + b·z — the non-centred hierarchy, with the standard-normal prior
// of z — or of X·β, covariance → jitter → Cholesky, an HMM's
// forward-algorithm scan) are package accel/fuse's, the Planner that
// Finalize calls once it is imported (accel/cpu imports it). Terms that
// only the log density's sum reads get their gradient during the forward
// pass (Step.Leaf), so the reverse sweep leaves them out, and a plan of
// kernels only takes a shorter Gradient. Other backends keep reading
// Instrs and the ops' semantics; Program.Fused counts the fused kernels
// and Frame.Unfused runs instruction by instruction. Package planmodels
// checks both runs agree on every posteriordb model (irtest's fixtures).
//
// Every exponential in the semantics and in the plan's kernels is Exp
// (exp.go), the package's own scalar exp, not math.Exp: the bound
// transforms (lb + exp(u), fused or not, so both runs agree bit for bit),
// exp, expm1's derivative, logistic, softplus, log-sum-exp, poisson_log and
// the log densities; only the squared-exponential covariance keeps math.Exp
// (see gp_exp_quad_cov in linalg.go). The reason is latency. In a log
// density the exponential of a scale (τ = exp(u)) sits at the head of the
// critical path, and math.Exp on amd64 (exp_amd64.s: a degree-8 polynomial
// in x/16, then four squarings) is one long serial chain; Exp's is three
// multiply-adds after the reduction (figures: bench/README.md, section
// "The scalar exponential"). Exp reduces by a table of
// 2^(j/128) and a degree-5 polynomial, so its chain after the reduction is
// three multiply-adds. Its error, measured against a 200-bit math/big
// reference on 2 million random points over the whole range (near 0, near
// overflow, subnormal results, the reduction's hard cases), is at most
// 0.508 ulp (exp_test.go checks 0.52 on a sample); math.Exp's on amd64
// reaches 1.5 ulp and it returns +Inf above 709.436, where e^x is still
// finite (Exp returns the finite value, as the pure Go math.Exp does).
// Package accel/vec uses Exp where it mirrors these semantics, so the
// lockstep evaluator still agrees with a Frame. The hand-written comparison
// models (package handwritten, beside the posteriordb loader under
// internal/) are plain Go and use math.Exp.
package ir
