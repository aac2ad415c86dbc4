package ir

import (
	"fmt"
	"math"
)

// Bijectors map unconstrained position slots to constrained values; each
// …LogJ op takes the same inputs and gives log |det J| of the map, summed
// to a scalar. Bounds are inputs (scalars or one per element), so a bound
// may be an expression of other parameters and gradients flow into it.
// The inverses (constrained → unconstrained), for initial values and for
// reading user-supplied points, are the exported …Inverse functions below.
//
//	Lower:       y = lb + exp(x)                  log J = Σ x
//	Upper:       y = ub - exp(x)                  log J = Σ x
//	Interval:    y = lb + (ub-lb)·logistic(x)     log J = Σ log(ub-lb) + log σ(x) + log(1-σ(x))
//	Ordered:     y₀ = x₀, y_k = y_{k-1} + exp(x_k) log J = Σ_{k≥1} x_k
//	PosOrdered:  y₀ = exp(x₀), then as Ordered    log J = Σ x_k
//	Simplex:     Stan's stick breaking, [K-1] → [K] (log J over the first K-1 coordinates)
//	CholCorr:    Stan's map from K(K-1)/2 reals through tanh (canonical
//	             partial correlations) to the lower Cholesky factor of a
//	             K×K correlation matrix (log J over the strictly lower
//	             entries).

// boundedShape checks x and its bounds (each a scalar or x's length) and
// returns x's shape, or a scalar for a LogJ op.
func boundedShape(logJ bool) func(p *Program, in *Instr, args [][]int) ([]int, error) {
	return func(p *Program, in *Instr, args [][]int) ([]int, error) {
		n := ShapeLen(args[0])
		for i, a := range args[1:] {
			if l := ShapeLen(a); l != 1 && l != n {
				return nil, fmt.Errorf("%s: bound %d has shape %v, want a scalar or %d values like %v", defs[in.Op].Name, i+1, a, n, args[0])
			}
		}
		if logJ {
			return nil, nil
		}
		return args[0], nil
	}
}

func vectorShape(name string, extra int) func(p *Program, in *Instr, args [][]int) ([]int, error) {
	return func(p *Program, in *Instr, args [][]int) ([]int, error) {
		if len(args[0]) != 1 || args[0][0] < 1 {
			return nil, fmt.Errorf("%s: argument has shape %v, want a non-empty vector", name, args[0])
		}
		if extra < 0 {
			return nil, nil
		}
		return []int{args[0][0] + extra}, nil
	}
}

// cholCorrK returns K for n = K(K-1)/2 free coordinates, or 0.
//
//gb:cuda gb_cholcorr_k
func cholCorrK(n int) int {
	k := int(math.Round((1 + math.Sqrt(1+8*float64(n))) / 2))
	if k*(k-1)/2 != n {
		return 0
	}
	return k
}

func cholCorrShape(logJ bool) func(p *Program, in *Instr, args [][]int) ([]int, error) {
	return func(p *Program, in *Instr, args [][]int) ([]int, error) {
		n := ShapeLen(args[0])
		k := cholCorrK(n)
		if len(args[0]) != 1 || n < 1 || k == 0 {
			return nil, fmt.Errorf("cholesky_corr: argument has shape %v, want a vector of K(K-1)/2 values (1, 3, 6, 10, …)", args[0])
		}
		if logJ {
			return nil, nil
		}
		return []int{k, k}, nil
	}
}

func init() {
	// Lower and upper bounds: y = lb + exp(x), y = ub - exp(x).
	for _, c := range []struct {
		fwd, logJ Op
		name      string
		sign      float64
	}{{OpLowerFwd, OpLowerLogJ, "lower", 1}, {OpUpperFwd, OpUpperLogJ, "upper", -1}} {
		sign := c.sign
		register(c.fwd, OpDef{
			Name: c.name, Arity: 2, Shape: boundedShape(false),
			// The scratch keeps exp(x) for the reverse sweep.
			Scratch: func(p *Program, in *Instr) int { return p.Values[in.In[0]].Len },
			Forward: func(f *Frame, in *Instr) {
				b, sb := bval(f, in.In[1])
				boundFwd(f.Val(in.In[0]), b, f.Val(in.Scratch), f.Val(in.Out), sb, sign)
			},
			Backward: func(f *Frame, in *Instr) {
				_, sb := bval(f, in.In[1])
				boundReverse(f.Val(in.Scratch), f.AdjOf(in.Out), gradOrNil(f, in.In[0]), gradOrNil(f, in.In[1]), sb, sign)
			},
		})
		register(c.logJ, OpDef{
			Name: c.name + "_log_jacobian", Arity: 2, Shape: boundedShape(true),
			Forward: func(f *Frame, in *Instr) { f.Val(in.Out)[0] = sum(f.Val(in.In[0])) },
			Backward: func(f *Frame, in *Instr) {
				if f.Grad(in.In[0]) {
					addScalar(f.AdjOf(in.In[0]), f.AdjOf(in.Out)[0])
				}
			},
		})
	}

	register(OpIntervalFwd, OpDef{
		Name: "interval", Arity: 3, Shape: boundedShape(false),
		Forward: func(f *Frame, in *Instr) {
			lb, sl := bval(f, in.In[1])
			ub, su := bval(f, in.In[2])
			intervalForward(f.Val(in.In[0]), lb, ub, f.Val(in.Out), sl, su)
		},
		Backward: func(f *Frame, in *Instr) {
			lb, sl := bval(f, in.In[1])
			ub, su := bval(f, in.In[2])
			intervalReverse(f.Val(in.In[0]), lb, ub, f.AdjOf(in.Out),
				gradOrNil(f, in.In[0]), gradOrNil(f, in.In[1]), gradOrNil(f, in.In[2]), sl, su)
		},
	})
	register(OpIntervalLogJ, OpDef{
		Name: "interval_log_jacobian", Arity: 3, Shape: boundedShape(true),
		Forward: func(f *Frame, in *Instr) {
			lb, sl := bval(f, in.In[1])
			ub, su := bval(f, in.In[2])
			f.Val(in.Out)[0] = intervalLogJ(f.Val(in.In[0]), lb, ub, sl, su)
		},
		Backward: func(f *Frame, in *Instr) {
			lb, sl := bval(f, in.In[1])
			ub, su := bval(f, in.In[2])
			intervalLogJReverse(f.Val(in.In[0]), lb, ub, f.AdjOf(in.Out)[0],
				gradOrNil(f, in.In[0]), gradOrNil(f, in.In[1]), gradOrNil(f, in.In[2]), sl, su)
		},
	})

	// Ordered and positive-ordered vectors.
	for _, c := range []struct {
		fwd, logJ Op
		name      string
		pos       bool
	}{{OpOrderedFwd, OpOrderedLogJ, "ordered", false}, {OpPosOrderedFwd, OpPosOrderedLogJ, "positive_ordered", true}} {
		pos := c.pos
		register(c.fwd, OpDef{
			Name: c.name, Arity: 1, Shape: vectorShape(c.name, 0),
			Forward: func(f *Frame, in *Instr) { orderedForward(f.Val(in.In[0]), f.Val(in.Out), pos) },
			Backward: func(f *Frame, in *Instr) {
				orderedReverse(f.Val(in.In[0]), f.AdjOf(in.Out), f.AdjOf(in.In[0]), pos)
			},
		})
		register(c.logJ, OpDef{
			Name: c.name + "_log_jacobian", Arity: 1, Shape: vectorShape(c.name, -1),
			Forward: func(f *Frame, in *Instr) { f.Val(in.Out)[0] = orderedLogJ(f.Val(in.In[0]), pos) },
			Backward: func(f *Frame, in *Instr) {
				orderedLogJReverse(f.AdjOf(in.Out)[0], f.AdjOf(in.In[0]), pos)
			},
		})
	}

	register(OpSimplexFwd, OpDef{
		Name: "simplex", Arity: 1, Shape: vectorShape("simplex", 1),
		Forward: func(f *Frame, in *Instr) { SimplexForward(f.Val(in.In[0]), f.Val(in.Out)) },
		Backward: func(f *Frame, in *Instr) {
			simplexReverse(f.Val(in.In[0]), f.Val(in.Out), f.AdjOf(in.Out), f.AdjOf(in.In[0]))
		},
	})
	register(OpSimplexLogJ, OpDef{
		Name: "simplex_log_jacobian", Arity: 1, Shape: vectorShape("simplex", -1),
		Forward: func(f *Frame, in *Instr) { f.Val(in.Out)[0] = simplexLogJ(f.Val(in.In[0])) },
		Backward: func(f *Frame, in *Instr) {
			simplexLogJReverse(f.Val(in.In[0]), f.AdjOf(in.Out)[0], f.AdjOf(in.In[0]))
		},
	})

	register(OpCholCorrFwd, OpDef{
		Name: "cholesky_corr", Arity: 1, Shape: cholCorrShape(false),
		Scratch: func(p *Program, in *Instr) int { return 2*cholCorrK(p.Values[in.In[0]].Len) + 1 },
		Forward: func(f *Frame, in *Instr) { CholCorrForward(f.Val(in.In[0]), f.Val(in.Out)) },
		Backward: func(f *Frame, in *Instr) {
			cholCorrReverse(f.Val(in.In[0]), f.AdjOf(in.Out), f.AdjOf(in.In[0]), f.Val(in.Scratch), false, 1)
		},
	})
	register(OpCholCorrLogJ, OpDef{
		Name: "cholesky_corr_log_jacobian", Arity: 1, Shape: cholCorrShape(true),
		Scratch: func(p *Program, in *Instr) int { return 2*cholCorrK(p.Values[in.In[0]].Len) + 1 },
		Forward: func(f *Frame, in *Instr) {
			f.Val(in.Out)[0] = cholCorrLogJ(f.Val(in.In[0]))
		},
		Backward: func(f *Frame, in *Instr) {
			cholCorrLogJReverse(f.Val(in.In[0]), f.AdjOf(in.In[0]), f.Val(in.Scratch), f.AdjOf(in.Out)[0])
		},
	})
}

//gb:cuda gb_interval_fwd
func intervalFwd(x, lb, ub float64) float64 {
	if x > 0 {
		return ub - (ub-lb)*Logistic(-x)
	}
	return lb + (ub-lb)*Logistic(x)
}

// logSech2 is log(1 - tanh²(y)) = 2·log sech(y), accurate for large |y|.
//
//gb:cuda gb_log_sech2
func logSech2(y float64) float64 {
	a := math.Abs(y)
	return 2 * (math.Ln2 - a - math.Log1p(Exp(-2*a)))
}

// sech2 is 1 - tanh²(y) without cancellation.
//
//gb:cuda gb_sech2
func sech2(y float64) float64 {
	e := Exp(-2 * math.Abs(y))
	return 4 * e / ((1 + e) * (1 + e))
}

// orderedForward is the ordered transform, y_0 = x_0 and y_k = y_{k-1} +
// exp(x_k); with pos, the positive-ordered one, whose y_0 is exp(x_0).
//
//gb:cuda gb_ordered_fwd
func orderedForward(x, y []float64, pos bool) {
	y[0] = x[0]
	if pos {
		y[0] = Exp(x[0])
	}
	for k := 1; k < len(y); k++ {
		y[k] = y[k-1] + Exp(x[k])
	}
}

// orderedReverse adds into gx the adjoint of orderedForward's x given
// the adjoint g of y: ∂x_k = exp(x_k)·Σ_{j≥k} g_j (x_0 of the ordered
// transform: Σ_j g_j).
//
//gb:cuda gb_ordered_reverse
func orderedReverse(x, g, gx []float64, pos bool) {
	s := 0.0
	for k := len(g) - 1; k >= 0; k-- {
		s += g[k]
		if k == 0 && !pos {
			gx[0] += s
		} else {
			gx[k] += s * Exp(x[k])
		}
	}
}

// orderedLogJ is the log-Jacobian of orderedForward: Σ x_k over k ≥ 1
// (k ≥ 0 with pos).
//
//gb:cuda gb_ordered_logj
func orderedLogJ(x []float64, pos bool) float64 {
	if !pos {
		x = x[1:]
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// orderedLogJReverse adds g into the adjoint gx of orderedLogJ's x.
//
//gb:cuda gb_ordered_logj_reverse
func orderedLogJReverse(g float64, gx []float64, pos bool) {
	if !pos {
		gx = gx[1:]
	}
	for i := range gx {
		gx[i] += g
	}
}

// SimplexForward is Stan's stick-breaking map from x (K-1 reals) to y (K
// values on the simplex): z_k = logistic(x_k - log(K-1-k)), y_k = z_k·(1 -
// Σ_{j<k} y_j), and y_{K-1} the remaining stick.
//
//gb:cuda gb_simplex_fwd
func SimplexForward(x, y []float64) {
	km1 := len(x)
	s := 1.0
	for k, v := range x {
		z := Logistic(v - math.Log(float64(km1-k)))
		y[k] = s * z
		s -= y[k]
	}
	y[km1] = s
}

// simplexReverse adds into gx the adjoint of SimplexForward's x given y
// and its adjoint g.
//
//gb:cuda gb_simplex_reverse
func simplexReverse(x, y, g, gx []float64) {
	km1 := len(x)
	// Stick remainders from the output: s_{K-1} = y_{K-1},
	// s_k = s_{k+1} + y_k.
	s, sb := y[km1], g[km1]
	for k := km1 - 1; k >= 0; k-- {
		sk := s + y[k]
		a := x[k] - math.Log(float64(km1-k))
		z := Logistic(a)
		zb := (g[k] - sb) * sk
		sb = g[k]*z + sb*(1-z)
		gx[k] += zb * LogisticDeriv(a)
		s = sk
	}
}

// simplexLogJ is the log-Jacobian of SimplexForward at x.
//
//gb:cuda gb_simplex_logj
func simplexLogJ(x []float64) float64 {
	km1 := len(x)
	lp, logS := 0.0, 0.0
	for k, v := range x {
		a := v - math.Log(float64(km1-k))
		lp += logS + logisticLogJ(a)
		logS -= Softplus(a)
	}
	return lp
}

// simplexLogJReverse adds into gx g times the gradient of simplexLogJ:
// d/dx_j = 1 - 2z_j (its own logistic terms) - z_j·(K-2-j) (log s_k for
// the later k).
//
//gb:cuda gb_simplex_logj_reverse
func simplexLogJReverse(x []float64, g float64, gx []float64) {
	km1 := len(x)
	for j, v := range x {
		z := Logistic(v - math.Log(float64(km1-j)))
		gx[j] += g * (1 - 2*z - z*float64(km1-1-j))
	}
}

// SimplexInverse writes into x (K-1) the unconstrained coordinates of the
// simplex point y (K values).
func SimplexInverse(y, x []float64) {
	km1 := len(x)
	s := 1.0
	for k := range x {
		x[k] = Logit(y[k]/s) + math.Log(float64(km1-k))
		s -= y[k]
	}
}

// CholCorrForward is Stan's map from y (K(K-1)/2 reals, the strictly lower
// triangle in row-major order) to the lower Cholesky factor l (K×K,
// row-major) of a correlation matrix: z = tanh(y) are canonical partial
// correlations, and row i is w_0 = z, w_j = z·sqrt(1 - Σ_{l<j} w_l²), with
// diagonal sqrt(1 - Σ_{j<i} w_j²).
//
//gb:cuda gb_cholcorr_fwd
func CholCorrForward(y, l []float64) {
	k := cholCorrK(len(y))
	clear(l[:k*k])
	l[0] = 1
	idx := 0
	for i := 1; i < k; i++ {
		ss := 0.0
		for j := range i {
			w := math.Tanh(y[idx])
			idx++
			if j > 0 {
				w *= math.Sqrt(1 - ss)
			}
			l[i*k+j] = w
			ss += w * w
		}
		l[i*k+i] = math.Sqrt(1 - ss)
	}
}

// CholCorrInverse writes into y (K(K-1)/2) the unconstrained coordinates of
// the lower Cholesky factor l (K×K) of a correlation matrix.
func CholCorrInverse(l, y []float64) {
	k := cholCorrK(len(y))
	idx := 0
	for i := 1; i < k; i++ {
		ss := 0.0
		for j := range i {
			w := l[i*k+j]
			z := w
			if j > 0 {
				z = w / math.Sqrt(1-ss)
			}
			y[idx] = math.Atanh(z)
			idx++
			ss += w * w
		}
	}
}

// cholCorrLogJ is the log-Jacobian of CholCorrForward at y.
//
//gb:cuda gb_cholcorr_logj
func cholCorrLogJ(y []float64) float64 {
	k := cholCorrK(len(y))
	lp, idx := 0.0, 0
	for _, v := range y {
		lp += logSech2(v)
	}
	for i := 1; i < k; i++ {
		ss := 0.0
		for j := range i {
			z := math.Tanh(y[idx])
			idx++
			w := z
			if j > 0 {
				lp += 0.5 * math.Log1p(-ss)
				w = z * math.Sqrt(1-ss)
			}
			ss += w * w
		}
	}
	return lp
}

// cholCorrReverse adds into gy the adjoint of y given the adjoint gl of the
// factor (when logJ is false), or of the Σ ½log(1-ss_j) part of the
// log-Jacobian scaled by g (when logJ is true). w is scratch of 2K+1.
//
//gb:cuda gb_cholcorr_reverse
func cholCorrReverse(y, gl, gy, w []float64, logJ bool, g float64) {
	k := cholCorrK(len(y))
	z, ss := w[:k], w[k:]
	base := 0
	for i := 1; i < k; i++ {
		// Row i forward again: z_j and ss_j = Σ_{l<j} w_l².
		ss[0] = 0
		for j := range i {
			z[j] = math.Tanh(y[base+j])
			wj := z[j]
			if j > 0 {
				wj *= math.Sqrt(1 - ss[j])
			}
			ss[j+1] = ss[j] + wj*wj
		}
		ssb := 0.0
		if !logJ {
			ssb = -gl[i*k+i] / (2 * math.Sqrt(1-ss[i]))
		}
		for j := i - 1; j >= 0; j-- {
			r := 1.0
			if j > 0 {
				r = math.Sqrt(1 - ss[j])
			}
			wj := z[j] * r
			wb := 2 * wj * ssb
			if !logJ {
				wb += gl[i*k+j]
			}
			if logJ && j > 0 {
				ssb -= 0.5 * g / (1 - ss[j])
			}
			zb := wb * r
			if j > 0 {
				ssb -= wb * z[j] * 0.5 / r
			}
			gy[base+j] += zb * sech2(y[base+j])
		}
		base += i
	}
}

// LowerInverse is the unconstrained value of y > lb: log(y - lb).
func LowerInverse(y, lb float64) float64 { return math.Log(y - lb) }

// UpperInverse is the unconstrained value of y < ub: log(ub - y).
func UpperInverse(y, ub float64) float64 { return math.Log(ub - y) }

// IntervalInverse is the unconstrained value of lb < y < ub:
// logit((y-lb)/(ub-lb)).
func IntervalInverse(y, lb, ub float64) float64 { return Logit((y - lb) / (ub - lb)) }

// OrderedInverse writes into x the unconstrained coordinates of the
// increasing vector y: x₀ = y₀, x_k = log(y_k - y_{k-1}).
func OrderedInverse(y, x []float64) {
	x[0] = y[0]
	for k := 1; k < len(y); k++ {
		x[k] = math.Log(y[k] - y[k-1])
	}
}

// PosOrderedInverse writes into x the unconstrained coordinates of the
// positive increasing vector y: x₀ = log y₀, x_k = log(y_k - y_{k-1}).
func PosOrderedInverse(y, x []float64) {
	OrderedInverse(y, x)
	x[0] = math.Log(y[0])
}

// The bound transforms' bodies over slices, which cgen's C calls through
// their translations (cmd/genops). Bounds are read at stride sl, su or sb:
// 1, or 0 for a scalar bound. An empty adjoint is one not wanted.

// boundFwd is y = b + sign·exp(x) (sign 1: a lower bound, -1: an upper
// one), keeping exp(x) in e.
//
//gb:cuda gb_bound_fwd
func boundFwd(x, b, e, y []float64, sb int, sign float64) {
	for i := range y {
		e[i] = Exp(x[i])
		y[i] = b[i*sb] + sign*e[i]
	}
}

//gb:cuda gb_bound_reverse
func boundReverse(e, g, gx, gb []float64, sb int, sign float64) {
	for i := range gx {
		gx[i] += sign * g[i] * e[i]
	}
	addStrided(gb, g, sb)
}

//gb:cuda gb_interval_forward
func intervalForward(x, lb, ub, y []float64, sl, su int) {
	for i := range y {
		y[i] = intervalFwd(x[i], lb[i*sl], ub[i*su])
	}
}

//gb:cuda gb_interval_reverse
func intervalReverse(x, lb, ub, g, gx, gl, gu []float64, sl, su int) {
	for i, gi := range g {
		s, sc := logisticPair(x[i])
		if len(gx) > 0 {
			gx[i] += gi * (ub[i*su] - lb[i*sl]) * s * sc
		}
		if len(gl) > 0 {
			gl[i*sl] += gi * sc
		}
		if len(gu) > 0 {
			gu[i*su] += gi * s
		}
	}
}

// intervalLogJ is Σ log(ub-lb) + log σ(x) + log(1-σ(x)).
//
//gb:cuda gb_interval_logj
func intervalLogJ(x, lb, ub []float64, sl, su int) float64 {
	s := 0.0
	for i, v := range x {
		s += math.Log(ub[i*su]-lb[i*sl]) + logisticLogJ(v)
	}
	return s
}

//gb:cuda gb_interval_logj_reverse
func intervalLogJReverse(x, lb, ub []float64, g float64, gx, gl, gu []float64, sl, su int) {
	for i, v := range x {
		if len(gx) > 0 {
			gx[i] += g * (1 - 2*Logistic(v))
		}
		d := g / (ub[i*su] - lb[i*sl])
		if len(gl) > 0 {
			gl[i*sl] -= d
		}
		if len(gu) > 0 {
			gu[i*su] += d
		}
	}
}

// cholCorrLogJReverse adds g times the correlation-Cholesky
// log-Jacobian's gradient into gy (w: cholCorrReverse's working memory).
//
//gb:cuda gb_cholcorr_logj_reverse
func cholCorrLogJReverse(y, gy, w []float64, g float64) {
	for i, v := range y {
		gy[i] -= 2 * g * math.Tanh(v)
	}
	cholCorrReverse(y, nil, gy, w, true, g)
}
