package ppl

import (
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// MatVec is the matrix–vector product A·x of A [n k] and x [k], a vector
// [n]: the linear predictor X·β of a regression.
func MatVec(a, x any) Expr {
	ns := args("MatVec", a, x)
	A, v := ns[0], ns[1]
	if len(A.Dims) != 2 || v.Len() != A.Dims[1] || len(v.Dims) > 1 {
		failf(modelOf("MatVec", ns...), exprLabel("MatVec", ns...), "shapes %v and %v do not multiply; want a matrix [n k] and a vector [k]", A.Dims, v.Dims)
	}
	return asExpr(opNode("MatVec", ir.OpMatVec, []int{A.Dims[0]}, ns, nil, nil))
}

// MatMul is the matrix product of A [n k] and B [k m], a matrix [n m].
func MatMul(a, b any) Expr {
	ns := args("MatMul", a, b)
	A, B := ns[0], ns[1]
	if len(A.Dims) != 2 || len(B.Dims) != 2 || A.Dims[1] != B.Dims[0] {
		failf(modelOf("MatMul", ns...), exprLabel("MatMul", ns...), "shapes %v and %v do not multiply; want matrices [n k] and [k m]", A.Dims, B.Dims)
	}
	return asExpr(opNode("MatMul", ir.OpMatMul, []int{A.Dims[0], B.Dims[1]}, ns, nil, nil))
}

func square(fn string, n *graph.Node, ns []*graph.Node) int {
	if len(n.Dims) != 2 || n.Dims[0] != n.Dims[1] {
		failf(modelOf(fn, ns...), exprLabel(fn, ns...), "%s has shape %v; want a square matrix", n.String(), n.Dims)
	}
	return n.Dims[0]
}

// Cholesky is the lower-triangular factor L of a symmetric
// positive-definite matrix A = L·Lᵀ (a covariance built from parameters;
// not positive definite at a point: the log density is -Inf there).
func Cholesky(a any) Expr {
	ns := args("Cholesky", a)
	n := square("Cholesky", ns[0], ns)
	return asExpr(opNode("Cholesky", ir.OpCholesky, []int{n, n}, ns, nil, nil))
}

// TriSolve solves L·x = b for a lower-triangular L [n n] and b [n] or
// [n m].
func TriSolve(l, b any) Expr {
	ns := args("TriSolve", l, b)
	n := square("TriSolve", ns[0], ns)
	B := ns[1]
	if len(B.Dims) == 0 || len(B.Dims) > 2 || B.Dims[0] != n {
		failf(modelOf("TriSolve", ns...), exprLabel("TriSolve", ns...), "right-hand side has shape %v; want [%d] or [%d m]", B.Dims, n, n)
	}
	return asExpr(opNode("TriSolve", ir.OpTriSolve, append([]int(nil), B.Dims...), ns, nil, nil))
}

// LowerMulT is L·Lᵀ for a lower-triangular L, for example a covariance
// from its Cholesky factor.
func LowerMulT(l any) Expr {
	ns := args("LowerMulT", l)
	n := square("LowerMulT", ns[0], ns)
	return asExpr(opNode("LowerMulT", ir.OpMulLowerTTr, []int{n, n}, ns, nil, nil))
}

// CovExpQuad is the squared-exponential covariance of the points x ([n]
// or n points of d coordinates [n d]): K[i j] = α² exp(-|xᵢ-xⱼ|²/(2ρ²)),
// Stan's cov_exp_quad (gp_exp_quad_cov). Add jitter with AddDiag.
func CovExpQuad(x, alpha, rho any) Expr {
	ns := args("CovExpQuad", x, alpha, rho)
	X := ns[0]
	if len(X.Dims) == 0 || len(X.Dims) > 2 {
		failf(modelOf("CovExpQuad", ns...), exprLabel("CovExpQuad", ns...), "points have shape %v; want [n] or [n d]", X.Dims)
	}
	if ns[1].Len() != 1 || ns[2].Len() != 1 {
		failf(modelOf("CovExpQuad", ns...), exprLabel("CovExpQuad", ns...), "alpha and rho must be scalars, got shapes %v and %v", ns[1].Dims, ns[2].Dims)
	}
	n := X.Dims[0]
	return asExpr(opNode("CovExpQuad", ir.OpCovExpQuad, []int{n, n}, ns, nil, nil))
}

// AddDiag adds d (a scalar or a vector [n]) to the diagonal of the square
// matrix A [n n].
func AddDiag(a, d any) Expr {
	ns := args("AddDiag", a, d)
	n := square("AddDiag", ns[0], ns)
	if l := ns[1].Len(); l != 1 && (l != n || len(ns[1].Dims) != 1) {
		failf(modelOf("AddDiag", ns...), exprLabel("AddDiag", ns...), "diagonal has shape %v; want a scalar or [%d]", ns[1].Dims, n)
	}
	return asExpr(opNode("AddDiag", ir.OpAddDiag, []int{n, n}, ns, nil, nil))
}

// DiagPreMultiply is diag(v)·A: row i of A [n k] scaled by v[i], Stan's
// diag_pre_multiply (a covariance's Cholesky factor from scales and a
// correlation factor: DiagPreMultiply(tau, Lcorr)).
func DiagPreMultiply(v, a any) Expr {
	ns := args("DiagPreMultiply", v, a)
	V, A := ns[0], ns[1]
	if len(A.Dims) != 2 || len(V.Dims) != 1 || V.Dims[0] != A.Dims[0] {
		failf(modelOf("DiagPreMultiply", ns...), exprLabel("DiagPreMultiply", ns...), "shapes %v and %v; want a vector [n] and a matrix [n k]", V.Dims, A.Dims)
	}
	n, k := A.Dims[0], A.Dims[1]
	idx := make([]int, n*k)
	for i := range idx {
		idx[i] = i / k
	}
	rows := opNode("DiagPreMultiply", ir.OpGather, []int{n * k}, []*graph.Node{V}, nil, idx)
	return Mul(Reshape(rows, n, k), A)
}

// DiagPostMultiply is A·diag(v): column j of A [n k] scaled by v[j].
func DiagPostMultiply(a, v any) Expr {
	ns := args("DiagPostMultiply", a, v)
	A, V := ns[0], ns[1]
	if len(A.Dims) != 2 || len(V.Dims) != 1 || V.Dims[0] != A.Dims[1] {
		failf(modelOf("DiagPostMultiply", ns...), exprLabel("DiagPostMultiply", ns...), "shapes %v and %v; want a matrix [n k] and a vector [k]", A.Dims, V.Dims)
	}
	n, k := A.Dims[0], A.Dims[1]
	idx := make([]int, n*k)
	for i := range idx {
		idx[i] = i % k
	}
	cols := opNode("DiagPostMultiply", ir.OpGather, []int{n * k}, []*graph.Node{V}, nil, idx)
	return Mul(A, Reshape(cols, n, k))
}
