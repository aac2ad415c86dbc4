// Package fuse finds the structures of models in an accel/ir program — a
// prior with a constant scale, the sum of a model's priors, the
// non-centred hierarchy normal(y | a + b·z, σ) with z's standard-normal
// prior, the regression likelihood normal(y | X·β, σ), a Gaussian
// process's covariance → jitter → Cholesky, an HMM's forward algorithm
// written as a scan — and gives accel/ir's Frame a fused kernel for each.
// Plan is a Planner of accel/ir, passed explicitly where a program is
// built: ppl's compiler gives it to the builder (ir.Builder.SetPlanner),
// and accel/cpu's backend gives it to a program read from the wire that
// was planned where it was built (ir.Program.NeedsPlanner). Importing
// this package installs nothing, so whether a program is fused does not
// depend on what a binary links.
//
// The structures are found once (structure.go): AffineNormals is the one
// matcher of the non-centred hierarchy and LinearNormals the one of the
// regression likelihood (X·β as matvecs, scaled data columns and
// intercepts). This package's plan and accel/vec's lockstep batches both
// read them, each adding only the conditions of its own layout (the plan's
// regression kernel takes one matvec; vec's takes any sum of terms);
// neither searches the instructions for them.
//
// Why a package of its own: the instruction set (accel/ir) defines what a
// program means; which chains of instructions a model writes, and how to
// run them fast on a CPU, is another concern that grows with every model
// tuned. accel/ir keeps the plan's mechanism (Step,
// Kernel, TermKernel, the planned sweeps in Frame.Gradient) and the two
// kernels that belong to single ops (a bound with its log-Jacobian, whose
// scalar form Gradient calls without dispatch; matvec with a Cholesky
// factor). The kernels here reach the frame only through its exported
// API (V, Adj, Val, AdjOf, Grad, Private), through the Kernel
// interface, as accel/ir's own kernels are called.
//
// The kernels:
//
//   - kScalePrior: normal, half-normal or half-Cauchy log density with a
//     scale that carries no gradient (a prior's constant scale): log σ and
//     1/σ are memoised per frame instead of taken on every evaluation.
//   - kGammaPrior: a gamma log density whose shape and rate carry no
//     gradient, with lgamma(α) and log β memoised.
//   - kAffineNormal (affine.go): normal_lpdf(y | a + b·z, σ) written as
//     mul → add → normal_lpdf — the non-centred parameterisation of a
//     hierarchical model (eight schools' theta = mu + tau·theta_tilde) —,
//     one loop forward and one backward, no adjoint of the intermediate.
//     When z has a normal prior with constant mean and scale (z ~ N(0, 1),
//     the usual companion of that parameterisation) the prior is absorbed
//     and computed in the same loops. With a σ per element and the prior,
//     its leaf form is affineLean: the all-σ-positive loop in a function
//     of its own, which keeps few values live (the general one spills).
//   - kTermSum (sum.go): the addn of log-density terms with the
//     constant-scale priors among its terms (kScalePrior kernels only it
//     reads) evaluated in place, scalar ones without loops: a model's
//     priors cost one step, not one each.
//   - kRegressionNormal: normal_lpdf(y | X·β, σ) written as matvec →
//     normal_lpdf with data X and y and one σ: the residuals are kept and
//     the gradient in β is Xᵀr/σ², as a hand-written regression does,
//     without the adjoint of X·β.
//   - kGPCholesky: cholesky(add_diag(cov_exp_quad(x, α, ρ), δ)) with data
//     x and δ, the covariance built straight into the factorisation's
//     input (lower triangle only) and the reverse sweep going from the
//     factor's adjoint to α and ρ without the intermediate adjoints.
//   - kHMMScan (hmm.go): a scan running an HMM's forward algorithm with
//     normal emissions, as one loop over the steps.
//
// A fused kernel writes every value of the chain it replaces (so outputs
// read after Forward are unchanged); it does not fill the adjoints of the
// intermediate values, which no caller reads. Instructions it absorbs are
// marked Skip. Results agree with the instruction-by-instruction run up
// to rounding (the sums are associated differently); ir.Frame.Unfused runs
// the plain instructions instead, for checking.
//
// Leaves. A log density is a sum of terms, and in Gradient the adjoint of
// a term that only the target sum reads is exactly 1 before the reverse
// sweep starts. A term kernel (termKernel: kAffineNormal, kTermSum) whose
// outputs are such terms is a leaf (markLeaves sets ir.Step.Leaf): in
// Gradient it runs ForwardGrad, its value and its gradient in one pass,
// adding into the adjoints of its inputs as it goes, and the reverse sweep
// skips it. This is sound because Gradient clears the adjoints the leaves
// add into before the forward pass (the others after it) and a value's
// adjoint is only read, by its producer's backward, in the reverse sweep,
// after every reader has added to it. For a small model such as eight
// schools the reverse sweep is then only the bound of tau, and the forward
// pass is one loop over the schools, as in hand-written code. Forward (no
// gradient) runs the kernels' plain Forward; both give the same log
// density.
//
// The formulas are accel/opdef's: a term of the normal, half-normal or
// half-Cauchy and its partials are term.NormalValue, NormalGrad,
// HalfNormalValue, … (package accel/opdef/term, generated from the
// definitions, given log σ and 1/σ, and inlined), the gamma's
// term.GammaValue (given log β and lgamma(α)). What the kernels add is
// algebra over many terms: with one σ, Σ-½z_i² = -½Σ(y_i-μ_i)²/σ²
// (normalSquares, checked against the sum of the terms), the gradients
// summed over the elements, and in kAffineNormal's loops with some
// σ_i ≤ 0 the term as its cached normaliser - ½r².
//
// Calls cost as much as arithmetic at this scale (Go saves every live
// register around a call): the hot paths of kTermSum and kAffineNormal
// write small helpers (memoScale, normalFromSquares) out by hand. Work
// that depends on data only is done once per frame: kAffineNormal with a
// σ per element keeps Σ log σ_i-normalisers and whether every σ_i > 0,
// and then sums only the squared residuals; a leaf kTermSum does not write
// the adjoints of terms nobody reads (those of other leaves).
package fuse
