package ir_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// must panics on a build error: the programs below are fixed.
func must(id ir.ID, err error) ir.ID {
	if err != nil {
		panic(err)
	}
	return id
}

func emit(b *ir.Builder, op ir.Op, in ...ir.ID) ir.ID { return must(b.Emit(op, in, nil, -1)) }

// garchBody is σ²_t = ω + α·(y_{t-1} - μ)² + β·σ²_{t-1}: carry σ², sequence
// y_{t-1}, statics μ, ω, α, β; it emits the new σ².
func garchBody() *ir.Program {
	b := ir.NewBuilder(0)
	s2 := b.Input(nil)
	yprev := b.Input(nil)
	mu, omega, alpha, beta := b.Input(nil), b.Input(nil), b.Input(nil), b.Input(nil)
	d := emit(b, ir.OpSquare, emit(b, ir.OpSub, yprev, mu))
	next := emit(b, ir.OpAdd, omega, emit(b, ir.OpAdd, emit(b, ir.OpMul, alpha, d), emit(b, ir.OpMul, beta, s2)))
	b.AddOutput("carry", next)
	b.AddOutput("emit", next)
	p, err := b.Finalize(ir.None)
	if err != nil {
		panic(err)
	}
	return p
}

// garchProgram is the GARCH(1,1) log likelihood of y (Stan's garch11 from
// posteriordb, with σ₁ data) over position (μ, log ω, log α, log β):
// Σ_t normal_lpdf(y_t | μ, σ_t) up to the constant -½log 2π per term.
func garchProgram(y []float64, sigma1 float64) *ir.Program {
	T := len(y)
	b := ir.NewBuilder(4)
	mu := b.ParamSlice(0, nil)
	omega := emit(b, ir.OpExp, b.ParamSlice(1, nil))
	alpha := emit(b, ir.OpExp, b.ParamSlice(2, nil))
	beta := emit(b, ir.OpExp, b.ParamSlice(3, nil))
	yd := b.Const(y, []int{T})
	yprev := b.Const(y[:T-1], []int{T - 1})
	s2 := must(b.EmitBody(ir.OpScan, []ir.ID{b.Scalar(sigma1 * sigma1), yprev, mu, omega, alpha, beta}, []int{T - 1, 1, 1}, -1, garchBody()))
	all := must(b.Emit(ir.OpConcat, []ir.ID{b.Scalar(sigma1 * sigma1), s2}, nil, -1))
	r := emit(b, ir.OpSub, yd, mu)
	quad := emit(b, ir.OpDiv, emit(b, ir.OpSquare, r), all)
	terms := emit(b, ir.OpAdd, emit(b, ir.OpLog, all), quad)
	lp := emit(b, ir.OpMul, b.Scalar(-0.5), emit(b, ir.OpSum, terms))
	b.AddOutput("sigma2", all)
	p, err := b.Finalize(lp)
	if err != nil {
		panic(err)
	}
	return p
}

// garchLogLik is the same density in plain Go: the oracle.
func garchLogLik(y []float64, sigma1 float64, x []float64) float64 {
	mu, omega, alpha, beta := x[0], math.Exp(x[1]), math.Exp(x[2]), math.Exp(x[3])
	s2 := sigma1 * sigma1
	lp := 0.0
	for t, yt := range y {
		if t > 0 {
			s2 = omega + alpha*(y[t-1]-mu)*(y[t-1]-mu) + beta*s2
		}
		lp += -0.5*math.Log(s2) - 0.5*(yt-mu)*(yt-mu)/s2
	}
	return lp
}

func TestScanGARCH(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	y := make([]float64, 30)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	p := garchProgram(y, 0.8)
	for range 3 {
		x := []float64{rng.Float64() - 0.5, -1 - rng.Float64(), -2 + rng.Float64(), -0.5 - rng.Float64()}
		got := ir.NewFrame(p).Forward(x)
		if want := garchLogLik(y, 0.8, x); math.Abs(got-want) > 1e-10*math.Abs(want) {
			t.Errorf("log likelihood at %v = %.15g, plain Go %.15g", x, got, want)
		}
		irtest.CheckGradient(t, p, x, 1e-6)
	}
	irtest.CheckNoAllocs(t, p, []float64{0.1, -1, -2, -1})
}

// hmmProgram is the HMM forward algorithm over position
// [log π (K), log Γ (K×K), log emission densities (T×K)]:
// α₁ = log π + e₁, α_t[j] = logsumexp_i(α_{t-1}[i] + log Γ[i][j]) + e_t[j],
// and the target is logsumexp(α_T).
func hmmProgram(K, T int) *ir.Program {
	b := ir.NewBuilder(K + K*K + T*K)
	logPi := b.ParamSlice(0, []int{K})
	logGamma := b.ParamSlice(K, []int{K, K})
	logE := b.ParamSlice(K+K*K, []int{T, K})
	alpha1 := emit(b, ir.OpAdd, logPi, must(b.Emit(ir.OpSlice, []ir.ID{logE}, []int{0, K}, -1)))
	rest := must(b.Reshape(must(b.Emit(ir.OpSlice, []ir.ID{logE}, []int{K, (T - 1) * K}, -1)), []int{T - 1, K}))

	// Body: carry α [K], sequence e_t [K], static log Γ [K×K]; emits
	// logsumexp of the new α (the log marginal of y_1..y_t).
	bb := ir.NewBuilder(0)
	a := bb.Input([]int{K})
	e := bb.Input([]int{K})
	lg := bb.Input([]int{K, K})
	rows := make([]int, K*K) // tile α over columns: rows[i*K+j] = i
	for i := range rows {
		rows[i] = i / K
	}
	m := emit(bb, ir.OpAdd, must(bb.Emit(ir.OpGather, []ir.ID{a}, nil, bb.Table(rows))), lg)
	cols := make([]ir.ID, K)
	for j := range K {
		col := make([]int, K)
		for i := range col {
			col[i] = i*K + j
		}
		cols[j] = emit(bb, ir.OpLogSumExp, must(bb.Emit(ir.OpGather, []ir.ID{m}, nil, bb.Table(col))))
	}
	next := emit(bb, ir.OpAdd, must(bb.Emit(ir.OpConcat, cols, nil, -1)), e)
	bb.AddOutput("alpha", next)
	bb.AddOutput("marginal", emit(bb, ir.OpLogSumExp, next))
	body, err := bb.Finalize(ir.None)
	if err != nil {
		panic(err)
	}

	marg := must(b.EmitBody(ir.OpScan, []ir.ID{alpha1, rest, logGamma}, []int{T - 1, 1, 1}, -1, body))
	last := must(b.Emit(ir.OpSlice, []ir.ID{marg}, []int{T - 2, 1}, -1))
	last = must(b.Reshape(last, nil))
	p, err := b.Finalize(last)
	if err != nil {
		panic(err)
	}
	return p
}

// hmmFusedProgram is hmmProgram with the step written as
// logmatmulexp(α, log Γ) + e_t: one op instead of K gathers and sums.
func hmmFusedProgram(K, T int) *ir.Program {
	b := ir.NewBuilder(K + K*K + T*K)
	logPi := b.ParamSlice(0, []int{K})
	logGamma := b.ParamSlice(K, []int{K, K})
	logE := b.ParamSlice(K+K*K, []int{T, K})
	alpha1 := emit(b, ir.OpAdd, logPi, must(b.Emit(ir.OpSlice, []ir.ID{logE}, []int{0, K}, -1)))
	rest := must(b.Reshape(must(b.Emit(ir.OpSlice, []ir.ID{logE}, []int{K, (T - 1) * K}, -1)), []int{T - 1, K}))
	bb := ir.NewBuilder(0)
	a := bb.Input([]int{K})
	e := bb.Input([]int{K})
	lg := bb.Input([]int{K, K})
	next := emit(bb, ir.OpAdd, emit(bb, ir.OpLogMatMulExp, a, lg), e)
	bb.AddOutput("alpha", next)
	bb.AddOutput("marginal", emit(bb, ir.OpLogSumExp, next))
	body, err := bb.Finalize(ir.None)
	if err != nil {
		panic(err)
	}
	marg := must(b.EmitBody(ir.OpScan, []ir.ID{alpha1, rest, logGamma}, []int{T - 1, 1, 1}, -1, body))
	last := must(b.Reshape(must(b.Emit(ir.OpSlice, []ir.ID{marg}, []int{T - 2, 1}, -1)), nil))
	p, err := b.Finalize(last)
	if err != nil {
		panic(err)
	}
	return p
}

// hmmLogLik is the forward algorithm in plain Go, in probability space
// with rescaling (a different route from the program's log space).
func hmmLogLik(K, T int, x []float64) float64 {
	gamma := x[K : K+K*K]
	e := x[K+K*K:]
	alpha := make([]float64, K)
	for j := range K {
		alpha[j] = math.Exp(x[j] + e[j])
	}
	lp := 0.0
	for t := 1; t < T; t++ {
		next := make([]float64, K)
		for j := range K {
			for i := range K {
				next[j] += alpha[i] * math.Exp(gamma[i*K+j])
			}
			next[j] *= math.Exp(e[t*K+j])
		}
		s := 0.0
		for _, v := range next {
			s += v
		}
		for j := range next {
			next[j] /= s
		}
		lp += math.Log(s)
		alpha = next
	}
	return lp
}

func TestScanHMM(t *testing.T) {
	const K, T = 3, 12
	for _, p := range []*ir.Program{hmmProgram(K, T), hmmFusedProgram(K, T)} {
		testHMM(t, p, K, T)
	}
}

func testHMM(t *testing.T, p *ir.Program, K, T int) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 3 {
		x := make([]float64, p.Dim)
		for i := range x {
			x[i] = 2*rng.Float64() - 1
		}
		got := ir.NewFrame(p).Forward(x)
		want := hmmLogLik(K, T, x)
		if math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
			t.Errorf("log likelihood = %.15g, plain Go %.15g", got, want)
		}
		irtest.CheckGradient(t, p, x, 1e-6)
	}
	irtest.CheckNoAllocs(t, p, make([]float64, p.Dim))
}

// TestScanNested runs a scan inside a scan body: the outer step t adds the
// inner cumulative sum of w·z_t (z_t a parameter row) to a carried value.
func TestScanNested(t *testing.T) {
	const T, N = 4, 3
	inner := ir.NewBuilder(0)
	c := inner.Input(nil)
	z := inner.Input(nil)
	w := inner.Input(nil)
	nc := emit(inner, ir.OpAdd, c, emit(inner, ir.OpMul, w, z))
	inner.AddOutput("c", nc)
	inner.AddOutput("e", emit(inner, ir.OpSquare, nc))
	ib, err := inner.Finalize(ir.None)
	if err != nil {
		t.Fatal(err)
	}
	outer := ir.NewBuilder(0)
	oc := outer.Input(nil)
	row := outer.Input([]int{N})
	ow := outer.Input(nil)
	sq := must(outer.EmitBody(ir.OpScan, []ir.ID{oc, row, ow}, []int{N, 1, 1}, -1, ib))
	onc := emit(outer, ir.OpAdd, oc, emit(outer, ir.OpSum, sq))
	outer.AddOutput("c", onc)
	outer.AddOutput("e", emit(outer, ir.OpLog1p, emit(outer, ir.OpSquare, onc)))
	ob, err := outer.Finalize(ir.None)
	if err != nil {
		t.Fatal(err)
	}
	args := []irtest.Arg{P(-1, 1), P(-1, 1, T, N), P(0.5, 1.5)}
	p, err := irtest.OpProgramBody(ir.OpScan, []int{T, 1, 1}, nil, ob, args...)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(8, 9))
	x := irtest.Point(rng, args...)
	got := irtest.Output(p, x, irtest.OutputName)
	// Plain-Go oracle of the same recurrence.
	cv, zs, wv := x[0], x[1:1+T*N], x[1+T*N]
	for k := range T {
		ic, s := cv, 0.0
		for j := range N {
			ic += wv * zs[k*N+j]
			s += ic * ic
		}
		cv += s
		if want := math.Log1p(cv * cv); math.Abs(got[k]-want) > 1e-12*math.Max(1, math.Abs(want)) {
			t.Errorf("step %d emits %v, want %v", k, got[k], want)
		}
	}
	irtest.CheckGradient(t, p, x, 1e-6)
	irtest.CheckNoAllocs(t, p, x)
}

func TestScanShapeErrors(t *testing.T) {
	body := garchBody()
	b := ir.NewBuilder(0)
	one := b.Scalar(1)
	seq := b.Const(make([]float64, 5), []int{5})
	withParams := ir.NewBuilder(1)
	wp, err := withParams.Finalize(ir.None)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ir.NewBuilder(0).EmitBody(ir.OpScan, []ir.ID{0}, []int{1, 0, 0}, -1, wp); err == nil {
		t.Error("body with a position: want an error")
	}
	for _, c := range []struct {
		name string
		in   []ir.ID
		ints []int
	}{
		{"wrong step count", []ir.ID{one, seq, one, one, one, one}, []int{4, 1, 1}},
		{"missing static", []ir.ID{one, seq, one, one, one}, []int{5, 1, 1}},
		{"bad ints", []ir.ID{one, seq, one, one, one, one}, []int{5, 1}},
	} {
		if _, err := ir.NewBuilder(0).EmitBody(ir.OpScan, c.in, c.ints, -1, body); err == nil {
			t.Errorf("%s: want an error", c.name)
		}
	}
}

// A scan computing running sums: carry s, sequence x_t, emit s + x_t.
func ExampleOpScan() {
	body := ir.NewBuilder(0)
	s := body.Input(nil)
	xt := body.Input(nil)
	next, _ := body.Emit(ir.OpAdd, []ir.ID{s, xt}, nil, -1)
	body.AddOutput("s", next)
	body.AddOutput("emit", next)
	bp, _ := body.Finalize(ir.None)

	b := ir.NewBuilder(4)
	x := b.ParamSlice(0, []int{4})
	sums, _ := b.EmitBody(ir.OpScan, []ir.ID{b.Scalar(0), x}, []int{4, 1, 1}, -1, bp)
	b.AddOutput("sums", sums)
	p, _ := b.Finalize(ir.None)
	f := ir.NewFrame(p)
	f.Forward([]float64{1, 2, 3, 4})
	fmt.Println(f.Val(p.Output("sums")))
	// Output: [1 3 6 10]
}

// TestScanWithoutStepViews evaluates the GARCH and HMM programs with and
// without precomputed step views: the two paths must agree exactly.
func TestScanWithoutStepViews(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	y := make([]float64, 20)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	for _, p := range []*ir.Program{garchProgram(y, 0.8), hmmProgram(2, 15)} {
		x := make([]float64, p.Dim)
		for i := range x {
			x[i] = rng.Float64() - 0.5
		}
		g1, g2 := make([]float64, p.Dim), make([]float64, p.Dim)
		lp1 := ir.NewFrame(p).Gradient(x, g1)
		restore := ir.SetMaxStepViews(0)
		f := ir.NewFrame(p)
		restore()
		lp2 := f.Gradient(x, g2)
		if lp1 != lp2 {
			t.Errorf("log density %v with views, %v without", lp1, lp2)
		}
		for i := range g1 {
			if g1[i] != g2[i] {
				t.Errorf("gradient[%d] %v with views, %v without", i, g1[i], g2[i])
			}
		}
		irtest.CheckGradient(t, p, x, 1e-6)
	}
}

// TestConcurrentFrames evaluates one program from several goroutines, each
// with its own frame: results must match the sequential ones (run with
// -race to check that frames share nothing mutable).
func TestConcurrentFrames(t *testing.T) {
	p := hmmProgram(3, 10)
	x := make([]float64, p.Dim)
	for i := range x {
		x[i] = 0.1 * float64(i%5)
	}
	want := make([]float64, p.Dim)
	wantLP := ir.NewFrame(p).Gradient(x, want)
	errs := make(chan string, 4)
	for range 4 {
		go func() {
			f := ir.NewFrame(p)
			g := make([]float64, p.Dim)
			for range 50 {
				if lp := f.Gradient(x, g); lp != wantLP || g[0] != want[0] || g[len(g)-1] != want[len(g)-1] {
					errs <- fmt.Sprintf("concurrent evaluation gives %v, sequential %v", lp, wantLP)
					return
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}

func TestProgramString(t *testing.T) {
	s := hmmFusedProgram(2, 4).String()
	for _, want := range []string{"= scan", "ints=[3 1 1]", "    program dim=0", "= log_mat_mul_exp", "alpha=%"} {
		if !strings.Contains(s, want) {
			t.Errorf("dump lacks %q:\n%s", want, s)
		}
	}
}

// linearRecurrence is x_t = a_t + b_t·x_{t-1} in plain Go: the oracle.
func linearRecurrence(v [][]float64) []float64 {
	n := max(len(v[1]), len(v[2]))
	x := make([]float64, n)
	prev := v[0][0]
	for t := range x {
		a, b := v[1][0], v[2][0]
		if len(v[1]) > 1 {
			a = v[1][t]
		}
		if len(v[2]) > 1 {
			b = v[2][t]
		}
		prev = a + b*prev
		x[t] = prev
	}
	return x
}

func recurrenceCases() []opCase {
	return []opCase{
		{name: "linear_recurrence", op: ir.OpLinearRecurrence, args: []irtest.Arg{P(-1, 1), P(-1, 1, 12), P(-0.9, 0.9, 12)}, want: linearRecurrence},
		{name: "linear_recurrence scalar b", op: ir.OpLinearRecurrence, args: []irtest.Arg{P(-1, 1), P(-1, 1, 12), P(-0.9, 0.9)}, want: linearRecurrence},
		{name: "linear_recurrence scalar a", op: ir.OpLinearRecurrence, args: []irtest.Arg{P(-1, 1), P(-1, 1), P(-0.9, 0.9, 12)}, want: linearRecurrence},
		{name: "linear_recurrence random walk", op: ir.OpLinearRecurrence, args: []irtest.Arg{C(nil, 0), P(-1, 1, 7), C(nil, 1)}, want: linearRecurrence},
	}
}

// garchLinearProgram is garchProgram with the variances computed by one
// linear_recurrence instead of a scan.
func garchLinearProgram(y []float64, sigma1 float64) *ir.Program {
	T := len(y)
	b := ir.NewBuilder(4)
	mu := b.ParamSlice(0, nil)
	omega := emit(b, ir.OpExp, b.ParamSlice(1, nil))
	alpha := emit(b, ir.OpExp, b.ParamSlice(2, nil))
	beta := emit(b, ir.OpExp, b.ParamSlice(3, nil))
	yprev := b.Const(y[:T-1], []int{T - 1})
	a := emit(b, ir.OpAdd, omega, emit(b, ir.OpMul, alpha, emit(b, ir.OpSquare, emit(b, ir.OpSub, yprev, mu))))
	s1 := b.Scalar(sigma1 * sigma1)
	s2 := emit(b, ir.OpLinearRecurrence, s1, a, beta)
	all := must(b.Emit(ir.OpConcat, []ir.ID{s1, s2}, nil, -1))
	r := emit(b, ir.OpSub, b.Const(y, []int{T}), mu)
	terms := emit(b, ir.OpAdd, emit(b, ir.OpLog, all), emit(b, ir.OpDiv, emit(b, ir.OpSquare, r), all))
	p, err := b.Finalize(emit(b, ir.OpMul, b.Scalar(-0.5), emit(b, ir.OpSum, terms)))
	if err != nil {
		panic(err)
	}
	return p
}

// TestGARCHAsLinearRecurrence writes the GARCH(1,1) variances as one
// linear_recurrence (σ²_t = ω + α(y_{t-1}-μ)² + β σ²_{t-1}) and checks it
// against the scan version.
func TestGARCHAsLinearRecurrence(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	y := make([]float64, 30)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	p := garchLinearProgram(y, 0.8)
	scan := garchProgram(y, 0.8)
	for range 3 {
		x := []float64{rng.Float64() - 0.5, -1 - rng.Float64(), -2 + rng.Float64(), -0.5 - rng.Float64()}
		got, want := ir.NewFrame(p).Forward(x), ir.NewFrame(scan).Forward(x)
		if math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("linear_recurrence GARCH %v, scan GARCH %v", got, want)
		}
		irtest.CheckGradient(t, p, x, 1e-6)
	}
	irtest.CheckNoAllocs(t, p, []float64{0.1, -1, -2, -1})
}

// armaProgram is the ARMA(1,1) likelihood of posteriordb's arma11 over
// position (μ, φ, θ, log σ): err_t = y_t - (μ + φ y_{t-1} + θ err_{t-1}),
// err_1 = y_1 - (μ + φ μ), Σ normal terms of err / σ (up to a constant).
// The scan has one carry (err), two sequences (y_t, y_{t-1}) and three
// statics.
func armaProgram(y []float64) *ir.Program {
	T := len(y)
	b := ir.NewBuilder(4)
	mu, phi, theta := b.ParamSlice(0, nil), b.ParamSlice(1, nil), b.ParamSlice(2, nil)
	sigma := emit(b, ir.OpExp, b.ParamSlice(3, nil))
	err1 := emit(b, ir.OpSub, b.Scalar(y[0]), emit(b, ir.OpAdd, mu, emit(b, ir.OpMul, phi, mu)))
	bb := ir.NewBuilder(0)
	e, yt, yp := bb.Input(nil), bb.Input(nil), bb.Input(nil)
	m, p, th := bb.Input(nil), bb.Input(nil), bb.Input(nil)
	nu := emit(bb, ir.OpAdd, m, emit(bb, ir.OpAdd, emit(bb, ir.OpMul, p, yp), emit(bb, ir.OpMul, th, e)))
	next := emit(bb, ir.OpSub, yt, nu)
	bb.AddOutput("err", next)
	bb.AddOutput("emit", next)
	body, err := bb.Finalize(ir.None)
	if err != nil {
		panic(err)
	}
	errs := must(b.EmitBody(ir.OpScan, []ir.ID{err1, b.Const(y[1:], []int{T - 1}), b.Const(y[:T-1], []int{T - 1}), mu, phi, theta}, []int{T - 1, 1, 2}, -1, body))
	all := must(b.Emit(ir.OpConcat, []ir.ID{err1, errs}, nil, -1))
	z := emit(b, ir.OpDiv, all, sigma)
	lp := emit(b, ir.OpSub, emit(b, ir.OpMul, b.Scalar(-0.5), emit(b, ir.OpDot, z, z)), emit(b, ir.OpMul, b.Scalar(float64(T)), emit(b, ir.OpLog, sigma)))
	p2, err := b.Finalize(lp)
	if err != nil {
		panic(err)
	}
	return p2
}

func armaLogLik(y, x []float64) float64 {
	mu, phi, theta, sigma := x[0], x[1], x[2], math.Exp(x[3])
	e := y[0] - (mu + phi*mu)
	lp := -0.5 * e * e / (sigma * sigma)
	for t := 1; t < len(y); t++ {
		e = y[t] - (mu + phi*y[t-1] + theta*e)
		lp -= 0.5 * e * e / (sigma * sigma)
	}
	return lp - float64(len(y))*math.Log(sigma)
}

// TestScanScalarBody runs scans whose bodies are scalar arithmetic (GARCH,
// ARMA) through the dedicated loop and through the general path: results
// must be identical, match plain Go, and have right gradients.
func TestScanScalarBody(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	y := make([]float64, 40)
	for i := range y {
		y[i] = rng.NormFloat64()
	}
	arma := armaProgram(y)
	for range 3 {
		x := []float64{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5}
		if got, want := ir.NewFrame(arma).Forward(x), armaLogLik(y, x); math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("ARMA log likelihood %v, plain Go %v", got, want)
		}
		for _, p := range []*ir.Program{arma, garchProgram(y, 0.8)} {
			g1, g2 := make([]float64, p.Dim), make([]float64, p.Dim)
			lp1 := ir.NewFrame(p).Gradient(x, g1)
			lp2 := ir.NewFrame(ir.WithoutFastPath(p)).Gradient(x, g2)
			if lp1 != lp2 || !slices.Equal(g1, g2) {
				t.Errorf("scalar loop (%v, %v) and general path (%v, %v) differ", lp1, g1, lp2, g2)
			}
			irtest.CheckGradient(t, p, x, 1e-6)
		}
	}
	irtest.CheckNoAllocs(t, arma, []float64{0.1, 0.2, 0.3, 0.4})
}
