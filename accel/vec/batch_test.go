package vec_test

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/accel/vec"
)

// agree reports whether got matches the reference want to 1e-12 relative
// (absolute near zero), infinities and NaN alike.
func agree(got, want float64) bool {
	if got == want || (math.IsNaN(got) && math.IsNaN(want)) {
		return true
	}
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}

// checkAgainstFrame evaluates p for chains positions, lockstep and with
// ir.Frame one at a time (the reference semantics, planned and unfused),
// and compares log densities and gradients.
func checkAgainstFrame(t *testing.T, name string, p *ir.Program, chains int, radius float64) {
	t.Helper()
	for _, unfused := range []bool{false, true} {
		checkAgainstFrameOnce(t, name, p, chains, radius, unfused)
	}
}

func checkAgainstFrameOnce(t *testing.T, name string, p *ir.Program, chains int, radius float64, unfused bool) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, uint64(chains)))
	xs := make([]float64, chains*p.Dim)
	for i := range xs {
		xs[i] = radius * (2*rng.Float64() - 1)
	}
	checkPositions(t, name, p, xs, unfused)
}

// checkAtBoundary is checkAgainstFrame with one coordinate of each chain
// far out (a bounded parameter's transform at its bound, in floating
// point, or beyond where exp overflows) and the others in (-1, 1).
func checkAtBoundary(t *testing.T, name string, p *ir.Program) {
	t.Helper()
	far := []float64{-40, 40, -800, 800, -1e5, 1e5, 0}
	d := p.Dim
	chains := 2 * len(far) * d
	rng := rand.New(rand.NewPCG(5, uint64(d)))
	xs := make([]float64, chains*d)
	for c := 0; c < chains; c++ {
		for j := 0; j < d; j++ {
			xs[c*d+j] = 2*rng.Float64() - 1
		}
		xs[c*d+(c/len(far))%d] = far[c%len(far)]
	}
	for _, unfused := range []bool{false, true} {
		checkPositions(t, name, p, xs, unfused)
	}
}

// checkPositions compares the lockstep evaluation of p at chain-major
// positions xs with ir.Frame one chain at a time.
func checkPositions(t *testing.T, name string, p *ir.Program, xs []float64, unfused bool) {
	t.Helper()
	d := p.Dim
	chains := len(xs) / d
	b := vec.New(p, chains)
	lps, grads := make([]float64, chains), make([]float64, chains*d)
	// Twice: the second call must not see state left by the first.
	for rep := 0; rep < 2; rep++ {
		b.LogDensityGrad(xs, lps, grads)
	}
	lpsOnly := make([]float64, chains)
	b.LogDensity(xs, lpsOnly)
	f := ir.NewFrame(p)
	f.Unfused = unfused
	g := make([]float64, d)
	finite := 0
	for c := 0; c < chains; c++ {
		want := f.Gradient(xs[c*d:(c+1)*d], g)
		if !agree(lps[c], want) || !agree(lpsOnly[c], want) {
			t.Errorf("%s chain %d: log density %v (forward only %v), ir.Frame %v", name, c, lps[c], lpsOnly[c], want)
			continue
		}
		if math.IsInf(want, 0) {
			continue
		}
		finite++
		for j := 0; j < d; j++ {
			if !agree(grads[c*d+j], g[j]) {
				t.Errorf("%s chain %d: gradient[%d] %v, ir.Frame %v", name, c, j, grads[c*d+j], g[j])
				break
			}
		}
	}
	if finite == 0 {
		t.Errorf("%s: no chain had a finite log density: the comparison tested nothing", name)
	}
}

// Every posteriordb model, lockstep against the reference, at random
// positions in (-1, 1) on the unconstrained scale and with one coordinate
// far out.
func TestPosteriordbAgainstFrame(t *testing.T) {
	for _, m := range irtest.Fixtures(t, irtest.Posteriordb) {
		t.Run(m.Name, func(t *testing.T) {
			checkAgainstFrame(t, m.Name, m.Program, 7, 1)
			checkAtBoundary(t, m.Name, m.Program)
		})
	}
}

// Small models that exercise each lockstep kernel, with scalars
// broadcasting against vectors and data against parameters (irtest's
// Kernels fixtures, written from the ppl models of accelmodels_test.go in
// the posteriordb package under internal/).
func TestKernelsAgainstFrame(t *testing.T) {
	models := irtest.Fixtures(t, irtest.Kernels)
	// Models whose every op must have a lockstep kernel (else the
	// comparison would test package ir against itself).
	lockstep := map[string]bool{"glm": true, "glm invalid data": true, "sequences": true, "non-centred": true, "densities": true, "bounds": true, "location-scale": true, "regression": true, "regression offset": true, "regression collinear": true}
	// Regression likelihoods each model must fuse (linearNormal).
	affine := map[string]int{"non-centred": 3}
	linear := map[string]int{"regression": 5, "regression offset": 1, "regression collinear": 1}
	have := map[string]bool{}
	for _, m := range models {
		have[m.Name] = true
	}
	for _, names := range [][]string{slices.Collect(maps.Keys(lockstep)), slices.Collect(maps.Keys(affine)), slices.Collect(maps.Keys(linear))} {
		for _, name := range names {
			if !have[name] {
				t.Errorf("no kernel model %q in the fixtures", name)
			}
		}
	}
	for _, m := range models {
		name, p := m.Name, m.Program
		if ops := vec.FallbackOps(vec.New(p, 1)); lockstep[name] && len(ops) > 0 {
			t.Errorf("%s: ops %v run per chain through package ir", name, ops)
		}
		if n := vec.LinearNormals(vec.New(p, 1)); n != linear[name] {
			t.Errorf("%s: %d regression likelihoods fused, want %d", name, n, linear[name])
		}
		if n := vec.AffineNormals(vec.New(p, 1)); n != affine[name] {
			t.Errorf("%s: %d non-centred likelihoods fused, want %d", name, n, affine[name])
		}
		for _, chains := range []int{1, 5} {
			checkAgainstFrame(t, name, p, chains, 2)
		}
		// Far in the tails (the fused mixture's underflow path), and
		// one coordinate at a time at the bounds.
		if p.Dim <= 4 {
			checkAgainstFrame(t, name, p, 9, 3000)
		}
		checkAtBoundary(t, name, p)
	}
}

// No allocation per evaluation: a fallback op, and every kind of
// lockstep and fused kernel.
func TestNoAllocation(t *testing.T) {
	for _, name := range []string{"allocation fallback", "allocation kernels"} {
		b := vec.New(irtest.Fixture(t, name), 16)
		if n := testing.AllocsPerRun(10, b.Gradient); n != 0 {
			t.Errorf("%s: Gradient allocates %v times per call", name, n)
		}
		if n := testing.AllocsPerRun(10, b.Forward); n != 0 {
			t.Errorf("%s: Forward allocates %v times per call", name, n)
		}
		if name == "allocation kernels" {
			if ops := vec.FallbackOps(b); len(ops) > 0 {
				t.Errorf("%s: ops %v run per chain through package ir", name, ops)
			}
			if vec.LinearNormals(b) != 1 || vec.AffineNormals(b) != 1 {
				t.Errorf("%s: %d regression and %d non-centred likelihoods fused, want 1 and 1", name, vec.LinearNormals(b), vec.AffineNormals(b))
			}
		}
	}
}

// The density form of a one-dimensional mixture: shift + log of
// ForwardDensity's sums (LogFromDensity) must give Forward's LP, near the
// components, far in the tails (where the sum underflows and the
// log-sum-exp is redone) and at ±Inf; a model with anything else per
// chain (a bounded variable's transform, a second dimension) has no
// density form.
func TestDensityForm(t *testing.T) {
	build := func(name string) *vec.Batch { return vec.New(irtest.Fixture(t, name), 11) }
	b := build("density mixture")
	if !b.DensityForm() {
		t.Fatal("a one-dimensional mixture has no density form")
	}
	ys := []float64{0, -2, 3.2, 17, -40, 300, -1e4, 1e150, math.Inf(1), math.Inf(-1), 0.5}
	copy(b.X(), ys)
	b.Forward()
	want := append([]float64(nil), b.LP...)
	dens := make([]float64, len(ys))
	for i := range dens {
		dens[i] = math.NaN() // ForwardDensity must write every chain
	}
	b.ForwardDensity(dens)
	for c, y := range ys {
		got := b.LogFromDensity(dens[c], y)
		if !(got == want[c] || math.Abs(got-want[c]) <= 1e-14*math.Abs(want[c])) {
			t.Errorf("y=%g: shift + log s = %g, Forward gives %g", y, got, want[c])
		}
	}
	for _, name := range []string{"density mixture, second variable", "density mixture, a term of x"} {
		if build(name).DensityForm() {
			t.Errorf("%s: density form claimed for a model with more than the mixture", name)
		}
	}
}
