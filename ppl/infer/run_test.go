package infer

import (
	"context"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/posterior"
)

func column(p *posterior.Posterior, name string) [][]float64 {
	j := p.Column(name)
	out := make([][]float64, len(p.Chains))
	for c := range p.Chains {
		out[c] = p.Chains[c].Values[j]
	}
	return out
}

func mapChains(ch [][]float64, f func(float64) float64) [][]float64 {
	out := make([][]float64, len(ch))
	for i, c := range ch {
		out[i] = make([]float64, len(c))
		for j, v := range c {
			out[i][j] = f(v)
		}
	}
	return out
}

// checkMean asserts |mean - want| ≤ 5·MCSE (the MCSE from package diag).
func checkMean(t *testing.T, what string, ch [][]float64, want float64) {
	t.Helper()
	flat := diag.Flatten(ch)
	m := 0.0
	for _, v := range flat {
		m += v
	}
	m /= float64(len(flat))
	se := diag.MCSEMean(ch)
	if math.Abs(m-want) > 5*se {
		t.Errorf("%s: mean %.4f, want %.4f ± %.4f (5 MCSE)", what, m, want, 5*se)
	}
	if r := diag.Rhat(ch); r > 1.01 {
		t.Errorf("%s: R-hat %.4f > 1.01", what, r)
	}
}

// TestRunInvariance runs every sampler with adaptation (diagonal and dense)
// on a standard normal and a correlated Gaussian and checks first and
// second moments against their true values.
func TestRunInvariance(t *testing.T) {
	type tc struct {
		sampler Sampler
		dense   bool
		draws   int
	}
	cases := []tc{{NUTS, false, 1000}, {NUTS, true, 1000}, {HMC, false, 1000}}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		name := c.sampler.String()
		if c.dense {
			name += "/dense"
		}
		t.Run(name+"/normal", func(t *testing.T) {
			p, err := Run(context.Background(), stdNormalModel(4), Config{Seed: 11, Sampler: c.sampler, Dense: c.dense, Draws: c.draws})
			if err != nil {
				t.Fatal(err)
			}
			for _, col := range []string{"x[0]", "x[3]"} {
				ch := column(p, col)
				checkMean(t, col, ch, 0)
				checkMean(t, col+"²", mapChains(ch, func(v float64) float64 { return v * v }), 1)
			}
			// The deterministic quantity exp(x[1]) has mean e^{1/2}.
			checkMean(t, "ex0", column(p, "ex0"), math.Exp(0.5))
		})
		t.Run(name+"/correlated", func(t *testing.T) {
			p, err := Run(context.Background(), correlatedModel(), Config{Seed: 12, Sampler: c.sampler, Dense: c.dense, Draws: c.draws})
			if err != nil {
				t.Fatal(err)
			}
			x0, x1 := column(p, "x[0]"), column(p, "x[1]")
			prod := make([][]float64, len(x0))
			for i := range x0 {
				prod[i] = make([]float64, len(x0[i]))
				for k := range x0[i] {
					prod[i][k] = x0[i][k] * x1[i][k]
				}
			}
			checkMean(t, "x[0]", x0, 0)
			checkMean(t, "x[1]", x1, 0)
			checkMean(t, "x[0]·x[1]", prod, 2.7)
			checkMean(t, "x[1]²", mapChains(x1, func(v float64) float64 { return v * v }), 9)
			if c.sampler == NUTS {
				for _, ch := range p.Chains {
					for _, d := range ch.Stats.Divergent {
						if d {
							t.Fatal("divergent transition on a Gaussian")
						}
					}
				}
			}
		})
	}
}

// TestReproducible checks that one seed gives identical draws with 1 and 2
// cores.
func TestReproducible(t *testing.T) {
	run := func(procs int) *posterior.Posterior {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		p, err := Run(context.Background(), correlatedModel(), Config{Seed: 42, Warmup: 200, Draws: 200})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := run(1), run(2)
	for c := range a.Chains {
		for j := range a.Chains[c].Values {
			for i, v := range a.Chains[c].Values[j] {
				if b.Chains[c].Values[j][i] != v {
					t.Fatalf("chain %d column %d draw %d: %v with 1 core, %v with 2", c, j, i, v, b.Chains[c].Values[j][i])
				}
			}
		}
	}
	// Different chains must not share a stream.
	if a.Chains[0].Values[0][10] == a.Chains[1].Values[0][10] {
		t.Error("chains 1 and 2 drew the same value: streams are not independent")
	}
}

// TestCancel stops the run from the progress callback once sampling has
// begun and expects the draws so far, equal in every chain.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen []ChainProgress
	p, err := Run(ctx, stdNormalModel(50), Config{Seed: 1, Warmup: 100, Draws: 1_000_000, ProgressInterval: 1,
		Progress: func(ps []ChainProgress) {
			seen = append(seen[:0], ps...)
			all := true
			for _, c := range ps {
				all = all && c.Iteration > 150
			}
			if all {
				cancel()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Interrupted {
		t.Fatal("Interrupted not set after cancel")
	}
	n := p.Draws()
	if n == 0 || n >= 1_000_000 {
		t.Fatalf("%d draws kept, want some and not all", n)
	}
	for c, ch := range p.Chains {
		if len(ch.Values[0]) != n || len(ch.Stats.LP) != n {
			t.Errorf("chain %d keeps %d draws, %d stats; want %d", c, len(ch.Values[0]), len(ch.Stats.LP), n)
		}
	}
	if len(seen) != 4 || !seen[0].Done {
		t.Errorf("last progress report %+v, want 4 chains all done", seen)
	}
}

// TestNoFiniteStart expects the error to name the term that is not finite.
func TestNoFiniteStart(t *testing.T) {
	_, err := Run(context.Background(), halfModel{}, Config{Seed: 1})
	if err == nil || !strings.Contains(err.Error(), "x (prior)") || !strings.HasPrefix(err.Error(), "infer: ") {
		t.Fatalf("error %v, want one naming \"x (prior)\"", err)
	}
	// With a user start where the density is finite the run succeeds.
	p, err := Run(context.Background(), halfModel{}, Config{Seed: 1, Init: []float64{11}, Warmup: 100, Draws: 100, Chains: 1})
	if err != nil {
		t.Fatal(err)
	}
	if v := p.Chains[0].Values[0][0]; v <= 10 {
		t.Errorf("draw %g outside the support x > 10", v)
	}
}

func TestColumnNames(t *testing.T) {
	for _, c := range []struct {
		shape []int
		want  string
	}{
		{nil, "a"},
		{[]int{3}, "a[0] a[1] a[2]"},
		{[]int{2, 2}, "a[0,0] a[0,1] a[1,0] a[1,1]"},
	} {
		if got := strings.Join(ColumnNames("a", c.shape), " "); got != c.want {
			t.Errorf("shape %v: %q, want %q", c.shape, got, c.want)
		}
	}
}

// panicModel's density panics on its 50th evaluation, as a buggy model
// might; Run must return an error instead of ending the process.
type panicModel struct{ halfModel }

func (panicModel) NewDensity() Density { return &panicDensity{} }

type panicDensity struct {
	halfDensity
	n int
}

func (d *panicDensity) LogDensityGrad(x, g []float64) float64 {
	d.n++
	if d.n == 50 {
		panic("index out of range [3] with length 3")
	}
	g[0] = -x[0]
	return -0.5 * x[0] * x[0]
}

func TestPanicsBecomeErrors(t *testing.T) {
	_, err := Run(context.Background(), panicModel{}, Config{Seed: 1, Progress: func([]ChainProgress) { panic("bad callback") }, ProgressInterval: 1})
	if err == nil || !strings.Contains(err.Error(), "panicked: index out of range") {
		t.Fatalf("error %v, want one reporting the panic", err)
	}
}

// lateFailModel's density fails (panics, as a backend whose MPI rank or
// GPU worker died does) on its evaluation at, after the draws have begun.
type lateFailModel struct {
	halfModel
	at int
}

func (m lateFailModel) NewDensity() Density { return &lateFailDensity{at: m.at} }

type lateFailDensity struct {
	halfDensity
	n, at int
}

func (d *lateFailDensity) LogDensityGrad(x, g []float64) float64 {
	d.n++
	if d.n == d.at {
		panic("mpi backend: the MPI job ended")
	}
	g[0] = -x[0]
	return -0.5 * x[0] * x[0]
}

// TestFailureKeepsDraws: a chain that fails after the draws began ends the
// run as an interrupt does, and the draws every chain made come back with
// the error; a failure before any draw gives the error alone.
func TestFailureKeepsDraws(t *testing.T) {
	// One chain: warm-up 100 and about 3 gradients a draw, so the 1,000th
	// evaluation falls among the draws.
	p, err := Run(context.Background(), lateFailModel{at: 1000}, Config{Seed: 1, Chains: 1, Warmup: 100, Draws: 1000})
	if err == nil || !strings.Contains(err.Error(), "the MPI job ended") {
		t.Fatalf("error %v, want the failure", err)
	}
	if p == nil {
		t.Fatal("the draws made before the failure were lost")
	}
	n := p.Draws()
	if n == 0 || n >= 1000 || !p.Interrupted {
		t.Errorf("%d draws kept, interrupted %v: want some but not all, marked interrupted", n, p.Interrupted)
	}
	if len(p.Chains[0].Stats.LP) != n {
		t.Errorf("the statistics hold %d draws, the values %d", len(p.Chains[0].Stats.LP), n)
	}
	for _, v := range p.Chains[0].Values[0] {
		if v == 0 {
			t.Fatal("a kept draw is an unwritten zero")
		}
	}
	if p, err := Run(context.Background(), lateFailModel{at: 20}, Config{Seed: 1, Chains: 1, Warmup: 100, Draws: 100}); err == nil || p != nil {
		t.Errorf("a failure in the warm-up gave %v draws and error %v, want no draws and the error", p, err)
	}
}

// TestNoParameters: a model without parameters still runs and records its
// deterministic quantities.
func TestNoParameters(t *testing.T) {
	for _, s := range []Sampler{NUTS, HMC} {
		p, err := Run(context.Background(), constModel{}, Config{Seed: 1, Sampler: s, Warmup: 50, Draws: 10})
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if v := p.Chains[0].Values[0][9]; v != 42 {
			t.Errorf("%s: c = %g, want 42", s, v)
		}
	}
}

// TestDenseMetricHelps: on a Gaussian with correlation 0.99 the adapted
// dense metric whitens the posterior, so NUTS needs far fewer leapfrog
// steps per draw than with the diagonal metric (the point of DenseMetric).
func TestDenseMetricHelps(t *testing.T) {
	if testing.Short() {
		t.Skip("two full runs")
	}
	r := 0.99
	det := 1 - r*r
	m := &gaussModel{d: 2, prec: []float64{1 / det, -r / det, -r / det, 1 / det}}
	steps := func(cfg Config) float64 {
		cfg.Seed = 3
		p, err := Run(context.Background(), m, cfg)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, ch := range p.Chains {
			for _, l := range ch.Stats.NLeapfrog {
				n += l
			}
		}
		return float64(n) / float64(4*p.Draws())
	}
	diagSteps, denseSteps, autoSteps := steps(Config{DiagMetric: true}), steps(Config{Dense: true}), steps(Config{})
	if !(denseSteps*3 < diagSteps) {
		t.Errorf("leapfrog steps per draw: dense %.1f, diagonal %.1f; want dense at least 3× fewer", denseSteps, diagSteps)
	}
	// By default the warm-up sees the correlation and turns dense itself.
	if !(autoSteps*3 < diagSteps) {
		t.Errorf("leapfrog steps per draw: default %.1f, diagonal %.1f; want the default to turn dense and take at least 3× fewer", autoSteps, diagSteps)
	}
}

// TestAutoMetricStaysDiagonal: on independent coordinates of very
// different scales the default keeps the diagonal metric (a dense one
// would only add work and estimation noise).
func TestAutoMetricStaysDiagonal(t *testing.T) {
	d := 10
	prec := make([]float64, d*d)
	for i := 0; i < d; i++ {
		prec[i*d+i] = 1 / math.Pow(10, float64(i%5)-2)
	}
	p, err := Run(context.Background(), &gaussModel{d: d, prec: prec}, Config{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	for c, ch := range p.Chains {
		if ch.Adaptation.Dense {
			t.Errorf("chain %d turned dense on independent coordinates", c+1)
		}
	}
	if p.Settings.Metric != "diag_e" {
		t.Errorf("metric %q; want diag_e", p.Settings.Metric)
	}
}

// TestDrawsMustFit: under a memory limit, a run whose draws cannot fit is
// refused before it starts, saying how many draws would; a run that fits
// goes ahead.
func TestDrawsMustFit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	runtime.GC()
	debug.SetMemoryLimit(currentHeap() + 64<<20)
	start := time.Now()
	_, err := Run(context.Background(), halfModel{}, Config{Seed: 1, Chains: 4, Warmup: 10, Draws: 100_000_000, Init: []float64{11}})
	if err == nil || !strings.Contains(err.Error(), "4 chains × 100000000 draws") || !strings.Contains(err.Error(), "at most") {
		t.Fatalf("error %v, want the run refused with the draws that would fit", err)
	}
	t.Logf("refused in %v: %v", time.Since(start), err)
	if _, err := Run(context.Background(), halfModel{}, Config{Seed: 1, Chains: 4, Warmup: 10, Draws: 1000, Init: []float64{11}}); err != nil {
		t.Errorf("a run of 4 × 1000 draws under the same limit: %v", err)
	}
}

func currentHeap() int64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
