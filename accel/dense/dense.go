package dense

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// KernelMin is the length below which a plain loop beats the call into
// gonum's assembly kernels.
const KernelMin = 16

// OnHost is true. A marked function's branch on it (if OnHost() && …)
// is the CPU's shortcut, gonum's assembly kernels for long vectors; the
// device translation (cmd/genops) leaves the branch out and runs the loop
// after it, which computes the same sum in its plain order.
func OnHost() bool { return true }

// Dot is Σ a·b over len(a) (b at least as long).
//
//gb:cuda gb_dot
func Dot(a, b []float64) float64 {
	if OnHost() && len(a) >= KernelMin {
		return floats.Dot(a, b[:len(a)])
	}
	b = b[:len(a)]
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// Axpy adds alpha·x into y (len(x) elements).
//
//gb:cuda gb_axpy
func Axpy(y []float64, alpha float64, x []float64) {
	if OnHost() && len(x) >= KernelMin {
		floats.AddScaled(y[:len(x)], alpha, x)
		return
	}
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

// maxInvDiag bounds the matrices whose inverse diagonal Cholesky and
// CholeskyReverse keep on the stack.
const maxInvDiag = 64

// Cholesky writes the lower Cholesky factor of the n×n matrix whose lower
// triangle is a into l (upper triangle zero). It returns -1, or the first
// row whose pivot is not above rel times its diagonal entry of a (rel 0:
// not positive): a is then not (numerically) positive definite and l is
// partly written. Up to maxInvDiag rows it multiplies by the inverses of
// the diagonal, kept on the stack, instead of dividing by it at every
// element.
//
//gb:cuda gb_cholesky
func Cholesky(a, l []float64, n int, rel float64) int {
	var invBuf [maxInvDiag]float64
	var inv []float64
	if n <= maxInvDiag {
		inv = invBuf[:n]
	}
	for i := range n {
		for j := 0; j <= i; j++ {
			s := a[i*n+j]
			ri, rj := l[i*n:i*n+j], l[j*n:j*n+j]
			for k, v := range ri {
				s -= v * rj[k]
			}
			if i == j {
				if !(s > rel*a[i*n+i]) || !(s > 0) {
					return i
				}
				l[i*n+i] = math.Sqrt(s)
				if inv != nil {
					inv[i] = 1 / l[i*n+i]
				}
			} else if inv != nil {
				l[i*n+j] = s * inv[j]
			} else {
				l[i*n+j] = s / l[j*n+j]
			}
		}
		for j := i + 1; j < n; j++ {
			l[i*n+j] = 0
		}
	}
	return -1
}

// CholeskyReverse adds into ga (lower triangle) the adjoint of A given
// the adjoint lb of its factor L, by running the factorisation's steps
// backwards (the unblocked reverse mode of Murray 2016, "Differentiation
// of the Cholesky decomposition"): each step s = A_ij - Σ_{k<j} L_ik L_jk,
// then L_ii = √s or L_ij = s/L_jj, is undone in the reverse order of the
// forward pass. w (n×n) holds the working copy of L̄.
//
//gb:cuda gb_cholesky_reverse
func CholeskyReverse(l, lb, ga, w []float64, n int) {
	var invBuf [maxInvDiag]float64
	var inv []float64
	if n <= maxInvDiag {
		inv = invBuf[:n]
		for j := range inv {
			inv[j] = 1 / l[j*n+j]
		}
	}
	for i := range n {
		copy(w[i*n:i*n+i+1], lb[i*n:i*n+i+1])
	}
	for i := n - 1; i >= 0; i-- {
		li, wi := l[i*n:i*n+i+1], w[i*n:i*n+i+1]
		for j := i; j >= 0; j-- {
			var sb float64
			if i == j {
				sb = wi[i] / (2 * li[i])
			} else {
				if inv != nil {
					sb = wi[j] * inv[j]
				} else {
					sb = wi[j] / l[j*n+j]
				}
				w[j*n+j] -= sb * li[j]
			}
			ga[i*n+j] += sb
			lj, wj := l[j*n:j*n+j], w[j*n:j*n+j]
			for k, v := range lj {
				wi[k] -= sb * v
				wj[k] -= sb * li[k]
			}
		}
	}
}
