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
// Elementwise ops, reductions and the common log densities have lockstep
// kernels; every other op runs per chain through the reference semantics
// of package ir, so every program evaluates, and the results agree with
// ir.Frame to rounding. An evaluator is not safe for concurrent use: give
// each goroutine its own.
//
// Fused forward kernels: a log-sum-exp of a normal's pointwise log
// density of a per-chain scalar (a finite normal mixture) runs as one
// AVX2 pass that sums the components' exponentials in registers
// (mixSumAVX2), then one vector log. When that mixture is the whole log
// density of a one-dimensional model, DensityForm reports it and
// ForwardDensity gives the sums without the log, for samplers that can
// compare densities directly (random-walk Metropolis).
package vec
