package vec

import (
	"math"

	"github.com/gobayes/gobayes/accel/ir"
)

// Lockstep kernels of the scalar log densities, with the formulas of
// package ir (lpdf_*.go). What depends on one parameter only (log σ, 1/σ,
// lgamma(α)) is computed into rows of one value per chain: once per
// element for a shared parameter, once per evaluation for a per-chain
// scalar, so the loops over chains are free of logarithms wherever ir's
// memoisation would be. Outside the support a term is -Inf and adds
// nothing to the gradient, as in ir.

const lnPi = 1.14472988584940017414342735135305871164729481291531 // log π

// isPointwise reports whether a log density gives one term per element
// (Ints[0] == 1) rather than their sum.
func isPointwise(in *ir.Instr) bool { return len(in.Ints) > 0 && in.Ints[0] == 1 }

// log1p is log(1+x) from LogScalar, accurate where 1+x rounds (ir's
// formula).
func log1p(x float64) float64 {
	u := 1 + x
	if u == 1 {
		return x
	}
	return LogScalar(u) * x / (u - 1)
}

// scaleRows fills lg[c] = log σ and inv[c] = 1/σ for element i of σ and
// every chain c; inv is NaN where σ is not positive (outside the
// support), lg is left out without withLog. Nothing changes when element
// i reads the same shared σ as element i−1.
func (b *Batch) scaleRows(s operand, i int, lg, inv []float64, withLog bool) {
	if i > 0 && (s.es == 0 || s.cs == 0 && b.V[s.off+i*s.es] == b.V[s.off+(i-1)*s.es]) {
		return
	}
	if s.cs == 0 {
		l, r := scaleConsts(b.V[s.off+i*s.es], withLog)
		lg, inv = lg[:len(inv)], inv[:len(inv)]
		for c := range inv {
			lg[c], inv[c] = l, r
		}
		return
	}
	ss := b.V[s.off+i*s.es : s.off+i*s.es+b.B]
	lg, inv = lg[:len(ss)], inv[:len(ss)]
	for c, sv := range ss {
		lg[c], inv[c] = scaleConsts(sv, withLog)
	}
}

func scaleConsts(s float64, withLog bool) (lg, inv float64) {
	if !(s > 0) {
		return math.NaN(), math.NaN()
	}
	if withLog {
		lg = LogScalar(s)
	}
	return lg, 1 / s
}

// locScale is a location-scale family in z = (t − μ)/σ, t = y or log y:
//
//	normal      −log √(2π) − log σ − z²/2
//	half_normal  log 2 − log √(2π) − log σ − z²/2    (μ = 0, y ≥ 0)
//	cauchy      −log π − log σ − log(1+z²)
//	half_cauchy  log 2 − log π − log σ − log(1+z²)   (μ = 0, y ≥ 0)
//	lognormal   −log √(2π) − log σ − z²/2 − log y    (t = log y, y > 0)
type locScale struct {
	k      float64 // the constant term
	half   bool    // no location; support y ≥ 0
	cauchy bool    // log(1+z²) instead of z²/2
	logY   bool    // t = log y; support y > 0
}

func locScaleOf(op ir.Op) locScale {
	switch op {
	case ir.OpHalfNormalLPDF:
		return locScale{k: math.Ln2 - lnSqrt2Pi, half: true}
	case ir.OpHalfCauchyLPDF:
		return locScale{k: math.Ln2 - lnPi, half: true, cauchy: true}
	case ir.OpCauchyLPDF:
		return locScale{k: -lnPi, cauchy: true}
	case ir.OpLogNormalLPDF:
		return locScale{k: -lnSqrt2Pi, logY: true}
	}
	return locScale{k: -lnSqrt2Pi} // normal
}

// locScaleArgs are the operands y, μ (y itself for a half family, never
// read) and σ.
func (b *Batch) locScaleArgs(in *ir.Instr, f locScale) (y, mu, sg operand) {
	y, sg = b.elem(in.In[0]), b.elem(in.In[len(in.In)-1])
	mu = y
	if !f.half {
		mu = b.elem(in.In[1])
	}
	return y, mu, sg
}

func (b *Batch) locScaleForward(in *ir.Instr, f locScale) {
	v, o, nb := b.V, b.loc[in.Out], b.B
	y, mu, sg := b.locScaleArgs(in, f)
	n := max(y.n, mu.n, sg.n)
	pw := isPointwise(in)
	if !pw {
		clear(v[o.off : o.off+nb])
	}
	lg, inv := b.rows[0], b.rows[1]
	for i := 0; i < n; i++ {
		b.scaleRows(sg, i, lg, inv, true)
		yo, mo, oo := y.off+i*y.es, mu.off+i*mu.es, o.off
		if pw {
			oo += i * nb
		}
		ly := 0.0 // log y of a shared y
		if f.logY && y.cs == 0 && v[yo] > 0 {
			ly = LogScalar(v[yo])
		}
		for c := 0; c < nb; c++ {
			yv, r := v[yo+c*y.cs], inv[c]
			e := math.Inf(-1)
			if r == r && (!f.half || yv >= 0) && (!f.logY || yv > 0) {
				t, m := yv, 0.0
				if f.logY {
					t = ly
					if y.cs != 0 {
						t = LogScalar(yv)
					}
				}
				if !f.half {
					m = v[mo+c*mu.cs]
				}
				z := (t - m) * r
				if f.cauchy {
					e = f.k - lg[c] - log1p(z*z)
				} else {
					e = f.k - lg[c] - 0.5*z*z
				}
				if f.logY {
					e -= t
				}
				if e != e { // NaN from infinite inputs
					e = math.Inf(-1)
				}
			}
			if pw {
				v[oo+c] = e
			} else {
				v[oo+c] += e
			}
		}
	}
}

func (b *Batch) locScaleBackward(in *ir.Instr, f locScale) {
	v, a, o, nb := b.V, b.Adj, b.loc[in.Out], b.B
	y, mu, sg := b.locScaleArgs(in, f)
	n := max(y.n, mu.n, sg.n)
	pw := isPointwise(in)
	muGrad := !f.half && mu.grad
	if !y.grad && !muGrad && !sg.grad {
		return
	}
	lg, inv := b.rows[0], b.rows[1]
	for i := 0; i < n; i++ {
		b.scaleRows(sg, i, lg, inv, false)
		yo, mo, so, oo := y.off+i*y.es, mu.off+i*mu.es, sg.off+i*sg.es, o.off
		if pw {
			oo += i * nb
		}
		ly := 0.0
		if f.logY && y.cs == 0 && v[yo] > 0 {
			ly = LogScalar(v[yo])
		}
		for c := 0; c < nb; c++ {
			yv, r := v[yo+c*y.cs], inv[c]
			if r != r || f.half && !(yv >= 0) || f.logY && !(yv > 0) {
				continue
			}
			g := a[oo+c]
			t, m := yv, 0.0
			if f.logY {
				t = ly
				if y.cs != 0 {
					t = LogScalar(yv)
				}
			}
			if !f.half {
				m = v[mo+c*mu.cs]
			}
			z := (t - m) * r
			// dt = ∂/∂t (and −∂/∂μ), ds = ∂/∂σ.
			var dt, ds float64
			if f.cauchy {
				q := g * r / (1 + z*z)
				dt, ds = -2*z*q, (z*z-1)*q
			} else {
				dt, ds = -g*z*r, g*(z*z-1)*r
			}
			if y.grad {
				if f.logY {
					a[yo+c] += (dt - g) / yv
				} else {
					a[yo+c] += dt
				}
			}
			if muGrad {
				a[mo+c] -= dt
			}
			if sg.grad {
				a[so+c] += ds
			}
		}
	}
}

func (b *Batch) densityForward(in *ir.Instr)  { panic("vec: no density kernel for " + in.Op.String()) }
func (b *Batch) densityBackward(in *ir.Instr) { panic("vec: no density kernel for " + in.Op.String()) }
