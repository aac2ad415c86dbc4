package ir

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// student_t_lpdf(y, nu, mu, sigma) = lgamma((ν+1)/2) - lgamma(ν/2)
// - ½ log(νπ) - log σ - (ν+1)/2 · log(1 + z²/ν), z = (y-μ)/σ.
// Partials, with q = ν + z²:
//
//	∂y = -(ν+1) z / (σ q), ∂μ = -∂y, ∂σ = ((ν+1) z²/q - 1)/σ,
//	∂ν = ½ψ((ν+1)/2) - ½ψ(ν/2) - 1/(2ν) - ½ log(1+z²/ν) + (ν+1) z²/(2ν q).
//
// Forward leaves log(1+z²/ν) in scratch for Backward's ∂ν. The half
// family (y, nu, sigma) shares these loops with a zero location and adds
// log 2 for y ≥ 0.
func init() {
	register(OpStudentTLPDF, OpDef{Name: "student_t_lpdf", Arity: 4, Shape: lpdfShape,
		Forward: studentTForward(false), Backward: studentTBackward(false), Scratch: lpdfScratch(0, true)})
	register(OpHalfStudentTLPDF, OpDef{Name: "half_student_t_lpdf", Arity: 3, Shape: lpdfShape,
		Forward: studentTForward(true), Backward: studentTBackward(true), Scratch: lpdfScratch(0, true)})
}

// studentTConst is the part of the log density that depends on ν only.
func studentTConst(nu float64) float64 {
	return lgamma(0.5*(nu+1)) - lgamma(0.5*nu) - 0.5*(math.Log(nu)+lnPi)
}

// studentTDConst is the derivative of studentTConst with respect to ν.
func studentTDConst(nu float64) float64 {
	return 0.5*(mathext.Digamma(0.5*(nu+1))-mathext.Digamma(0.5*nu)) - 0.5/nu
}

// studentTArgs unpacks (y, nu, mu, sigma) or, for the half family,
// (y, nu, sigma) with a zero location.
func studentTArgs(f *Frame, in *Instr, half bool) (y, nu, mu, sg []float64, muID ID) {
	if half {
		return f.Val(in.In[0]), f.Val(in.In[1]), zeroLoc[:], f.Val(in.In[2]), None
	}
	return f.Val(in.In[0]), f.Val(in.In[1]), f.Val(in.In[2]), f.Val(in.In[3]), in.In[2]
}

var zeroLoc = [1]float64{0}

func studentTForward(half bool) func(f *Frame, in *Instr) {
	return func(f *Frame, in *Instr) {
		y, nu, mu, sg, _ := studentTArgs(f, in, half)
		n := batchLen(y, nu, mu, sg)
		ys, ns, ms, ss := stride(y), stride(nu), stride(mu), stride(sg)
		out, pw := f.Val(in.Out), Pointwise(in)
		_, _, l1p := lpdfScratchParts(f, in, 0)
		half0 := 0.0
		if half {
			half0 = ln2
		}
		vp, vok, vc, iv := math.NaN(), false, 0.0, 0.0
		sp, sok, ls, inv := math.NaN(), false, 0.0, 0.0
		t := 0.0
		for i := 0; i < n; i++ {
			v, s := nu[i*ns], sg[i*ss]
			if v != vp {
				vp, vok, vc, iv = v, v > 0, studentTConst(v)+half0, 1/v
			}
			if s != sp {
				sp, sok, ls, inv = s, s > 0, math.Log(s), 1/s
			}
			e := negInf
			yi := y[i*ys]
			if vok && sok && (!half || yi >= 0) {
				z := (yi - mu[i*ms]) * inv
				l := math.Log1p(z * z * iv)
				l1p[i] = l
				e = vc - ls - 0.5*(v+1)*l
			}
			if e != e { // NaN from infinite inputs
				e = negInf
			}
			if pw {
				out[i] = e
			}
			t += e
		}
		if !pw {
			out[0] = t
		}
	}
}

func studentTBackward(half bool) func(f *Frame, in *Instr) {
	return func(f *Frame, in *Instr) {
		y, nu, mu, sg, muID := studentTArgs(f, in, half)
		n := batchLen(y, nu, mu, sg)
		ys, ns, ms, ss := stride(y), stride(nu), stride(mu), stride(sg)
		g, gs := f.AdjOf(in.Out), outStride(in)
		ay, ayVec := gradOf(f, in.In[0])
		an, anVec := gradOf(f, in.In[1])
		as, asVec := gradOf(f, in.In[len(in.In)-1])
		var am []float64
		var amVec bool
		if muID != None {
			am, amVec = gradOf(f, muID)
		}
		var aySum, anSum, asSum, amSum float64
		vp, dc, iv := math.NaN(), 0.0, 0.0
		sp, is := math.NaN(), 0.0
		needNu := an != nil
		_, _, l1p := lpdfScratchParts(f, in, 0)
		for i := 0; i < n; i++ {
			v, s, yi := nu[i*ns], sg[i*ss], y[i*ys]
			if !(v > 0) || !(s > 0) || half && !(yi >= 0) {
				continue
			}
			if s != sp {
				sp, is = s, 1/s
			}
			if v != vp {
				vp, iv = v, 1/v
				if needNu {
					dc = studentTDConst(v)
				}
			}
			gi := g[i*gs]
			z := (yi - mu[i*ms]) * is
			z2 := z * z
			r := (v + 1) / (v + z2) // (ν+1)/q
			dy := -r * z * is
			aySum = acc(ay, ayVec, i, gi*dy, aySum)
			amSum = acc(am, amVec, i, -gi*dy, amSum)
			asSum = acc(as, asVec, i, gi*(r*z2-1)*is, asSum)
			if needNu {
				anSum = acc(an, anVec, i, gi*(dc-0.5*l1p[i]+0.5*r*z2*iv), anSum)
			}
		}
		flushAcc(ay, ayVec, aySum)
		flushAcc(am, amVec, amSum)
		flushAcc(as, asVec, asSum)
		flushAcc(an, anVec, anSum)
	}
}
