package ppl

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
)

// TestNonFinite checks that the terms that are not finite are named.
func TestNonFinite(t *testing.T) {
	m := NewModel("t")
	x := m.Normal("x", 0, 1)
	m.Normal("y", x, 1).Observe([]float64{1, 2})
	m.LogDensity("needs_x_above_5", Log(Sub(x, 5)))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	d := c.NewDensity()
	if got := d.NonFinite([]float64{0}); !slices.Equal(got, []string{"needs_x_above_5"}) {
		t.Errorf("NonFinite at x=0 = %v, want [needs_x_above_5]", got)
	}
	if got := d.NonFinite([]float64{6}); len(got) != 0 {
		t.Errorf("NonFinite at x=6 = %v, want none", got)
	}
	g := make([]float64, 1)
	if lp := d.LogDensityGrad([]float64{0}, g); !math.IsInf(lp, -1) {
		t.Errorf("log density where a term is NaN = %v, want -Inf", lp)
	}
}

// TestPointwiseLogLik checks the pointwise log-likelihood of observed
// variables at a draw against distuv.
func TestPointwiseLogLik(t *testing.T) {
	y := []float64{0.5, -1, 2.5}
	m := NewModel("t")
	mu := m.Normal("mu", 0, 1)
	sigma := m.HalfNormal("sigma", 1)
	m.Normal("y", mu, sigma).Observe(y)
	m.Mixture("z", 0.3, []Component{NormalComp(mu, 1), NormalComp(0, 2)}).Observe([]float64{1, -2})
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	if c.LogLikLen() != 5 {
		t.Fatalf("LogLikLen = %d, want 5", c.LogLikLen())
	}
	out := make([]float64, 5)
	if err := c.PointwiseLogLik([]float64{0.7, 1.5}, out); err != nil {
		t.Fatal(err)
	}
	want := []float64{lnNormal(y[0], 0.7, 1.5), lnNormal(y[1], 0.7, 1.5), lnNormal(y[2], 0.7, 1.5)}
	for _, z := range []float64{1, -2} {
		want = append(want, math.Log(0.3*math.Exp(lnNormal(z, 0.7, 1))+0.7*math.Exp(lnNormal(z, 0, 2))))
	}
	for i := range want {
		if math.Abs(out[i]-want[i]) > 1e-12 {
			t.Errorf("term %d = %v, want %v", i, out[i], want[i])
		}
	}
	if got := c.Observed(); len(got) != 2 || got[0].Name != "y" || got[1].Name != "z" {
		t.Errorf("Observed = %v, want y then z", got)
	}
}

// TestBatch checks that a batch of positions gives the single-position
// results.
func TestBatch(t *testing.T) {
	c, err := eightSchools().Compile()
	if err != nil {
		t.Fatal(err)
	}
	d := c.newDensity()
	const B = 3
	xs := make([]float64, B*c.Dim())
	for i := range xs {
		xs[i] = math.Sin(float64(i))
	}
	lps, grads := make([]float64, B), make([]float64, B*c.Dim())
	d.Batch(xs, lps, grads)
	g := make([]float64, c.Dim())
	for b := range B {
		x := xs[b*c.Dim() : (b+1)*c.Dim()]
		if lp := d.LogDensityGrad(x, g); lp != lps[b] || !slices.Equal(g, grads[b*c.Dim():(b+1)*c.Dim()]) {
			t.Errorf("row %d: batch %v, single %v", b, lps[b], lp)
		}
	}
}

// TestDeterministicValues checks that Constrain gives the deterministic
// quantities computed from the parameters.
func TestDeterministicValues(t *testing.T) {
	c, err := eightSchools().Compile()
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{1, 0.5, -1, 0, 1, 2, -2, 0.5, 0.25, 3}
	v, err := c.Constrain(x)
	if err != nil {
		t.Fatal(err)
	}
	tau := math.Exp(0.5)
	if math.Abs(v["tau"][0]-tau) > 1e-15 {
		t.Errorf("tau = %v, want e^0.5", v["tau"])
	}
	for i, th := range v["theta"] {
		if want := 1 + tau*x[2+i]; math.Abs(th-want) > 1e-12 {
			t.Errorf("theta[%d] = %v, want %v", i, th, want)
		}
	}
}

// TestConstantFolding checks that an expression of data alone is computed
// once, at compile time, and not by the program.
func TestConstantFolding(t *testing.T) {
	x := []float64{0.1, 0.2}
	m := NewModel("t")
	mu := m.Normal("mu", 0, 1)
	m.Normal("y", Add(mu, Exp(Mul(2, x))), 1).Observe([]float64{1, 2})
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range c.Program().Instrs {
		if in.Op == ir.OpExp || in.Op == ir.OpMul {
			t.Errorf("the program computes %s of data at every evaluation:\n%v", in.Op, c.Program())
		}
	}
	// Oracle: the same density written out.
	want := lnNormal(0.3, 0, 1) + lnNormal(1, 0.3+math.Exp(0.2), 1) + lnNormal(2, 0.3+math.Exp(0.4), 1)
	if got := c.LogDensity([]float64{0.3}); math.Abs(got-want) > 1e-12 {
		t.Errorf("log density %v, want %v", got, want)
	}
}

// TestPointwiseLogLikMultivariate checks one term per event of a
// multivariate variable, summing to the variables' log densities.
func TestPointwiseLogLikMultivariate(t *testing.T) {
	c, err := multivariateModel().Compile()
	if err != nil {
		t.Fatal(err)
	}
	// Oracle: 4 rows of y, one simplex w, 4 categories c.
	if c.LogLikLen() != 9 {
		t.Fatalf("LogLikLen = %d, want 9", c.LogLikLen())
	}
	x := []float64{0.1, -0.2, 0.3, 0.4, -0.5, 0.6}
	out := make([]float64, 9)
	if err := c.PointwiseLogLik(x, out); err != nil { // identity transforms: draw = x
		t.Fatal(err)
	}
	sum := 0.0
	for _, v := range out {
		sum += v
	}
	prior := 0.0
	for _, v := range x {
		prior += lnNormal(v, 0, 1)
	}
	if want := multivariateLogDensity(x) - prior; math.Abs(sum-want) > 1e-10 {
		t.Errorf("pointwise terms sum to %v, want %v", sum, want)
	}
}

// TestPointwiseLogLikReusesMemory checks that evaluating the pointwise
// log-likelihood does not allocate a frame (as large as the data) per draw.
func TestPointwiseLogLikReusesMemory(t *testing.T) {
	y := make([]float64, 1000)
	m := NewModel("t")
	mu := m.Normal("mu", 0, 1)
	m.Normal("y", mu, 1).Observe(y)
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, c.LogLikLen())
	draw := []float64{0.5}
	c.PointwiseLogLik(draw, out)
	if a := testing.AllocsPerRun(20, func() { c.PointwiseLogLik(draw, out) }); a > 1 && !raceEnabled {
		t.Errorf("PointwiseLogLik allocates %v times per draw, want at most 1", a)
	}
	// Oracle: N(0 | 0.5, 1) for every element.
	if want := lnNormal(0, 0.5, 1); math.Abs(out[999]-want) > 1e-12 {
		t.Errorf("term = %v, want %v", out[999], want)
	}
}

// TestStaleCompiled checks that a model changed after compiling is not
// sampled through the old layout.
func TestStaleCompiled(t *testing.T) {
	m := NewModel("t")
	m.Normal("a", 0, 1)
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	m.Normal("b", 0, 1)
	if _, err := c.PosteriorPredictive(nil, []float64{0}); err == nil || !strings.Contains(err.Error(), "compile it again") {
		t.Errorf("stale PosteriorPredictive: %v, want an error saying to compile again", err)
	}
	c2, err := m.Compile()
	if err != nil || c2 == c || c2.Dim() != 2 {
		t.Errorf("recompiled: %v (dim %d), want a new model of dimension 2", err, c2.Dim())
	}
}

// TestTerms checks the list of log-density terms a backend sees.
func TestTerms(t *testing.T) {
	c, err := eightSchools().Compile()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, term := range c.Terms() {
		names = append(names, term.Name)
		if term.Observed != (term.Name == "y") {
			t.Errorf("term %s: Observed = %v", term.Name, term.Observed)
		}
		if c.Program().Values[term.ID].Len != 1 {
			t.Errorf("term %s is not a scalar", term.Name)
		}
	}
	want := []string{"jacobian(tau)", "mu", "tau", "theta_tilde", "y"}
	if !slices.Equal(names, want) {
		t.Errorf("terms %v, want %v", names, want)
	}
}

// TestConcurrentUse evaluates one compiled model from several goroutines
// (each with its own Density, and through the pooled convenience methods);
// run with -race.
func TestConcurrentUse(t *testing.T) {
	c, err := eightSchools().Compile()
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, c.Dim())
	want := eightSchoolsLogDensity(x)
	errs := make(chan string, 8)
	done := make(chan bool)
	for w := range 4 {
		go func() {
			d := c.NewDensity()
			g := make([]float64, c.Dim())
			for range 200 {
				var lp float64
				if w%2 == 0 {
					lp = d.LogDensityGrad(x, g)
				} else {
					lp = c.LogDensityGrad(x, g)
				}
				if math.Abs(lp-want) > 1e-10 {
					errs <- "a concurrent evaluation differs"
					break
				}
			}
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestSumOfLogPDF checks that Sum(LogPDF(…)) compiles to one summing log
// density instruction.
func TestSumOfLogPDF(t *testing.T) {
	m := NewModel("t")
	mu := m.Flat("mu")
	m.LogDensity("lik", LogPDF("Normal", []float64{1, 2, 3}, mu, 2))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range c.Program().Instrs {
		if in.Op == ir.OpSum || in.Op == ir.OpNormalLPDF && len(in.Ints) > 0 && in.Ints[0] == 1 {
			t.Errorf("program has %s%v; want one summing normal_lpdf:\n%v", in.Op, in.Ints, c.Program())
		}
	}
	want := lnNormal(1, 0.5, 2) + lnNormal(2, 0.5, 2) + lnNormal(3, 0.5, 2)
	if got := c.LogDensity([]float64{0.5}); math.Abs(got-want) > 1e-12 {
		t.Errorf("log density %v, want %v", got, want)
	}
}

// TestObserveExpressionOfData checks that data may be given as an
// expression of data alone.
func TestObserveExpressionOfData(t *testing.T) {
	m := NewModel("t")
	mu := m.Normal("mu", 0, 1)
	m.Normal("logy", mu, 1).Observe(Log([]float64{1, math.E}))
	c, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	want := lnNormal(0.5, 0, 1) + lnNormal(0, 0.5, 1) + lnNormal(1, 0.5, 1)
	if got := c.LogDensity([]float64{0.5}); math.Abs(got-want) > 1e-12 {
		t.Errorf("log density %v, want %v", got, want)
	}
}
