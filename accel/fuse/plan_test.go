package fuse_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// normalLogPDF is the closed form of the normal log density, the oracle of
// the fused normal kernels.
func normalLogPDF(y, mu, sigma float64) float64 {
	z := (y - mu) / sigma
	return -0.5*z*z - math.Log(sigma) - 0.5*math.Log(2*math.Pi)
}

// halfNormalLogPDF and halfCauchyLogPDF are the closed forms for y ≥ 0:
// log 2 + log N(y|0,σ), and log 2 - log(πσ(1+(y/σ)²)).
func halfNormalLogPDF(y, sigma float64) float64 { return math.Ln2 + normalLogPDF(y, 0, sigma) }
func halfCauchyLogPDF(y, sigma float64) float64 {
	z := y / sigma
	return math.Ln2 - math.Log(math.Pi*sigma*(1+z*z))
}

func planSeq(n int, f func(i int) float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = f(i)
	}
	return v
}

// planCase is a small graph that the execution plan fuses, with a plain-Go
// oracle of its log density computed from the argument values.
type planCase struct {
	name   string
	args   []irtest.Arg
	build  func(b *ir.Builder, in []ir.ID) (ir.ID, error)
	oracle func(v [][]float64) float64
}

// planFused is the number of instructions the plan must fuse in a case,
// when not 1.
var planFused = map[string]int{
	"Cholesky factor times a vector": 3, // the covariance's factor, the matvec, the normal prior
	"eight schools, non-centred":     3, // the bound, the likelihood with z's prior, the sum with the other priors
}

func planCases() []planCase {
	y8 := planSeq(8, func(i int) float64 { return float64(i*7%5) - 1.5 })
	s8 := planSeq(8, func(i int) float64 { return 0.5 + float64(i%3) })
	const n, k = 20, 3
	y20 := planSeq(n, func(i int) float64 { return math.Sin(float64(i)) * 3 })
	x20 := planSeq(n*k, func(i int) float64 { return math.Cos(float64(i) * 1.3) })
	affine := func(a, b, z, y, s []float64) float64 {
		t := 0.0
		for i := range z {
			t += normalLogPDF(y[i], a[0]+b[0]*z[i], s[i%len(s)])
		}
		return t
	}
	regression := func(beta, y, s []float64) float64 {
		t := 0.0
		for i := range n {
			mu := 0.0
			for l := range k {
				mu += x20[i*k+l] * beta[l]
			}
			t += normalLogPDF(y[i], mu, s[0])
		}
		return t
	}
	pts := []float64{0, 0.4, 1.1, 1.5, 2.6}
	// gpLatent is L·v with L the Cholesky factor of
	// α²exp(-(x_i-x_j)²/(2ρ²)) + δ_ij (plain Go, Cholesky–Banachiewicz).
	gpLatent := func(alpha, rho float64, v []float64) []float64 {
		m := len(pts)
		l := make([]float64, m*m)
		for i := range m {
			for j := 0; j <= i; j++ {
				d := pts[i] - pts[j]
				a := alpha * alpha * math.Exp(-d*d/(2*rho*rho))
				if i == j {
					a++
				}
				for q := range j {
					a -= l[i*m+q] * l[j*m+q]
				}
				if i == j {
					l[i*m+i] = math.Sqrt(a)
				} else {
					l[i*m+j] = a / l[j*m+j]
				}
			}
		}
		out := make([]float64, m)
		for i := range m {
			for j := 0; j <= i; j++ {
				out[i] += l[i*m+j] * v[j]
			}
		}
		return out
	}
	bound := func(op, logJ ir.Op) func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
		return func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
			y := emit(b, op, in[0], in[1])
			w := planSeq(ir.ShapeLen(b.Shape(y)), func(i int) float64 { return 0.5 + float64(i) })
			return b.Emit(ir.OpAddN, []ir.ID{emit(b, logJ, in[0], in[1]), emit(b, ir.OpDot, y, b.Const(w, b.Shape(y)))}, nil, -1)
		}
	}
	// boundOracle is Σ x_i + Σ (0.5+i)·(b_i + sign·exp(x_i)): the
	// log-Jacobian of y = b ± exp(x) plus a weighted sum of y.
	boundOracle := func(sign float64) func(v [][]float64) float64 {
		return func(v [][]float64) float64 {
			t := 0.0
			for i, x := range v[0] {
				t += x + (0.5+float64(i))*(v[1][i%len(v[1])]+sign*math.Exp(x))
			}
			return t
		}
	}
	// noncentred is Σ normal(z_i|0,1) + Σ normal(y_i|a+b·z_i, σ_i), and
	// noncentredBuild its graph.
	noncentred := func(v [][]float64) float64 {
		t := affine(v[0], v[1], v[2], v[3], v[4])
		for _, z := range v[2] {
			t += normalLogPDF(z, 0, 1)
		}
		return t
	}
	noncentredBuild := func(b *ir.Builder, in []ir.ID) ir.ID {
		prior := emit(b, ir.OpNormalLPDF, in[2], b.Scalar(0), b.Scalar(1))
		t := emit(b, ir.OpAdd, in[0], emit(b, ir.OpMul, in[1], in[2]))
		return emit(b, ir.OpAddN, prior, emit(b, ir.OpNormalLPDF, in[3], t, in[4]))
	}
	// priors is normal(x0|0.5,2.5) + half-Cauchy(x1|5) + Σ half-normal(x2|2)
	// + Σ normal(x3|0.5,2) + half-normal(x4|1.5), and priorsBuild its graph
	// (x4 last, so that the outside-support test gives the scalar
	// half-normal a negative, NaN and infinite variate).
	priors := func(v [][]float64) float64 {
		t := normalLogPDF(v[0][0], 0.5, 2.5) + halfCauchyLogPDF(v[1][0], 5) + halfNormalLogPDF(v[4][0], 1.5)
		for _, x := range v[2] {
			t += halfNormalLogPDF(x, 2)
		}
		for _, x := range v[3] {
			t += normalLogPDF(x, 0.5, 2)
		}
		return t
	}
	priorsBuild := func(b *ir.Builder, in []ir.ID) ir.ID {
		return emit(b, ir.OpAddN,
			emit(b, ir.OpNormalLPDF, in[0], b.Scalar(0.5), b.Scalar(2.5)),
			emit(b, ir.OpHalfCauchyLPDF, in[1], b.Scalar(5)),
			emit(b, ir.OpHalfNormalLPDF, in[2], b.Scalar(2)),
			emit(b, ir.OpNormalLPDF, in[3], b.Scalar(0.5), b.Scalar(2)),
			emit(b, ir.OpHalfNormalLPDF, in[4], b.Scalar(1.5)))
	}
	half := func(b *ir.Builder, x ir.ID) (ir.ID, error) {
		return b.Emit(ir.OpMul, []ir.ID{x, b.Scalar(0.5)}, nil, -1)
	}
	noncentredArgs := func(sigma irtest.Arg) []irtest.Arg {
		return []irtest.Arg{irtest.Param(-2, 2), irtest.Param(0.2, 3), irtest.Param(-2, 2, 8), irtest.Const([]int{8}, y8...), sigma}
	}
	return []planCase{
		{"non-centred: the prior of z with the likelihood, sigma per element", noncentredArgs(irtest.Const([]int{8}, s8...)),
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) { return noncentredBuild(b, in), nil }, noncentred},
		{"non-centred: the prior of z with the likelihood, one sigma", noncentredArgs(irtest.Const(nil, 1.3)),
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) { return noncentredBuild(b, in), nil }, noncentred},
		{"non-centred: the prior of z with the likelihood, parameter sigma", noncentredArgs(irtest.Param(0.5, 2)),
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) { return noncentredBuild(b, in), nil }, noncentred},
		{"non-centred, not the target (reverse sweep)", noncentredArgs(irtest.Const([]int{8}, s8...)),
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) { return half(b, noncentredBuild(b, in)) },
			func(v [][]float64) float64 { return 0.5 * noncentred(v) }},
		{"non-centred, not the target, parameter sigma", noncentredArgs(irtest.Param(0.5, 2)),
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) { return half(b, noncentredBuild(b, in)) },
			func(v [][]float64) float64 { return 0.5 * noncentred(v) }},
		{"priors summed: scalar and vector, normal, half-Cauchy, half-normal",
			[]irtest.Arg{irtest.Param(-3, 3), irtest.Param(0.1, 4), irtest.Param(0.1, 4, 3), irtest.Param(-2, 2, 4), irtest.Param(0.1, 3)},
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) { return priorsBuild(b, in), nil }, priors},
		{"priors summed, not the target (reverse sweep)",
			[]irtest.Arg{irtest.Param(-3, 3), irtest.Param(0.1, 4), irtest.Param(0.1, 4, 3), irtest.Param(-2, 2, 4), irtest.Param(0.1, 3)},
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) { return half(b, priorsBuild(b, in)) },
			func(v [][]float64) float64 { return 0.5 * priors(v) }},
		{"eight schools, non-centred",
			// mu, log tau, z; tau = exp(log tau) with its log-Jacobian.
			[]irtest.Arg{irtest.Const([]int{8}, y8...), irtest.Const([]int{8}, s8...), irtest.Param(-2, 2), irtest.Param(-1, 1.5), irtest.Param(-2, 2, 8)},
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
				zero := b.Scalar(0)
				mu, u, z := in[2], in[3], in[4]
				tau := emit(b, ir.OpLowerFwd, u, zero)
				t := emit(b, ir.OpAdd, mu, emit(b, ir.OpMul, tau, z))
				return b.Emit(ir.OpAddN, []ir.ID{
					emit(b, ir.OpLowerLogJ, u, zero),
					emit(b, ir.OpNormalLPDF, mu, zero, b.Scalar(5)),
					emit(b, ir.OpHalfCauchyLPDF, tau, b.Scalar(5)),
					emit(b, ir.OpNormalLPDF, z, zero, b.Scalar(1)),
					emit(b, ir.OpNormalLPDF, in[0], t, in[1]),
				}, nil, -1)
			},
			func(v [][]float64) float64 {
				mu, u, z := v[2][0], v[3][0], v[4]
				tau := math.Exp(u)
				t := u + normalLogPDF(mu, 0, 5) + halfCauchyLogPDF(tau, 5)
				for i, zi := range z {
					t += normalLogPDF(zi, 0, 1) + normalLogPDF(v[0][i], mu+tau*zi, v[1][i])
				}
				return t
			}},
		{"lower bound and its log-Jacobian, scalar", []irtest.Arg{irtest.Param(-2, 2), irtest.Const(nil, 0)},
			bound(ir.OpLowerFwd, ir.OpLowerLogJ), boundOracle(1)},
		{"lower bound, vector, parameter bound", []irtest.Arg{irtest.Param(-2, 2, 3), irtest.Param(-1, 1)},
			bound(ir.OpLowerFwd, ir.OpLowerLogJ), boundOracle(1)},
		{"upper bound, scalar, parameter bound", []irtest.Arg{irtest.Param(-2, 2), irtest.Param(-1, 1)},
			bound(ir.OpUpperFwd, ir.OpUpperLogJ), boundOracle(-1)},
		{"upper bound, vector, per-element bounds", []irtest.Arg{irtest.Param(-2, 2, 3), irtest.Const([]int{3}, 1, 2, 3)},
			bound(ir.OpUpperFwd, ir.OpUpperLogJ), boundOracle(-1)},
		{"Cholesky factor times a vector",
			[]irtest.Arg{irtest.Const([]int{len(pts)}, pts...), irtest.Param(0.5, 2), irtest.Param(0.5, 2), irtest.Param(-2, 2, len(pts))},
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
				k := emit(b, ir.OpCovExpQuad, in[0], in[1], in[2])
				l := emit(b, ir.OpCholesky, emit(b, ir.OpAddDiag, k, b.Scalar(1)))
				f := emit(b, ir.OpMatVec, l, in[3])
				return b.Emit(ir.OpNormalLPDF, []ir.ID{f, b.Scalar(0.3), b.Scalar(2)}, nil, -1)
			},
			func(v [][]float64) float64 {
				t := 0.0
				for _, fi := range gpLatent(v[1][0], v[2][0], v[3]) {
					t += normalLogPDF(fi, 0.3, 2)
				}
				return t
			}},
		{"normal prior, constant mu and sigma",
			[]irtest.Arg{irtest.Param(-3, 3, 5), irtest.Const(nil, 0.5), irtest.Const(nil, 2.5)},
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) { return b.Emit(ir.OpNormalLPDF, in, nil, -1) },
			func(v [][]float64) float64 {
				t := 0.0
				for _, x := range v[0] {
					t += normalLogPDF(x, v[1][0], v[2][0])
				}
				return t
			}},
		{"normal, parameter mu, constant sigma",
			[]irtest.Arg{irtest.Const([]int{4}, 1, -2, 0.5, 3), irtest.Param(-1, 1), irtest.Const(nil, 1.5)},
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) { return b.Emit(ir.OpNormalLPDF, in, nil, -1) },
			func(v [][]float64) float64 {
				t := 0.0
				for _, x := range v[0] {
					t += normalLogPDF(x, v[1][0], v[2][0])
				}
				return t
			}},
		{"gamma prior, constant shape and rate",
			[]irtest.Arg{irtest.Param(0.1, 6, 2), irtest.Const(nil, 25), irtest.Const(nil, 4)},
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) { return b.Emit(ir.OpGammaLPDF, in, nil, -1) },
			func(v [][]float64) float64 {
				// α log β - lgamma(α) + (α-1) log y - βy (rate β).
				t := 0.0
				for _, y := range v[0] {
					lg, _ := math.Lgamma(v[1][0])
					t += v[1][0]*math.Log(v[2][0]) - lg + (v[1][0]-1)*math.Log(y) - v[2][0]*y
				}
				return t
			}},
		{"half-normal prior",
			[]irtest.Arg{irtest.Param(0.1, 4, 3), irtest.Const(nil, 2)},
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) { return b.Emit(ir.OpHalfNormalLPDF, in, nil, -1) },
			func(v [][]float64) float64 {
				t := 0.0
				for _, x := range v[0] {
					t += halfNormalLogPDF(x, v[1][0])
				}
				return t
			}},
		{"half-Cauchy prior",
			[]irtest.Arg{irtest.Param(0.1, 4), irtest.Const(nil, 5)},
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) { return b.Emit(ir.OpHalfCauchyLPDF, in, nil, -1) },
			func(v [][]float64) float64 { return halfCauchyLogPDF(v[0][0], v[1][0]) }},
		{"affine mean a + b·z, sigma per element",
			[]irtest.Arg{irtest.Param(-2, 2), irtest.Param(0.2, 3), irtest.Param(-2, 2, 8), irtest.Const([]int{8}, y8...), irtest.Const([]int{8}, s8...)},
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
				t := emit(b, ir.OpAdd, in[0], emit(b, ir.OpMul, in[1], in[2]))
				return b.Emit(ir.OpNormalLPDF, []ir.ID{in[3], t, in[4]}, nil, -1)
			},
			func(v [][]float64) float64 { return affine(v[0], v[1], v[2], v[3], v[4]) }},
		{"affine mean z·b + a (operands swapped), one sigma",
			[]irtest.Arg{irtest.Param(-2, 2), irtest.Param(0.2, 3), irtest.Param(-2, 2, 8), irtest.Const([]int{8}, y8...), irtest.Const(nil, 1.7)},
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
				t := emit(b, ir.OpAdd, emit(b, ir.OpMul, in[2], in[1]), in[0])
				return b.Emit(ir.OpNormalLPDF, []ir.ID{in[3], t, in[4]}, nil, -1)
			},
			func(v [][]float64) float64 { return affine(v[0], v[1], v[2], v[3], v[4]) }},
		{"affine mean, parameter sigma",
			[]irtest.Arg{irtest.Param(-2, 2), irtest.Param(0.2, 3), irtest.Param(-2, 2, 8), irtest.Const([]int{8}, y8...), irtest.Param(0.5, 2)},
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
				t := emit(b, ir.OpAdd, in[0], emit(b, ir.OpMul, in[1], in[2]))
				return b.Emit(ir.OpNormalLPDF, []ir.ID{in[3], t, in[4]}, nil, -1)
			},
			func(v [][]float64) float64 { return affine(v[0], v[1], v[2], v[3], v[4]) }},
		{"regression X·beta, parameter sigma",
			[]irtest.Arg{irtest.Param(-1, 1, k), irtest.Const([]int{n}, y20...), irtest.Param(0.5, 3)},
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
				mu := emit(b, ir.OpMatVec, b.Const(x20, []int{n, k}), in[0])
				return b.Emit(ir.OpNormalLPDF, []ir.ID{in[1], mu, in[2]}, nil, -1)
			},
			func(v [][]float64) float64 { return regression(v[0], v[1], v[2]) }},
		{"regression X·beta, constant sigma",
			[]irtest.Arg{irtest.Param(-1, 1, k), irtest.Const([]int{n}, y20...), irtest.Const(nil, 2)},
			func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
				mu := emit(b, ir.OpMatVec, b.Const(x20, []int{n, k}), in[0])
				return b.Emit(ir.OpNormalLPDF, []ir.ID{in[1], mu, in[2]}, nil, -1)
			},
			func(v [][]float64) float64 { return regression(v[0], v[1], v[2]) }},
	}
}

// TestPlanKernels checks every fused kernel of the execution plan: the log
// density against a closed-form oracle, against the instruction-by-
// instruction run (value and gradient), gradients against finite
// differences, and no allocation.
func TestPlanKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, c := range planCases() {
		t.Run(c.name, func(t *testing.T) {
			p, err := irtest.BuildProgram(c.build, c.args...)
			if err != nil {
				t.Fatal(err)
			}
			want := 1
			if n, ok := planFused[c.name]; ok {
				want = n
			}
			if p.Fused() != want {
				t.Fatalf("the plan fuses %d instructions, want %d, in\n%v", p.Fused(), want, p)
			}
			// The frames are reused from point to point, as samplers do:
			// adjoints left by one evaluation must not leak into the next.
			fused, plain := ir.NewFrame(p), ir.NewFrame(p)
			plain.Unfused = true
			for range 5 {
				x := irtest.Point(rng, c.args...)
				g, gp := make([]float64, p.Dim), make([]float64, p.Dim)
				lp, lpp := fused.Gradient(x, g), plain.Gradient(x, gp)
				want := c.oracle(irtest.Values(x, c.args...))
				if !planClose(lp, want, 1e-12) {
					t.Errorf("log density %v, oracle %v at %v", lp, want, x)
				}
				if !planClose(lp, lpp, 1e-13) {
					t.Errorf("log density %v fused, %v unfused at %v", lp, lpp, x)
				}
				if lf := fused.Forward(x); lf != lp {
					t.Errorf("log density %v from Forward, %v from Gradient at %v", lf, lp, x)
				}
				for i := range g {
					if !planClose(g[i], gp[i], 1e-12) {
						t.Errorf("gradient[%d] %v fused, %v unfused at %v", i, g[i], gp[i], x)
					}
				}
				irtest.CheckGradient(t, p, x, 1e-6)
				irtest.CheckNoAllocs(t, p, x)
			}
		})
	}
}

// TestPlanKernelsOutsideSupport checks that the fused kernels give -Inf and
// a zero gradient where the registered ops do: a scale of zero, a NaN
// parameter.
func TestPlanKernelsOutsideSupport(t *testing.T) {
	for _, c := range planCases() {
		t.Run(c.name, func(t *testing.T) {
			p, err := irtest.BuildProgram(c.build, c.args...)
			if err != nil {
				t.Fatal(err)
			}
			x := irtest.Point(rand.New(rand.NewPCG(1, 1)), c.args...)
			for _, bad := range []float64{0, -1, math.NaN(), math.Inf(1)} {
				y := append([]float64(nil), x...)
				y[len(y)-1] = bad
				fused, plain := ir.NewFrame(p), ir.NewFrame(p)
				plain.Unfused = true
				g, gp := make([]float64, p.Dim), make([]float64, p.Dim)
				lp, lpp := fused.Gradient(y, g), plain.Gradient(y, gp)
				if !(lp == lpp || planClose(lp, lpp, 1e-13)) {
					t.Errorf("at %v: log density %v fused, %v unfused", y, lp, lpp)
				}
				for i := range g {
					if !(g[i] == gp[i] || planClose(g[i], gp[i], 1e-12) || math.IsNaN(g[i]) && math.IsNaN(gp[i])) {
						t.Errorf("at %v: gradient[%d] %v fused, %v unfused", y, i, g[i], gp[i])
					}
				}
			}
		})
	}
}

// planClose reports |a-b| ≤ tol·max(|a|, |b|, 1).
func planClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// TestPlanLeaves checks which fused kernels add their gradient during the
// forward pass: those whose terms only the target sum reads, and none when
// the sum is not the target.
func TestPlanLeaves(t *testing.T) {
	want := map[string]int{
		"non-centred: the prior of z with the likelihood, sigma per element": 1, // the likelihood with the prior
		"non-centred, not the target (reverse sweep)":                        0,
		"priors summed: scalar and vector, normal, half-Cauchy, half-normal": 1, // the sum
		"priors summed, not the target (reverse sweep)":                      0,
		"eight schools, non-centred":                                         2, // the likelihood, the sum (not the bound)
		"normal prior, constant mu and sigma":                                0, // not a term kernel
	}
	for _, c := range planCases() {
		n, ok := want[c.name]
		if !ok {
			continue
		}
		p, err := irtest.BuildProgram(c.build, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Leaves(); got != n {
			t.Errorf("%s: %d leaf steps, want %d, in\n%v", c.name, got, n, p)
		}
	}
}

// TestPlanAffineSigmaNotPositive checks the non-centred kernel with a σ per
// element when some σ_i are not positive (the kernel's loops then differ
// from the all-positive ones): the fused and unfused runs agree, in value
// and gradient, also where the mean a + b·z_i is infinite there. (Where
// the unfused gradient in b is 0·∞ = NaN, the fused one skips the term:
// the log density is -Inf there anyway.)
func TestPlanAffineSigmaNotPositive(t *testing.T) {
	y8 := planSeq(8, func(i int) float64 { return float64(i*7%5) - 1.5 })
	for _, s7 := range []float64{0, -1, 1.5} {
		s8 := planSeq(8, func(i int) float64 { return 0.5 + float64(i%3) })
		s8[7] = s7
		args := []irtest.Arg{irtest.Param(-2, 2), irtest.Param(0.2, 3), irtest.Param(-2, 2, 8), irtest.Const([]int{8}, y8...), irtest.Const([]int{8}, s8...)}
		for _, withPrior := range []bool{true, false} {
			p, err := irtest.BuildProgram(func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
				var prior ir.ID
				if withPrior {
					prior = emit(b, ir.OpNormalLPDF, in[2], b.Scalar(0), b.Scalar(1))
				}
				t := emit(b, ir.OpAdd, in[0], emit(b, ir.OpMul, in[1], in[2]))
				lik := emit(b, ir.OpNormalLPDF, in[3], t, in[4])
				if !withPrior {
					return lik, nil
				}
				return emit(b, ir.OpAddN, prior, lik), nil
			}, args...)
			if err != nil {
				t.Fatal(err)
			}
			if want := 1; p.Fused() != want {
				t.Fatalf("the plan fuses %d instructions, want %d (the likelihood with the prior), in\n%v", p.Fused(), want, p)
			}
			x := irtest.Point(rand.New(rand.NewPCG(5, 6)), args...)
			for _, z7 := range []float64{x[len(x)-1], math.Inf(1), math.NaN()} {
				x[len(x)-1] = z7
				fused, plain := ir.NewFrame(p), ir.NewFrame(p)
				plain.Unfused = true
				g, gp := make([]float64, p.Dim), make([]float64, p.Dim)
				lp, lpp := fused.Gradient(x, g), plain.Gradient(x, gp)
				if !(lp == lpp || planClose(lp, lpp, 1e-13)) {
					t.Errorf("σ_7 = %v, prior %v, at %v: log density %v fused, %v unfused", s7, withPrior, x, lp, lpp)
				}
				if lf := fused.Forward(x); !(lf == lp || lf != lf && lp != lp) {
					t.Errorf("σ_7 = %v, prior %v, at %v: log density %v from Forward, %v from Gradient", s7, withPrior, x, lf, lp)
				}
				for i := range g {
					if !(g[i] == gp[i] || planClose(g[i], gp[i], 1e-12) || math.IsNaN(gp[i]) && (i == 1 || math.IsNaN(g[i]))) {
						t.Errorf("σ_7 = %v, prior %v, at %v: gradient[%d] %v fused, %v unfused", s7, withPrior, x, i, g[i], gp[i])
					}
				}
			}
		}
	}
}
