package ir

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mathext"

	"github.com/gobayes/gobayes/accel/opdef"
)

// lkj_corr_cholesky_lpdf(L, eta): L is the lower Cholesky factor [K×K] of
// a correlation matrix, η > 0. As in Stan, the density of L over its
// strictly lower entries is
//
//	-log c_K(η) + Σ_{k=2..K} (K - k + 2η - 2) log L_kk   (1-based k),
//
// where c_K(η) = Π_{i=1..K-1} 2^{(2η-2+K-i)(K-i)} B(b_i, b_i)^{K-i},
// b_i = η + (K-i-1)/2, is the normalising constant of the LKJ density of
// the correlation matrix (Lewandowski, Kurowicka and Joe 2009, eq. 16).
// Partials: ∂L_kk = (K - k + 2η - 2)/L_kk,
// ∂η = 2 Σ_{k≥2} log L_kk - Σ_i (K-i) [2 log 2 + 2ψ(b_i) - 2ψ(2b_i)].
// Only the diagonal of L enters; the op does not check that the rows have
// unit length (the Cholesky-correlation bijector guarantees it). A
// diagonal entry ≤ 0 or η ≤ 0 gives -Inf. The output is one term in both
// modes.
func init() {
	register(OpLKJCorrCholLPDF, OpDef{Name: "lkj_corr_cholesky_lpdf", Arity: 2,
		Shape: lkjShape, Forward: lkjForward, Backward: lkjBackward})
}

func lkjShape(p *Program, in *Instr, args [][]int) ([]int, error) {
	if err := checkLPDFInts(in); err != nil {
		return nil, err
	}
	if l := args[0]; len(l) != 2 || l[0] != l[1] {
		return nil, fmt.Errorf("lkj_corr_cholesky: the factor has shape %v, want a square [K×K]", l)
	}
	if ShapeLen(args[1]) != 1 {
		return nil, fmt.Errorf("lkj_corr_cholesky: eta has shape %v, want a scalar", args[1])
	}
	if Pointwise(in) {
		return []int{1}, nil
	}
	return nil, nil
}

// lkjLogC is log c_K(η).
//
//gb:cuda gb_lkj_logc
func lkjLogC(k int, eta float64) float64 {
	s := 0.0
	for i := 1; i < k; i++ {
		ki := float64(k - i)
		b := eta + (ki-1)/2
		s += (2*eta-2+ki)*ki*ln2 + ki*mathext.Lbeta(b, b)
	}
	return s
}

// lkjDLogC is d log c_K(η) / dη.
//
//gb:cuda gb_lkj_dlogc
func lkjDLogC(k int, eta float64) float64 {
	s := 0.0
	for i := 1; i < k; i++ {
		ki := float64(k - i)
		b := eta + (ki-1)/2
		s += ki * (2*ln2 + 2*(opdef.Digamma(b)-opdef.Digamma(2*b)))
	}
	return s
}

func lkjForward(f *Frame, in *Instr) {
	f.Val(in.Out)[0] = lkjLPDF(f.Val(in.In[0]), f.Val(in.In[1])[0], f.P.Values[in.In[0]].Shape[0])
}

func lkjBackward(f *Frame, in *Instr) {
	var gl []float64
	if f.Grad(in.In[0]) {
		gl = f.AdjOf(in.In[0])
	}
	deta := lkjReverse(f.Val(in.In[0]), f.Val(in.In[1])[0], f.P.Values[in.In[0]].Shape[0], f.AdjOf(in.Out)[0], gl, f.Grad(in.In[1]))
	if f.Grad(in.In[1]) {
		f.AdjOf(in.In[1])[0] += deta
	}
}

// lkjLPDF is the LKJ log density of the correlation Cholesky factor l
// (k×k) with shape eta.
//
//gb:cuda gb_lkj_lpdf
func lkjLPDF(l []float64, eta float64, k int) float64 {
	if !(eta > 0) {
		return math.Inf(-1)
	}
	e := -lkjLogC(k, eta)
	for j := 1; j < k; j++ {
		d := l[j*k+j]
		if !(d > 0) {
			return math.Inf(-1)
		}
		e += (float64(k-j-1) + 2*eta - 2) * math.Log(d)
	}
	return e
}

// lkjReverse adds g times the partials of lkjLPDF in l's diagonal into gl
// (nil when l takes no gradient) and returns g times the partial in eta
// when wantEta is set (0 otherwise, and outside the support).
//
//gb:cuda gb_lkj_reverse
func lkjReverse(l []float64, eta float64, k int, g float64, gl []float64, wantEta bool) float64 {
	if !(eta > 0) {
		return 0
	}
	for j := 1; j < k; j++ {
		if !(l[j*k+j] > 0) {
			return 0
		}
	}
	if gl != nil {
		for j := 1; j < k; j++ {
			gl[j*k+j] += g * (float64(k-j-1) + 2*eta - 2) / l[j*k+j]
		}
	}
	if !wantEta {
		return 0
	}
	d := -lkjDLogC(k, eta)
	for j := 1; j < k; j++ {
		d += 2 * math.Log(l[j*k+j])
	}
	return g * d
}
