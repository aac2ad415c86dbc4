package ir

import (
	"fmt"
	"math"
)

// multi_normal_cholesky_lpdf(y, mu, L): y is one event [K] or N events
// [N×K]; mu is [K] (shared) or [N×K]; L is the lower Cholesky factor of
// the covariance [K×K] (its upper triangle is ignored and gets no
// gradient). Each term is -K log √(2π) - Σ log L_jj - ½|z|² with
// L z = y - μ. With w = L⁻ᵀ z the partials are ∂y = -w, ∂μ = w,
// ∂L_jk = w_j z_k (j ≥ k) minus 1/L_jj on the diagonal. A diagonal entry
// ≤ 0 gives -Inf. Scratch holds z and w (2K slots).
func init() {
	register(OpMultiNormalCholLPDF, OpDef{Name: "multi_normal_cholesky_lpdf", Arity: 3,
		Shape:   multiNormalShape,
		Forward: multiNormalForward, Backward: multiNormalBackward,
		Scratch: func(p *Program, in *Instr) int { return 2 * p.Values[in.In[2]].Shape[0] },
	})
}

func multiNormalShape(p *Program, in *Instr, args [][]int) ([]int, error) {
	out, err := eventShape("multi_normal_cholesky", 2)(p, in, args)
	if err != nil {
		return nil, err
	}
	k := args[0][len(args[0])-1]
	if k == 0 {
		return nil, fmt.Errorf("multi_normal_cholesky: the variate has no components")
	}
	if l := args[2]; len(l) != 2 || l[0] != k || l[1] != k {
		return nil, fmt.Errorf("multi_normal_cholesky: the Cholesky factor has shape %v, want [%d×%d] to match the variate", l, k, k)
	}
	return out, nil
}

// cholLogDet is Σ log L_jj, NaN when a diagonal entry is not positive.
//
//gb:cuda gb_chol_log_det
func cholLogDet(l []float64, k int) float64 {
	s := 0.0
	for j := 0; j < k; j++ {
		d := l[j*k+j]
		if !(d > 0) {
			return math.NaN()
		}
		s += math.Log(d)
	}
	return s
}

// forwardSubst solves L z = r for lower-triangular L (row-major k×k).
//
//gb:cuda gb_forward_subst
func forwardSubst(l []float64, k int, r, z []float64) {
	for j := 0; j < k; j++ {
		row := l[j*k : j*k+j]
		s := r[j]
		for m, v := range row {
			s -= v * z[m]
		}
		z[j] = s / l[j*k+j]
	}
}

// backSubst solves Lᵀ w = z for lower-triangular L.
//
//gb:cuda gb_back_subst
func backSubst(l []float64, k int, z, w []float64) {
	for j := k - 1; j >= 0; j-- {
		s := z[j]
		for m := j + 1; m < k; m++ {
			s -= l[m*k+j] * w[m]
		}
		w[j] = s / l[j*k+j]
	}
}

func multiNormalForward(f *Frame, in *Instr) {
	k := f.P.Values[in.In[2]].Shape[0]
	ny, yrs := eventRows(f, in.In[0])
	nm, mrs := eventRows(f, in.In[1])
	out, pw := f.Val(in.Out), Pointwise(in)
	t := multiNormalCholLPDF(f.Val(in.In[0]), yrs, f.Val(in.In[1]), mrs, f.Val(in.In[2]), max(ny, nm), k, f.Val(in.Scratch), out, pw)
	if !pw {
		out[0] = t
	}
}

// multiNormalCholLPDF is the sum of multi_normal_cholesky_lpdf's terms
// over n events of k values: row i of y at y[i*yrs:], of μ at
// mu[i*mrs:] (a stride 0: one shared row). s is scratch of k slots. With
// pw it writes each term into out[i] too.
//
//gb:cuda gb_multi_normal_chol_lpdf
func multiNormalCholLPDF(y []float64, yrs int, mu []float64, mrs int, l []float64, n, k int, s, out []float64, pw bool) float64 {
	z := s[:k]
	c := -float64(k)*lnSqrt2Pi - cholLogDet(l, k)
	ok := !math.IsNaN(c)
	t := 0.0
	for i := 0; i < n; i++ {
		e := math.Inf(-1)
		if ok {
			yr, mr := y[i*yrs:i*yrs+k], mu[i*mrs:i*mrs+k]
			for j := range z {
				z[j] = yr[j] - mr[j]
			}
			forwardSubst(l, k, z, z)
			q := 0.0
			for _, v := range z {
				q += v * v
			}
			e = c - 0.5*q
		}
		if e != e { // NaN from infinite inputs
			e = math.Inf(-1)
		}
		if pw {
			out[i] = e
		}
		t += e
	}
	return t
}

func multiNormalBackward(f *Frame, in *Instr) {
	k := f.P.Values[in.In[2]].Shape[0]
	ny, yrs := eventRows(f, in.In[0])
	nm, mrs := eventRows(f, in.In[1])
	gy, gm, gl := f.Grad(in.In[0]), f.Grad(in.In[1]), f.Grad(in.In[2])
	var ay, am, al []float64
	if gy {
		ay = f.AdjOf(in.In[0])
	}
	if gm {
		am = f.AdjOf(in.In[1])
	}
	if gl {
		al = f.AdjOf(in.In[2])
	}
	multiNormalCholReverse(f.Val(in.In[0]), yrs, f.Val(in.In[1]), mrs, f.Val(in.In[2]), max(ny, nm), k,
		f.AdjOf(in.Out), outStride(in), f.Val(in.Scratch), ay, am, al, gy, gm, gl)
}

// multiNormalCholReverse adds into ay, am and al (when gy, gm, gl) the
// partials of multiNormalCholLPDF's terms, term i weighted by g[i*gs]. s
// is scratch of 2k slots.
//
//gb:cuda gb_multi_normal_chol_reverse
func multiNormalCholReverse(y []float64, yrs int, mu []float64, mrs int, l []float64, n, k int, g []float64, gs int, s, ay, am, al []float64, gy, gm, gl bool) {
	if math.IsNaN(cholLogDet(l, k)) {
		return
	}
	z, w := s[:k], s[k:2*k]
	gsum := 0.0
	for i := 0; i < n; i++ {
		gi := g[i*gs]
		gsum += gi
		yr, mr := y[i*yrs:i*yrs+k], mu[i*mrs:i*mrs+k]
		for j := range z {
			z[j] = yr[j] - mr[j]
		}
		forwardSubst(l, k, z, z)
		backSubst(l, k, z, w)
		if gy {
			a := ay[i*yrs : i*yrs+k]
			for j, v := range w {
				a[j] -= gi * v
			}
		}
		if gm {
			a := am[i*mrs : i*mrs+k]
			for j, v := range w {
				a[j] += gi * v
			}
		}
		if gl {
			for j := 0; j < k; j++ {
				gw := gi * w[j]
				row := al[j*k : j*k+j+1]
				for m := range row {
					row[m] += gw * z[m]
				}
			}
		}
	}
	if gl {
		for j := 0; j < k; j++ {
			al[j*k+j] -= gsum / l[j*k+j]
		}
	}
}
