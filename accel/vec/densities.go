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

// log1p is log(1+x) from math.Log, accurate where 1+x rounds (the
// formula of ir's log1p). The kernels here call math.Log rather than
// LogScalar: one value at a time it was as fast (accel/vec's
// BenchmarkLog) and it is what ir computes.
func log1p(x float64) float64 {
	u := 1 + x
	if u == 1 {
		return x
	}
	return math.Log(u) * x / (u - 1)
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
		lg = math.Log(s)
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
	return locScale{k: -lnSqrt2Pi} // normal: the other families are generated (lpdf_gen.go)
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

// row is element i of x for every chain as B values: x's own slots when
// x is per chain, else fill set to the shared value (refilled only when
// it changes, fill being this call's own row from i = 0).
func (b *Batch) row(x operand, i int, fill []float64) []float64 {
	o := x.off + i*x.es
	if x.cs == 1 {
		return b.V[o : o+b.B]
	}
	if xv := b.V[o]; i == 0 || fill[0] != xv {
		for c := range fill {
			fill[c] = xv
		}
	}
	return fill
}

// adjRow is the adjoint of element i of x for every chain, or a row that
// nothing reads when x carries no gradient (or !ok), so that the loops
// add without testing.
func (b *Batch) adjRow(x operand, i int, ok bool) []float64 {
	if !ok || !x.grad {
		return b.rows[5]
	}
	o := x.off + i*x.es
	return b.Adj[o : o+b.B]
}

// diffRow is element i of y − μ for every chain (of y for a half
// family), in b.tmp unless it is y's own row.
func (b *Batch) diffRow(y, mu operand, i int, half bool) []float64 {
	v, d := b.V, b.tmp
	yo, mo := y.off+i*y.es, mu.off+i*mu.es
	switch {
	case half:
		return b.row(y, i, d)
	case y.cs == 1 && mu.cs == 1:
		ys, ms := v[yo:yo+b.B], v[mo:mo+b.B]
		ms = ms[:len(ys)]
		for c, yv := range ys {
			d[c] = yv - ms[c]
		}
	case y.cs == 1:
		ys, m := v[yo:yo+b.B], v[mo]
		for c, yv := range ys {
			d[c] = yv - m
		}
	case mu.cs == 1:
		yv, ms := v[yo], v[mo:mo+b.B]
		for c, m := range ms {
			d[c] = yv - m
		}
	default:
		r := v[yo] - v[mo]
		for c := range d {
			d[c] = r
		}
	}
	return d
}

// sharedScale is log σ and 1/σ of a shared σ, both NaN outside its
// support.
func sharedScale(s float64) (lg, inv float64) {
	if !(s > 0) {
		return math.NaN(), math.NaN()
	}
	return math.Log(s), 1 / s
}

// locScaleForward runs over the rows of y − μ, with σ's constants as
// scalars when σ is shared and as rows when it is per chain; the
// normal is the one family left here.
func (b *Batch) locScaleForward(in *ir.Instr, f locScale) {
	v, o, nb := b.V, b.loc[in.Out], b.B
	y, mu, sg := b.locScaleArgs(in, f)
	n := max(y.n, mu.n, sg.n)
	pw := ir.Pointwise(in)
	if !pw {
		clear(v[o.off : o.off+nb])
	}
	lg, inv := b.rows[0], b.rows[1]
	for i := 0; i < n; i++ {
		d := b.diffRow(y, mu, i, f.half)
		out := v[o.off : o.off+nb]
		if pw {
			out = v[o.off+i*nb : o.off+(i+1)*nb]
		}
		d = d[:len(out)]
		if sg.cs == 0 {
			l, r := sharedScale(v[sg.off+i*sg.es])
			k := f.k - l
			for c, dc := range d {
				z := dc * r
				var e float64
				if f.cauchy {
					e = k - log1p(z*z)
				} else {
					e = k - 0.5*z*z
				}
				if e != e || f.half && !(dc >= 0) {
					e = math.Inf(-1)
				}
				if pw {
					out[c] = e
				} else {
					out[c] += e
				}
			}
			continue
		}
		b.scaleRows(sg, i, lg, inv, true)
		lg, inv := lg[:len(out)], inv[:len(out)]
		for c, dc := range d {
			z := dc * inv[c] // NaN outside σ's support
			var e float64
			if f.cauchy {
				e = f.k - lg[c] - log1p(z*z)
			} else {
				e = f.k - lg[c] - 0.5*z*z
			}
			if e != e || f.half && !(dc >= 0) {
				e = math.Inf(-1)
			}
			if pw {
				out[c] = e
			} else {
				out[c] += e
			}
		}
	}
}

func (b *Batch) locScaleBackward(in *ir.Instr, f locScale) {
	v, a, o, nb := b.V, b.Adj, b.loc[in.Out], b.B
	y, mu, sg := b.locScaleArgs(in, f)
	n := max(y.n, mu.n, sg.n)
	pw := ir.Pointwise(in)
	if !y.grad && !(mu.grad && !f.half) && !sg.grad {
		return
	}
	lg, inv := b.rows[0], b.rows[1]
	for i := 0; i < n; i++ {
		d := b.diffRow(y, mu, i, f.half)
		gy, gm, gs := b.adjRow(y, i, true), b.adjRow(mu, i, !f.half), b.adjRow(sg, i, true)
		g := a[o.off : o.off+nb]
		if pw {
			g = a[o.off+i*nb : o.off+(i+1)*nb]
		}
		d, gy, gm = d[:len(g)], gy[:len(g)], gm[:len(g)]
		if sg.cs == 0 {
			// A shared σ: no gradient of its own, 1/σ a scalar.
			_, r := sharedScale(v[sg.off+i*sg.es])
			if r != r {
				continue
			}
			for c, gc := range g {
				dc := d[c]
				if f.half && !(dc >= 0) {
					continue
				}
				z := dc * r
				var dt float64
				if f.cauchy {
					dt = -2 * z * (gc * r / (1 + z*z))
				} else {
					dt = -gc * z * r
				}
				gy[c] += dt
				gm[c] -= dt
			}
			continue
		}
		b.scaleRows(sg, i, lg, inv, false)
		inv, gs := inv[:len(g)], gs[:len(g)]
		for c, gc := range g {
			r, dc := inv[c], d[c]
			if r != r || f.half && !(dc >= 0) {
				continue
			}
			z := dc * r
			// dt = ∂/∂y = −∂/∂μ, ds = ∂/∂σ.
			var dt, ds float64
			if f.cauchy {
				q := gc * r / (1 + z*z)
				dt, ds = -2*z*q, (z*z-1)*q
			} else {
				dt, ds = -gc*z*r, gc*(z*z-1)*r
			}
			gy[c] += dt
			gm[c] -= dt
			gs[c] += ds
		}
	}
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// put stores a term (NaN from infinite inputs as -Inf), or adds it to
// the sum.
func (b *Batch) put(at int, e float64, pw bool) {
	if e != e {
		e = math.Inf(-1)
	}
	if pw {
		b.V[at] = e
	} else {
		b.V[at] += e
	}
}
