// Package term is the value and the partials of one element of the
// accel/opdef log densities that ask for it (Dist.Scalar), as Go
// functions small enough to inline: NormalValue(y, mu, logSigma,
// invSigma), NormalGrad(y, mu, invSigma) (dy, dmu, dsigma), the
// half-normal's and half-Cauchy's, and GammaValue(y, alpha, beta,
// logBeta, lgammaAlpha) with GammaGrad. The costly calls on parameters
// alone (log σ, 1/σ, log β, lgamma(α), ψ(α)) are arguments, so that a
// caller computes them once per parameter value, as the generated loops
// do; a call on the variate (the gamma's log y) is the function's own. The fused kernels of accel/fuse and
// accel/vec call them rather than spell the formulas.
//
// All of it is written by cmd/genops (terms_gen.go); a package of its
// own so that the generator, which imports accel/opdef, never depends on
// its own output.
package term
