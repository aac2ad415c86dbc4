package ir_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/accel/opdef"
)

// opCase is one op applied to arguments, with an oracle computing the
// expected output from the arguments' values.
type opCase struct {
	name  string
	op    ir.Op
	ints  []int
	table []int
	body  *ir.Program
	args  []irtest.Arg
	// build, when set, replaces the single op: a small graph over args;
	// covers lists the ops it is there to test.
	build  func(b *ir.Builder, in []ir.ID) (ir.ID, error)
	covers []ir.Op
	want   func(v [][]float64) []float64
	tol    float64 // relative tolerance of the forward value; 1e-12 when 0
	gtol   float64 // relative tolerance of the gradient check; 1e-6 when 0
}

func P(lo, hi float64, shape ...int) irtest.Arg { return irtest.Param(lo, hi, shape...) }
func C(shape []int, data ...float64) irtest.Arg { return irtest.Const(shape, data...) }

// each maps an elementwise oracle over broadcast arguments.
func each(fn func(a ...float64) float64) func(v [][]float64) []float64 {
	return func(v [][]float64) []float64 {
		n := 0
		for _, a := range v {
			n = max(n, len(a))
		}
		out := make([]float64, n)
		args := make([]float64, len(v))
		for i := range out {
			for j, a := range v {
				if len(a) == 1 {
					args[j] = a[0]
				} else {
					args[j] = a[i]
				}
			}
			out[i] = fn(args...)
		}
		return out
	}
}

func scalar(fn func(v [][]float64) float64) func(v [][]float64) []float64 {
	return func(v [][]float64) []float64 { return []float64{fn(v)} }
}

func elementwiseCases() []opCase {
	un := func(name string, op ir.Op, lo, hi float64, fn func(float64) float64) opCase {
		return opCase{name: name, op: op, args: []irtest.Arg{P(lo, hi, 5)}, want: each(func(a ...float64) float64 { return fn(a[0]) })}
	}
	bin := func(name string, op ir.Op, a, b irtest.Arg, fn func(a, b float64) float64) opCase {
		return opCase{name: name, op: op, args: []irtest.Arg{a, b}, want: each(func(x ...float64) float64 { return fn(x[0], x[1]) })}
	}
	lgamma := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	// Oracles are the textbook definitions, evaluated directly where they
	// are safe for the sampled range.
	return []opCase{
		un("neg", ir.OpNeg, -3, 3, func(x float64) float64 { return -x }),
		un("exp", ir.OpExp, -3, 3, math.Exp),
		un("log", ir.OpLog, 0.1, 5, math.Log),
		un("log1p", ir.OpLog1p, -0.5, 5, func(x float64) float64 { return math.Log(1 + x) }),
		un("expm1", ir.OpExpm1, -3, 3, func(x float64) float64 { return math.Exp(x) - 1 }),
		un("sqrt", ir.OpSqrt, 0.1, 5, math.Sqrt),
		un("square", ir.OpSquare, -3, 3, func(x float64) float64 { return x * x }),
		un("logistic", ir.OpLogistic, -6, 6, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }),
		un("softplus", ir.OpSoftplus, -6, 6, func(x float64) float64 { return math.Log(1 + math.Exp(x)) }),
		un("lgamma", ir.OpLgamma, 0.2, 8, lgamma),
		// digamma as the derivative of lgamma: an independent oracle.
		{name: "digamma", op: ir.OpDigamma, args: []irtest.Arg{P(0.5, 8, 5)}, tol: 1e-7,
			want: each(func(a ...float64) float64 {
				h := 1e-4
				return (lgamma(a[0]+h) - lgamma(a[0]-h)) / (2 * h)
			})},
		un("lgamma negative", ir.OpLgamma, -2.9, -2.1, lgamma),
		{name: "digamma negative", op: ir.OpDigamma, args: []irtest.Arg{P(-2.8, -2.2, 3)}, tol: 1e-6,
			want: each(func(a ...float64) float64 {
				h := 1e-5
				return (lgamma(a[0]+h) - lgamma(a[0]-h)) / (2 * h)
			})},
		un("abs", ir.OpAbs, -3, 3, math.Abs),
		un("logit", ir.OpLogit, 0.05, 0.95, func(x float64) float64 { return math.Log(x / (1 - x)) }),
		un("tanh", ir.OpTanh, -3, 3, func(x float64) float64 { return (math.Exp(2*x) - 1) / (math.Exp(2*x) + 1) }),
		un("inv", ir.OpInv, 0.2, 3, func(x float64) float64 { return 1 / x }),
		un("step above 0", ir.OpStep, 0.1, 3, func(x float64) float64 { return 1 }),
		un("step below 0", ir.OpStep, -3, -0.1, func(x float64) float64 { return 0 }),
		bin("add", ir.OpAdd, P(-3, 3, 4), P(-3, 3, 4), func(a, b float64) float64 { return a + b }),
		bin("add scalar", ir.OpAdd, P(-3, 3), P(-3, 3, 2, 3), func(a, b float64) float64 { return a + b }),
		bin("add const", ir.OpAdd, P(-3, 3, 3), C([]int{3}, 1, 2, 3), func(a, b float64) float64 { return a + b }),
		bin("sub", ir.OpSub, P(-3, 3, 4), P(-3, 3, 4), func(a, b float64) float64 { return a - b }),
		bin("sub scalar", ir.OpSub, P(-3, 3, 4), P(-3, 3), func(a, b float64) float64 { return a - b }),
		bin("sub scalar first", ir.OpSub, P(-3, 3), P(-3, 3, 4), func(a, b float64) float64 { return a - b }),
		bin("mul scalar second", ir.OpMul, P(-3, 3, 4), P(-3, 3), func(a, b float64) float64 { return a * b }),
		bin("div scalar second", ir.OpDiv, P(-3, 3, 4), P(0.5, 3), func(a, b float64) float64 { return a / b }),
		bin("add scalars", ir.OpAdd, P(-3, 3), P(-3, 3), func(a, b float64) float64 { return a + b }),
		bin("mul", ir.OpMul, P(-3, 3, 4), P(-3, 3, 4), func(a, b float64) float64 { return a * b }),
		bin("mul scalar", ir.OpMul, P(-3, 3), P(-3, 3, 4), func(a, b float64) float64 { return a * b }),
		bin("div", ir.OpDiv, P(-3, 3, 4), P(0.5, 3, 4), func(a, b float64) float64 { return a / b }),
		bin("div scalar", ir.OpDiv, P(0.5, 3), P(0.5, 3, 4), func(a, b float64) float64 { return a / b }),
		bin("pow", ir.OpPow, P(0.2, 3, 4), P(-2, 2, 4), func(a, b float64) float64 { return math.Exp(b * math.Log(a)) }),
		bin("pow const exponent", ir.OpPow, P(0.2, 3, 4), C(nil, 3), func(a, b float64) float64 { return a * a * a }),
		bin("min", ir.OpMin, P(-2, 2, 4), P(-1, 1, 4), math.Min),
		bin("max", ir.OpMax, P(-2, 2, 4), P(-1, 1, 4), math.Max),
		bin("clip below", ir.OpMax, P(-2, 2, 4), C(nil, 0), math.Max),
		// log(eᵃ - eᵇ) with b < a, directly, and far apart (eᵃ and eᵇ
		// both below the double range) against its shift by a.
		bin("log_diff_exp", ir.OpLogDiffExp, P(1, 3, 4), P(-2, 0.5, 4), func(a, b float64) float64 { return math.Log(math.Exp(a) - math.Exp(b)) }),
		// Finite differences at |x| ≈ 800 cancel to about 1e-6 themselves.
		func() opCase {
			c := bin("log_diff_exp scalar", ir.OpLogDiffExp, P(-800, -799), P(-803, -801, 3), func(a, b float64) float64 { return a + math.Log(1-math.Exp(b-a)) })
			c.gtol = 1e-5
			return c
		}(),
		{name: "log_mix", op: ir.OpLogMix, args: []irtest.Arg{P(0.05, 0.95, 4), P(-5, 5, 4), P(-5, 5, 4)},
			want: each(func(x ...float64) float64 { return math.Log(x[0]*math.Exp(x[1]) + (1-x[0])*math.Exp(x[2])) })},
		// Far apart components: the naive form would underflow to log 0.
		{name: "log_mix far apart", op: ir.OpLogMix, args: []irtest.Arg{P(0.05, 0.95, 3), P(-800, -790, 3), P(-5, 5, 3)},
			want: each(func(x ...float64) float64 {
				return math.Log(1-x[0]) + x[2] + math.Log1p(x[0]/(1-x[0])*math.Exp(x[1]-x[2]))
			})},
		{name: "log_mix scalar theta", op: ir.OpLogMix, args: []irtest.Arg{P(0.05, 0.95), P(-5, 5, 4), C(nil, -1)},
			want: each(func(x ...float64) float64 { return math.Log(x[0]*math.Exp(x[1]) + (1-x[0])*math.Exp(x[2])) })},
	}
}

func reductionCases() []opCase {
	return []opCase{
		{name: "sum", op: ir.OpSum, args: []irtest.Arg{P(-3, 3, 2, 3)},
			want: scalar(func(v [][]float64) float64 {
				s := 0.0
				for _, x := range v[0] {
					s += x
				}
				return s
			})},
		{name: "dot", op: ir.OpDot, args: []irtest.Arg{P(-3, 3, 5), P(-3, 3, 5)},
			want: scalar(func(v [][]float64) float64 {
				s := 0.0
				for i := range v[0] {
					s += v[0][i] * v[1][i]
				}
				return s
			})},
		{name: "log_sum_exp", op: ir.OpLogSumExp, args: []irtest.Arg{P(-5, 5, 6)},
			want: scalar(func(v [][]float64) float64 {
				s := 0.0
				for _, x := range v[0] {
					s += math.Exp(x)
				}
				return math.Log(s)
			})},
		{name: "log_sum_exp of two", op: ir.OpLogSumExp, args: []irtest.Arg{P(-5, 5, 2)},
			want: scalar(func(v [][]float64) float64 { return math.Log(math.Exp(v[0][0]) + math.Exp(v[0][1])) })},
		// An element at -Inf (an impossible mixture component) drops out.
		{name: "log_sum_exp with -Inf", covers: []ir.Op{ir.OpLogSumExp}, args: []irtest.Arg{P(-5, 5, 2), C(nil, math.Inf(-1))},
			build: func(b *ir.Builder, in []ir.ID) (ir.ID, error) {
				c, _ := b.Emit(ir.OpConcat, in, nil, -1)
				return b.Emit(ir.OpLogSumExp, []ir.ID{c}, nil, -1)
			},
			want: scalar(func(v [][]float64) float64 { return math.Log(math.Exp(v[0][0]) + math.Exp(v[0][1])) })},
		{name: "addn", op: ir.OpAddN, args: []irtest.Arg{P(-3, 3), C(nil, 2), P(-3, 3)},
			want: scalar(func(v [][]float64) float64 { return v[0][0] + v[1][0] + v[2][0] })},
	}
}

func allCases() []opCase {
	var cs []opCase
	for _, f := range []func() []opCase{elementwiseCases, reductionCases, structureCases, linalgCases, recurrenceCases} {
		cs = append(cs, f()...)
	}
	return cs
}

// TestOps checks every op case: forward values against the oracle,
// gradients against finite differences, and no allocation per gradient.
func TestOps(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, c := range allCases() {
		t.Run(c.name, func(t *testing.T) {
			var p *ir.Program
			var err error
			if c.build != nil {
				p, err = irtest.BuildProgram(c.build, c.args...)
			} else {
				p, err = irtest.OpProgramBody(c.op, c.ints, c.table, c.body, c.args...)
			}
			if err != nil {
				t.Fatal(err)
			}
			tol := c.tol
			if tol == 0 {
				tol = 1e-12
			}
			for range 3 {
				x := irtest.Point(rng, c.args...)
				got := irtest.Output(p, x, irtest.OutputName)
				want := c.want(irtest.Values(x, c.args...))
				if len(got) != len(want) {
					t.Fatalf("output has %d values, oracle %d", len(got), len(want))
				}
				for i := range got {
					if d := math.Abs(got[i] - want[i]); !(d <= tol*math.Max(1, math.Abs(want[i]))) {
						t.Errorf("out[%d] = %.15g, want %.15g at x = %v", i, got[i], want[i], x)
					}
				}
				gtol := c.gtol
				if gtol == 0 {
					gtol = 1e-6
				}
				irtest.CheckGradient(t, p, x, gtol)
			}
			irtest.CheckNoAllocs(t, p, irtest.Point(rng, c.args...))
		})
	}
}

// TestOpsCoverage fails for any op that is not implemented or that no case
// of the property suites exercises (the log densities, in lpdf_*.go, are
// tested beside them).
func TestOpsCoverage(t *testing.T) {
	covered := map[ir.Op]bool{ir.OpScan: true} // scan_test.go
	for _, c := range allCases() {
		covered[c.op] = true
		for _, op := range c.covers {
			covered[op] = true
		}
	}
	for _, c := range bijectorCases() {
		covered[c.fwd], covered[c.logJ] = true, true
	}
	for op := ir.OpNop + 1; op < ir.OpNormalLPDF; op++ {
		if ir.Def(op).Forward == nil {
			t.Errorf("%v has no implementation", op)
		}
		if !covered[op] {
			t.Errorf("%v is not in the property suite", op)
		}
	}
}

// TestSpecialValues checks the special functions at points with known
// closed forms.
func TestSpecialValues(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		// ψ₁(1) = π²/6, ψ₁(½) = π²/2 (DLMF 5.15.2-3); ψ₁(x) = ψ₁(x+1) + 1/x²
		// (DLMF 5.15.5) gives ψ₁(-½) = π²/2 + 4.
		{"trigamma(1)", opdef.Trigamma(1), math.Pi * math.Pi / 6},
		{"trigamma(0.5)", opdef.Trigamma(0.5), math.Pi * math.Pi / 2},
		{"trigamma(-0.5)", opdef.Trigamma(-0.5), math.Pi*math.Pi/2 + 4},
		// Tails: logistic(-800) = e^-800 underflows to 0 but does not NaN;
		// softplus(800) = 800; softplus(-40) = log1p(e^-40) ≈ e^-40.
		{"logistic(-800)", ir.Logistic(-800), 0},
		{"logistic(800)", ir.Logistic(800), 1},
		{"softplus(800)", ir.Softplus(800), 800},
		{"softplus(-40)", ir.Softplus(-40), math.Exp(-40)},
		// log Σ exp over values near 1000 does not overflow.
		// exp(-40) + exp(0): log(1 + e^-40) must not round to 0.
		{"log_sum_exp tiny term", lse(-40, 0) / math.Exp(-40), 1},
		{"log_sum_exp large", ir.LogSumExp([]float64{1000, 1000}), 1000 + math.Ln2},
	} {
		if math.Abs(c.got-c.want) > 1e-13*math.Max(1, math.Abs(c.want)) {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
}

// lse evaluates the log_sum_exp op on constants.
func lse(x ...float64) float64 {
	b := ir.NewBuilder(0)
	y, err := b.Emit(ir.OpLogSumExp, []ir.ID{b.Const(x, []int{len(x)})}, nil, -1)
	if err != nil {
		panic(err)
	}
	b.AddOutput("y", y)
	p, err := b.Finalize(ir.None)
	if err != nil {
		panic(err)
	}
	return irtest.Output(p, nil, "y")[0]
}

// TestFastPath runs every elementwise case on scalars through the scalar
// fast path and through the registered semantics: values and gradients
// must be identical, and the gradient right.
func TestFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	seen := map[ir.Op]bool{}
	for _, c := range elementwiseCases() {
		if c.op == ir.OpLogMix {
			continue // three operands: not on the fast path
		}
		args := make([]irtest.Arg, len(c.args))
		for i, a := range c.args {
			if a.IsParam() {
				args[i] = irtest.Param(a.Lo, a.Hi)
			} else {
				args[i] = irtest.Const(nil, a.Data[0])
			}
		}
		p, err := irtest.OpProgram(c.op, nil, nil, args...)
		if err != nil {
			t.Fatal(err)
		}
		if ir.FastPathLen(p) != 1 {
			t.Errorf("%s: scalar op not on the fast path", c.name)
			continue
		}
		seen[c.op] = true
		slow := ir.WithoutFastPath(p)
		for range 3 {
			x := irtest.Point(rng, args...)
			g1, g2 := make([]float64, p.Dim), make([]float64, p.Dim)
			lp1, lp2 := ir.NewFrame(p).Gradient(x, g1), ir.NewFrame(slow).Gradient(x, g2)
			if lp1 != lp2 {
				t.Errorf("%s at %v: fast path %v, registered %v", c.name, x, lp1, lp2)
			}
			for i := range g1 {
				if g1[i] != g2[i] {
					t.Errorf("%s at %v: gradient[%d] fast path %v, registered %v", c.name, x, i, g1[i], g2[i])
				}
			}
			irtest.CheckGradient(t, p, x, 1e-6)
		}
	}
	for op := ir.OpNeg; op <= ir.OpLogDiffExp; op++ {
		if !seen[op] {
			t.Errorf("%v has no scalar fast-path case", op)
		}
	}
}
