package ppl

import (
	"math"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/accel/opdef"
	"github.com/gobayes/gobayes/ppl/internal/graph"
	"gonum.org/v1/gonum/mat"
)

// TestFunctions checks that each expression function computes its
// mathematical definition (oracle: package math) on parameters, and that
// its gradient matches finite differences.
func TestFunctions(t *testing.T) {
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	unary := []struct {
		name string
		f    func(any) Expr
		want func(float64) float64
	}{
		{"Neg", Neg, func(x float64) float64 { return -x }},
		{"Exp", Exp, math.Exp},
		{"Log", Log, math.Log},
		{"Log1p", Log1p, math.Log1p},
		{"Expm1", Expm1, math.Expm1},
		{"Sqrt", Sqrt, math.Sqrt},
		{"Square", Square, func(x float64) float64 { return x * x }},
		{"Logistic", Logistic, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }},
		{"Logit", Logit, func(x float64) float64 { return math.Log(x / (1 - x)) }},
		{"Softplus", Softplus, func(x float64) float64 { return math.Log1p(math.Exp(x)) }},
		{"Lgamma", Lgamma, lg},
		{"Abs", Abs, math.Abs},
		{"Tanh", Tanh, math.Tanh},
		{"Inv", Inv, func(x float64) float64 { return 1 / x }},
		{"Digamma", Digamma, opdef.Digamma}, // gonum's mathext.Digamma is 5e-11 off here; opdef's own test checks it against mpmath
	}
	xs := []float64{0.2, 0.5, 0.7} // inside every function's domain
	for _, tc := range unary {
		t.Run(tc.name, func(t *testing.T) {
			m := NewModel(tc.name)
			x := m.Flat("x", Size(3))
			m.LogDensity("f", Sum(tc.f(x)))
			c, err := m.Compile()
			if err != nil {
				t.Fatal(err)
			}
			want := 0.0
			for _, v := range xs {
				want += tc.want(v)
			}
			if got := c.LogDensity(xs); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Errorf("Sum(%s(x)) = %v, want %v", tc.name, got, want)
			}
			irtest.CheckGradient(t, c.Program(), xs, 1e-6)
		})
	}
	binary := []struct {
		name string
		f    func(a, b any) Expr
		want func(a, b float64) float64
	}{
		{"Add", Add, func(a, b float64) float64 { return a + b }},
		{"Sub", Sub, func(a, b float64) float64 { return a - b }},
		{"Mul", Mul, func(a, b float64) float64 { return a * b }},
		{"Div", Div, func(a, b float64) float64 { return a / b }},
		{"Pow", Pow, math.Pow},
		{"Min", Min, math.Min},
		{"Max", Max, math.Max},
		{"Clip", func(a, b any) Expr { return Clip(a, Neg(b), b) }, func(a, b float64) float64 { return math.Min(math.Max(a, -b), b) }},
	}
	for _, tc := range binary {
		t.Run(tc.name, func(t *testing.T) {
			m := NewModel(tc.name)
			a := m.Flat("a", Size(3))
			b := m.Flat("b")
			m.LogDensity("f", Sum(tc.f(a, b)))
			c, err := m.Compile()
			if err != nil {
				t.Fatal(err)
			}
			x := append(append([]float64(nil), xs...), 1.3)
			want := 0.0
			for _, v := range xs {
				want += tc.want(v, 1.3)
			}
			if got := c.LogDensity(x); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Errorf("Sum(%s(a, b)) = %v, want %v", tc.name, got, want)
			}
			irtest.CheckGradient(t, c.Program(), x, 1e-6)
		})
	}
	// Reductions and structure, against sums written out.
	m := NewModel("structure")
	a := m.Flat("a", Size(3))
	m.LogDensity("lse", LogSumExp(a))
	m.LogDensity("dot", Dot(a, []float64{1, 2, 3}))
	m.LogDensity("index", Sum(Index(a, []int{2, 2, 0})))
	m.LogDensity("slice", Sum(Slice(a, 1, 3)))
	m.LogDensity("at", Mul(At(a, 1), 10))
	m.LogDensity("mix", LogMix(0.25, At(a, 0), At(a, 2)))
	m.LogDensity("fill", Sum(Fill(At(a, 0), 2, 2)))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	v := []float64{0.2, 0.5, 0.7}
	want := math.Log(math.Exp(v[0])+math.Exp(v[1])+math.Exp(v[2])) +
		v[0] + 2*v[1] + 3*v[2] +
		2*v[2] + v[0] +
		v[1] + v[2] +
		10*v[1] +
		math.Log(0.25*math.Exp(v[0])+0.75*math.Exp(v[2])) +
		4*v[0]
	if got := c.LogDensity(v); math.Abs(got-want) > 1e-12 {
		t.Errorf("structure: %v, want %v", got, want)
	}
	irtest.CheckGradient(t, c.Program(), v, 1e-6)
}

// TestLinearAlgebra checks the matrix functions against gonum's mat on
// parameter-dependent matrices, with gradients.
func TestLinearAlgebra(t *testing.T) {
	m := NewModel("linalg")
	a := m.Flat("a", Shape(2, 2))
	b := m.Flat("b", Size(2))
	L := AddDiag(Mul(a, [][]float64{{0, 0}, {1, 0}}), Exp(b)) // lower triangular, positive diagonal
	m.LogDensity("trisolve", Sum(TriSolve(L, []float64{1, 2})))
	m.LogDensity("matmul", Sum(MatMul(a, Reshape(Concat(b, b), 2, 2))))
	m.LogDensity("llt", Sum(Log(Abs(LowerMulT(L)))))
	m.LogDensity("chol", Sum(Cholesky(AddDiag(LowerMulT(L), 0.5))))
	m.LogDensity("stack", Dot(Stack(b, b), [][]float64{{1, 2}, {3, 4}}))
	m.LogDensity("diag", Add(Dot(DiagPreMultiply(b, a), [][]float64{{1, 2}, {3, 4}}), Dot(DiagPostMultiply(a, b), [][]float64{{5, 6}, {7, 8}})))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0.3, -0.4, 0.8, 0.1, -0.2, 0.6}
	A := mat.NewDense(2, 2, x[:4])
	bv := x[4:]
	Lm := mat.NewTriDense(2, mat.Lower, []float64{math.Exp(bv[0]), 0, x[2], math.Exp(bv[1])})
	var sol mat.VecDense
	if err := sol.SolveVec(Lm, mat.NewVecDense(2, []float64{1, 2})); err != nil {
		t.Fatal(err)
	}
	want := mat.Sum(&sol)
	var mm mat.Dense
	mm.Mul(A, mat.NewDense(2, 2, []float64{bv[0], bv[1], bv[0], bv[1]}))
	want += mat.Sum(&mm)
	var llt mat.Dense
	llt.Mul(Lm, Lm.T())
	for _, v := range llt.RawMatrix().Data {
		want += math.Log(math.Abs(v))
	}
	S := mat.NewSymDense(2, []float64{llt.At(0, 0) + 0.5, llt.At(0, 1), llt.At(1, 0), llt.At(1, 1) + 0.5})
	var ch mat.Cholesky
	ch.Factorize(S)
	var cl mat.TriDense
	ch.LTo(&cl)
	want += mat.Sum(&cl)
	want += bv[0] + 2*bv[1] + 3*bv[0] + 4*bv[1]
	// diag(b)·A weighted by [[1 2] [3 4]], then A·diag(b) by [[5 6] [7 8]].
	want += bv[0]*(x[0]+2*x[1]) + bv[1]*(3*x[2]+4*x[3])
	want += bv[0]*(5*x[0]+7*x[2]) + bv[1]*(6*x[1]+8*x[3])
	if got := c.LogDensity(x); math.Abs(got-want) > 1e-12 {
		t.Errorf("log density %v, want %v", got, want)
	}
	irtest.CheckGradient(t, c.Program(), x, 1e-6)
}

// TestRowColAndSharing checks Row and Col of a parameter matrix, and that
// an expression written twice is computed once.
func TestRowColAndSharing(t *testing.T) {
	m := NewModel("rowcol")
	a := m.Flat("a", Shape(2, 3))
	m.LogDensity("row", Dot(Row(a, 1), []float64{1, 2, 3}))
	m.LogDensity("col", Dot(Col(a, 2), []float64{10, 20}))
	m.LogDensity("twice", Add(Sum(Exp(a)), Sum(Exp(a))))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}
	want := 0.4 + 2*0.5 + 3*0.6 + 10*0.3 + 20*0.6
	for _, v := range x {
		want += 2 * math.Exp(v)
	}
	if got := c.LogDensity(x); math.Abs(got-want) > 1e-12 {
		t.Errorf("log density %v, want %v", got, want)
	}
	irtest.CheckGradient(t, c.Program(), x, 1e-6)
	exps := 0
	for _, in := range c.Program().Instrs {
		if in.Op == ir.OpExp {
			exps++
		}
	}
	if exps != 1 {
		t.Errorf("Exp(a) written twice is computed %d times, want once", exps)
	}
}

// TestHelpers checks Mean, LogSoftmax, Softmax and CumSum against their
// definitions written out.
func TestHelpers(t *testing.T) {
	m := NewModel("helpers")
	a := m.Flat("a", Size(3))
	m.LogDensity("mean", Mul(Mean(a), 3))
	m.LogDensity("lsm", Dot(LogSoftmax(a), []float64{1, 0, 2}))
	m.LogDensity("sm", Dot(Softmax(a), []float64{0, 5, 0}))
	m.LogDensity("cumsum", Dot(CumSum(a), []float64{1, 10, 100}))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0.2, -0.4, 0.9}
	lse := math.Log(math.Exp(x[0]) + math.Exp(x[1]) + math.Exp(x[2]))
	want := (x[0] + x[1] + x[2]) +
		(x[0] - lse) + 2*(x[2]-lse) +
		5*math.Exp(x[1]-lse) +
		x[0] + 10*(x[0]+x[1]) + 100*(x[0]+x[1]+x[2])
	if got := c.LogDensity(x); math.Abs(got-want) > 1e-12 {
		t.Errorf("log density %v, want %v", got, want)
	}
	irtest.CheckGradient(t, c.Program(), x, 1e-6)
}

// TestExprMethods: every method of Expr is the function of its name with
// the receiver first, on random variables and on expressions alike.
func TestExprMethods(t *testing.T) {
	m := NewModel("methods")
	a := m.Flat("a", Size(3))
	b := m.Flat("b")
	e := Add(a, 1.0) // an expression, not a variable
	for _, x := range []Expr{a, e} {
		pairs := []struct {
			name         string
			method, want Expr
		}{
			{"Add", x.Add(b), Add(x, b)}, {"Sub", x.Sub(b), Sub(x, b)}, {"Mul", x.Mul(b), Mul(x, b)},
			{"Div", x.Div(b), Div(x, b)}, {"Pow", x.Pow(2.0), Pow(x, 2.0)}, {"Neg", x.Neg(), Neg(x)},
			{"Exp", x.Exp(), Exp(x)}, {"Log", x.Log(), Log(x)}, {"Sqrt", x.Sqrt(), Sqrt(x)},
			{"Square", x.Square(), Square(x)}, {"Logistic", x.Logistic(), Logistic(x)}, {"Sum", x.Sum(), Sum(x)},
			{"Dot", x.Dot([]float64{1, 2, 3}), Dot(x, []float64{1, 2, 3})},
			{"Index", x.Index([]int{2, 0}), Index(x, []int{2, 0})}, {"At", x.At(1), At(x, 1)},
		}
		for _, p := range pairs {
			if !graph.Same(p.method.node(), p.want.node()) {
				t.Errorf("%v.%s is not %s(%v, …): %v, want %v", x, p.name, p.name, x, p.method, p.want)
			}
		}
	}
}

// TestWhere: a where the data condition holds, b elsewhere, with the
// gradient reaching only the elements taken; scalars broadcast.
func TestWhere(t *testing.T) {
	m := NewModel("where")
	a := m.Flat("a", Size(3))
	b := m.Flat("b", Size(3))
	mask := []bool{true, false, true}
	m.LogDensity("vec", Sum(Where(mask, a, b)))
	m.LogDensity("scalar", Mul(Sum(Where([]float64{0, 1, 0}, a, 10.0)), 0.5))
	m.LogDensity("one", Where(true, At(b, 2), 3.0))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{1, 2, 3, 4, 5, 6} // a, then b
	want := (1 + 5 + 3) + 0.5*(10+2+10) + 6.0
	if got := c.LogDensity(x); math.Abs(got-want) > 1e-12 {
		t.Errorf("log density %v, want %v", got, want)
	}
	irtest.CheckGradient(t, c.Program(), x, 1e-6)
	for what, f := range map[string]func(){
		"a parameter condition": func() { Where(a, a, b) },
		"a too short":           func() { Where(mask, Slice(a, 0, 2), b) },
	} {
		var err error
		func() {
			defer Catch(&err)
			f()
		}()
		if err == nil {
			t.Errorf("%s: no error", what)
		}
	}
}

// TestTake: Take by data is Index; by an observed discrete variable it
// takes the same elements (through one-hot rows) with the same gradient,
// and Where over one picks as Where over data does.
func TestTake(t *testing.T) {
	idx := []int{2, 0, 1, 1, 2}
	y := []float64{0.5, -1, 0.2, 0.1, 1.3}
	data := NewModel("take")
	mu := data.Normal("mu", 0, 1, Size(3))
	sd := data.HalfNormal("sd", 1, Size(3))
	data.Normal("y", mu.Index(idx), sd.Index(idx), Observed(y))
	byVar := NewModel("take")
	mu2 := byVar.Normal("mu", 0, 1, Size(3))
	sd2 := byVar.HalfNormal("sd", 1, Size(3))
	k := byVar.Categorical("k", []float64{0.2, 0.3, 0.5}, Observed(idx))
	on := byVar.Bernoulli("on", 0.5, Observed([]float64{1, 0, 0, 0, 1}))
	byVar.Normal("y", mu2.Take(k), sd2.Take(k), Observed(y))
	byVar.Normal("w", Where(on, mu2.At(0), mu2.At(1)), 1, Observed(y))
	data.Normal("w", Where([]bool{true, false, false, false, true}, mu.At(0), mu.At(1)), 1, Observed(y))
	cd, err := data.Compile()
	if err != nil {
		t.Fatal(err)
	}
	cv, err := byVar.Compile()
	if err != nil {
		t.Fatal(err)
	}
	// The observed labels' own masses: log 0.5 each, and log p of the categories.
	mass := 5*math.Log(0.5) + math.Log(0.5) + 2*math.Log(0.3) + math.Log(0.2) + math.Log(0.5)
	x := []float64{0.3, -0.2, 0.7, 0.1, -0.4, 0.2}
	if got, want := cv.LogDensity(x), cd.LogDensity(x)+mass; math.Abs(got-want) > 1e-10 {
		t.Errorf("log density %v; by Index and Where over data %v", got, want)
	}
	irtest.CheckGradient(t, cv.Program(), x, 1e-6)
	if err := catch(func() { Take(mu, []int{0, 3}) }); err == nil {
		t.Errorf("an index outside the vector: no error")
	}
	if err := catch(func() { Take(mu2, sd2) }); err == nil || !strings.Contains(err.Error(), "discrete") {
		t.Errorf("indices from a continuous variable: err %v; want one asking for data or a discrete variable", err)
	}
}
