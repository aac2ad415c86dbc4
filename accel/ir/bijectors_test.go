package ir_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"gonum.org/v1/gonum/mat"
)

type bijectorCase struct {
	name      string
	fwd, logJ ir.Op
	args      []irtest.Arg // x first, then bounds
	// want is the constrained value from the arguments' values (closed
	// form), check a property the constrained value must have.
	want  func(v [][]float64) []float64
	check func(y []float64) string
	// inverse maps the constrained value back, given the bounds.
	inverse func(y []float64, bounds [][]float64) []float64
	// free picks the coordinates of y that the log-Jacobian is over; nil
	// for all of them.
	free func(y []float64) []float64
}

func elementInverse(inv func(y float64, b []float64) float64) func(y []float64, bounds [][]float64) []float64 {
	return func(y []float64, bounds [][]float64) []float64 {
		x := make([]float64, len(y))
		for i := range y {
			b := make([]float64, len(bounds))
			for j, bd := range bounds {
				if len(bd) == 1 {
					b[j] = bd[0]
				} else {
					b[j] = bd[i]
				}
			}
			x[i] = inv(y[i], b)
		}
		return x
	}
}

func bijectorCases() []bijectorCase {
	lowerInv := elementInverse(func(y float64, b []float64) float64 { return ir.LowerInverse(y, b[0]) })
	upperInv := elementInverse(func(y float64, b []float64) float64 { return ir.UpperInverse(y, b[0]) })
	intervalInv := elementInverse(func(y float64, b []float64) float64 { return ir.IntervalInverse(y, b[0], b[1]) })
	orderedInv := func(y []float64, _ [][]float64) []float64 {
		x := make([]float64, len(y))
		ir.OrderedInverse(y, x)
		return x
	}
	posOrderedInv := func(y []float64, _ [][]float64) []float64 {
		x := make([]float64, len(y))
		ir.PosOrderedInverse(y, x)
		return x
	}
	simplexInv := func(y []float64, _ [][]float64) []float64 {
		x := make([]float64, len(y)-1)
		ir.SimplexInverse(y, x)
		return x
	}
	cholCorrInv := func(y []float64, _ [][]float64) []float64 {
		k := int(math.Round(math.Sqrt(float64(len(y)))))
		x := make([]float64, k*(k-1)/2)
		ir.CholCorrInverse(y, x)
		return x
	}
	strictLower := func(y []float64) []float64 {
		k := int(math.Round(math.Sqrt(float64(len(y)))))
		var out []float64
		for i := range k {
			out = append(out, y[i*k:i*k+i]...)
		}
		return out
	}
	lowerWant := each(func(a ...float64) float64 { return a[1] + math.Exp(a[0]) })
	intervalWant := each(func(a ...float64) float64 { return a[1] + (a[2]-a[1])/(1+math.Exp(-a[0])) })
	return []bijectorCase{
		{name: "lower", fwd: ir.OpLowerFwd, logJ: ir.OpLowerLogJ, args: []irtest.Arg{P(-2, 2, 3), C(nil, 1.5)},
			want: lowerWant, inverse: lowerInv},
		{name: "lower param bound", fwd: ir.OpLowerFwd, logJ: ir.OpLowerLogJ, args: []irtest.Arg{P(-2, 2, 3), P(-1, 1)},
			want: lowerWant, inverse: lowerInv},
		{name: "lower vector bound", fwd: ir.OpLowerFwd, logJ: ir.OpLowerLogJ, args: []irtest.Arg{P(-2, 2, 3), P(-1, 1, 3)},
			want: lowerWant, inverse: lowerInv},
		{name: "upper", fwd: ir.OpUpperFwd, logJ: ir.OpUpperLogJ, args: []irtest.Arg{P(-2, 2, 3), P(-1, 1)},
			want: each(func(a ...float64) float64 { return a[1] - math.Exp(a[0]) }), inverse: upperInv},
		{name: "interval", fwd: ir.OpIntervalFwd, logJ: ir.OpIntervalLogJ, args: []irtest.Arg{P(-4, 4, 3), C(nil, 0), C(nil, 1)},
			want: intervalWant, inverse: intervalInv},
		{name: "interval param bounds", fwd: ir.OpIntervalFwd, logJ: ir.OpIntervalLogJ, args: []irtest.Arg{P(-4, 4, 3), P(-2, -1), P(1, 2, 3)},
			want: intervalWant, inverse: intervalInv},
		{name: "ordered", fwd: ir.OpOrderedFwd, logJ: ir.OpOrderedLogJ, args: []irtest.Arg{P(-2, 2, 4)},
			want: func(v [][]float64) []float64 {
				x := v[0]
				return []float64{x[0], x[0] + math.Exp(x[1]), x[0] + math.Exp(x[1]) + math.Exp(x[2]), x[0] + math.Exp(x[1]) + math.Exp(x[2]) + math.Exp(x[3])}
			}, inverse: orderedInv},
		{name: "positive_ordered", fwd: ir.OpPosOrderedFwd, logJ: ir.OpPosOrderedLogJ, args: []irtest.Arg{P(-2, 2, 3)},
			want: func(v [][]float64) []float64 {
				x := v[0]
				return []float64{math.Exp(x[0]), math.Exp(x[0]) + math.Exp(x[1]), math.Exp(x[0]) + math.Exp(x[1]) + math.Exp(x[2])}
			}, inverse: posOrderedInv},
		// K = 2: Stan's stick breaking gives (logistic(x), 1 - logistic(x))
		// (the offset log(K-1-k) is log 1 = 0).
		{name: "simplex K=2", fwd: ir.OpSimplexFwd, logJ: ir.OpSimplexLogJ, args: []irtest.Arg{P(-3, 3, 1)},
			want: func(v [][]float64) []float64 {
				z := 1 / (1 + math.Exp(-v[0][0]))
				return []float64{z, 1 - z}
			}, inverse: simplexInv, free: func(y []float64) []float64 { return y[:len(y)-1] }},
		{name: "simplex K=5", fwd: ir.OpSimplexFwd, logJ: ir.OpSimplexLogJ, args: []irtest.Arg{P(-3, 3, 4)},
			check: simplexCheck, inverse: simplexInv, free: func(y []float64) []float64 { return y[:len(y)-1] }},
		// K = 2: L = [[1, 0], [tanh y, sech y]].
		{name: "cholesky_corr K=2", fwd: ir.OpCholCorrFwd, logJ: ir.OpCholCorrLogJ, args: []irtest.Arg{P(-2, 2, 1)},
			want: func(v [][]float64) []float64 {
				return []float64{1, 0, math.Tanh(v[0][0]), 1 / math.Cosh(v[0][0])}
			}, inverse: cholCorrInv, free: strictLower},
		// K = 3, written out: row 2 is (z₁, z₂·√(1-z₁²), √(1-z₁²-z₂²(1-z₁²))).
		{name: "cholesky_corr K=3", fwd: ir.OpCholCorrFwd, logJ: ir.OpCholCorrLogJ, args: []irtest.Arg{P(-2, 2, 3)},
			want: func(v [][]float64) []float64 {
				z0, z1, z2 := math.Tanh(v[0][0]), math.Tanh(v[0][1]), math.Tanh(v[0][2])
				w21 := z2 * math.Sqrt(1-z1*z1)
				return []float64{1, 0, 0, z0, math.Sqrt(1 - z0*z0), 0, z1, w21, math.Sqrt(1 - z1*z1 - w21*w21)}
			}, inverse: cholCorrInv, free: strictLower},
		{name: "cholesky_corr K=5", fwd: ir.OpCholCorrFwd, logJ: ir.OpCholCorrLogJ, args: []irtest.Arg{P(-2, 2, 10)},
			check: corrCheck, inverse: cholCorrInv, free: strictLower},
	}
}

func simplexCheck(y []float64) string {
	s := 0.0
	for _, v := range y {
		if !(v > 0) {
			return "a coordinate is not positive"
		}
		s += v
	}
	if math.Abs(s-1) > 1e-14 {
		return "coordinates do not sum to 1"
	}
	return ""
}

// corrCheck: L lower triangular with positive diagonal and L Lᵀ a
// correlation matrix (unit diagonal).
func corrCheck(y []float64) string {
	k := int(math.Round(math.Sqrt(float64(len(y)))))
	l := mat.NewDense(k, k, y)
	var c mat.Dense
	c.Mul(l, l.T())
	for i := range k {
		if !(l.At(i, i) > 0) {
			return "diagonal not positive"
		}
		for j := i + 1; j < k; j++ {
			if l.At(i, j) != 0 {
				return "not lower triangular"
			}
		}
		if math.Abs(c.At(i, i)-1) > 1e-14 {
			return "L·Lᵀ has a diagonal entry other than 1"
		}
	}
	return ""
}

func TestBijectors(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, c := range bijectorCases() {
		t.Run(c.name, func(t *testing.T) {
			pf, err := irtest.OpProgram(c.fwd, nil, nil, c.args...)
			if err != nil {
				t.Fatal(err)
			}
			pj, err := irtest.OpProgram(c.logJ, nil, nil, c.args...)
			if err != nil {
				t.Fatal(err)
			}
			nx := ir.ShapeLen(c.args[0].Shape)
			for range 3 {
				x := irtest.Point(rng, c.args...)
				v := irtest.Values(x, c.args...)
				y := irtest.Output(pf, x, irtest.OutputName)
				if c.want != nil {
					want := c.want(v)
					for i := range want {
						if math.Abs(y[i]-want[i]) > 1e-13*math.Max(1, math.Abs(want[i])) {
							t.Errorf("y[%d] = %.15g, want %.15g", i, y[i], want[i])
						}
					}
				}
				if c.check != nil {
					if msg := c.check(y); msg != "" {
						t.Errorf("y = %v: %s", y, msg)
					}
				}
				// Round trip.
				back := c.inverse(y, v[1:])
				for i := range back {
					if math.Abs(back[i]-v[0][i]) > 1e-9*math.Max(1, math.Abs(v[0][i])) {
						t.Errorf("inverse(forward(x))[%d] = %.15g, want %.15g", i, back[i], v[0][i])
					}
				}
				// Log-Jacobian against the finite-difference Jacobian of x ↦
				// free coordinates of y, bounds fixed.
				jac := irtest.FDJacobian(func(xx, out []float64) {
					xa := append(append([]float64(nil), xx...), x[nx:]...)
					yy := irtest.Output(pf, xa, irtest.OutputName)
					if c.free != nil {
						yy = c.free(yy)
					}
					copy(out, yy)
				}, x[:nx], nx)
				flat := make([]float64, 0, nx*nx)
				for _, row := range jac {
					flat = append(flat, row...)
				}
				want := math.Log(math.Abs(mat.Det(mat.NewDense(nx, nx, flat))))
				got := irtest.Output(pj, x, irtest.OutputName)[0]
				if math.Abs(got-want) > 1e-7*math.Max(1, math.Abs(want)) {
					t.Errorf("log-Jacobian = %.12g, numerical %.12g at x = %v", got, want, x)
				}
				irtest.CheckGradient(t, pf, x, 1e-6)
				irtest.CheckGradient(t, pj, x, 1e-6)
			}
			x := irtest.Point(rng, c.args...)
			irtest.CheckNoAllocs(t, pf, x)
			irtest.CheckNoAllocs(t, pj, x)
		})
	}
}

// TestBoundFromParameter is garch's beta1 ∈ (0, 1 - alpha1): the upper
// bound of one interval is an expression of another parameter, and the
// gradient of the constrained value and of both log-Jacobians must flow
// into it.
func TestBoundFromParameter(t *testing.T) {
	b := ir.NewBuilder(2)
	xa, xb := b.ParamSlice(0, nil), b.ParamSlice(1, nil)
	zero, one := b.Scalar(0), b.Scalar(1)
	alpha := emit(b, ir.OpIntervalFwd, xa, zero, one)
	ub := emit(b, ir.OpSub, one, alpha)
	beta := emit(b, ir.OpIntervalFwd, xb, zero, ub)
	lj := emit(b, ir.OpAddN, emit(b, ir.OpIntervalLogJ, xa, zero, one), emit(b, ir.OpIntervalLogJ, xb, zero, ub))
	// A made-up density of (alpha, beta) to make the target depend on beta.
	lp := emit(b, ir.OpAddN, lj, emit(b, ir.OpLog, beta), emit(b, ir.OpLog, emit(b, ir.OpSub, emit(b, ir.OpSub, one, alpha), beta)))
	b.AddOutput("beta", beta)
	p, err := b.Finalize(lp)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range [][]float64{{0.3, -0.7}, {-2, 1.5}, {1, 3}} {
		a := 1 / (1 + math.Exp(-x[0]))
		beta := (1 - a) / (1 + math.Exp(-x[1]))
		if got := irtest.Output(p, x, "beta")[0]; math.Abs(got-beta) > 1e-15 {
			t.Errorf("beta = %v, want %v", got, beta)
		}
		irtest.CheckGradient(t, p, x, 1e-6)
	}
}
