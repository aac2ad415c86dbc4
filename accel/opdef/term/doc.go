// Package term is the value and the partials of one element of the
// accel/opdef log densities that ask for it (Dist.Scalar), as Go
// functions small enough to inline: NormalValue(y, mu, logSigma,
// invSigma), NormalGrad(y, mu, invSigma) (dy, dmu, dsigma), and the
// half-normal's and half-Cauchy's. The costly calls on parameters alone
// (log σ, 1/σ) are arguments, so that a caller computes them once per
// scale, as the generated loops do. The fused kernels of accel/fuse and
// accel/vec call them rather than spell the formulas.
//
// All of it is written by cmd/genops (terms_gen.go); a package of its
// own so that the generator, which imports accel/opdef, never depends on
// its own output.
package term
