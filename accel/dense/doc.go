// Package dense holds the small dense linear-algebra kernels that several
// evaluators and samplers share: Dot and Axpy (a plain loop below KernelMin
// elements, gonum's assembly above), and the Cholesky factorisation with
// its reverse mode. One implementation serves accel/ir's matrix ops,
// accel/fuse's fused kernels, accel/vec's regression statistics and
// ppl/mcmc's dense metric, so none keeps a copy of its own.
//
// Matrices are row-major []float64 of n×n; only lower triangles are read
// where the doc says so. Nothing here allocates.
package dense
