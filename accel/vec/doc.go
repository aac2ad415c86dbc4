// Package vec evaluates a model program (package accel/ir) for many chains
// in lockstep, and holds the vector exp and log kernels it runs on.
//
// Values are laid out struct-of-arrays: slot i of a value that depends on
// the position holds B chains side by side, so each instruction runs as
// one loop over slots × chains and the cost of dispatching it is paid once
// per batch, not once per chain. Values that do not depend on the position
// (data and what is computed from data only) are stored once and shared.
//
//	b := vec.New(prog, 1024)          // an evaluator for 1024 chains
//	b.LogDensityGrad(xs, lps, grads)  // xs, grads [chain][dim] flat: chain c at c*dim
//
// Lockstep kernels cover every elementwise op (generated from accel/opdef's
// definitions, elementwise_gen.go), reductions, the transforms
// of bounded parameters (lower, upper, interval and their log-Jacobians),
// linear_recurrence, concat, slice, and every scalar log density of
// accel/opdef with its tails (the densities generated as kernels of their
// own, lpdf_gen.go, the normal with σ per chain included; the tails in
// term form, run by one skeleton, term.go, over accel/ir's generated row
// loops). The specialisations the density kernels keep (a shared
// parameter's constants as scalars, per-chain rows of the calls on one
// argument, the NaN-guarded rows below) are those bench/README.md
// measures; the tails have none. The densities take a
// parameter's constants (log σ, 1/σ, lgamma(α)) once per element when it
// is shared and once per chain when it is a per-chain scalar, and read
// them as scalars when every chain shares them. A location-scale
// family's rows of log σ and 1/σ per chain are NaN where σ ≤ 0, so that
// its loop over chains, a function of its own, tests no support
// (densities.go). Every other op runs per chain
// through the reference semantics of package ir, so every program
// evaluates, and the results agree with ir.Frame to rounding. An
// evaluator is not safe for concurrent use: give each goroutine its own.
//
// Fused likelihoods (found by New, for gradients and forward passes):
// a linear regression, normal(y | X·β, σ) with X data (a matvec, or
// per-chain scalars times data vectors, plus intercepts), runs from
// sufficient statistics centred at the least-squares fit, O(k²) per chain
// whatever the number of observations (linear.go, on accel/fuse's
// LinearNormals match); a non-centred
// hierarchical likelihood, normal(y | a + b·z, σ) with data σ, runs in
// one sweep each way, with z's standard-normal prior (affine.go; the
// structure is accel/fuse's AffineNormals match, the one the CPU
// interpreter's plan reads too). The values they skip (X·β, b·z) are not formed in V, except a θ that is a
// program output.
//
// Fused forward kernels: a log-sum-exp of a normal's pointwise log
// density of a per-chain scalar (a finite normal mixture) runs as one
// AVX2 pass that sums the components' exponentials in registers
// (mixSumAVX2), then one vector log. When that mixture is the whole log
// density of a one-dimensional model, DensityForm reports it and
// ForwardDensity gives the sums without the log, for samplers that can
// compare densities directly (random-walk Metropolis).
package vec
