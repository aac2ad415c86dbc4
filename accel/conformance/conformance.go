package conformance

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
)

// Options adapt the suite to a backend.
type Options struct {
	// Tol is the relative tolerance of values and gradients (0: 1e-12).
	// Values compare relative to their magnitude; a gradient component
	// compares relative to the largest component of its row, since its
	// rounding error scales with the terms that were summed into it.
	Tol float64
	// Skip, when set, returns a non-empty reason to skip a case (a model
	// the backend does not support yet); the reason is logged.
	Skip func(name string, p *ir.Program) string
	// Batches are the batch sizes evaluated (nil: 1, 7 and 64).
	Batches []int
	// CaseTol overrides Tol for named cases whose log density is
	// ill-conditioned at the 1e-12 level, so that no implementation that
	// rounds differently (another exp, another summation order) can meet
	// it; each use says what was measured.
	CaseTol map[string]float64
}

// Program returns the log-density program of the named model (a
// posteriordb case such as "eight_schools-eight_schools_noncentered"), as
// ppl compiles it, from accel/ir/irtest's fixtures.
func Program(t testing.TB, name string) *ir.Program {
	t.Helper()
	return irtest.Fixture(t, name)
}

// Points are n positions of dimension d drawn uniform(-2, 2), the
// samplers' initialisation range, from seed.
func Points(n, d int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	xs := make([]float64, n*d)
	for i := range xs {
		xs[i] = 4*r.Float64() - 2
	}
	return xs
}

// Run runs the whole suite against b.
func Run(t *testing.T, b accel.Backend, o Options) {
	if o.Tol == 0 {
		o.Tol = 1e-12
	}
	if o.Batches == nil {
		o.Batches = []int{1, 7, 64}
	}
	t.Run("lengths", func(t *testing.T) { testLengths(t, b) })
	for _, m := range irtest.Fixtures(t, irtest.Posteriordb) {
		name, p := m.Name, m.Program
		t.Run(name, func(t *testing.T) {
			if o.Skip != nil {
				if why := o.Skip(name, p); why != "" {
					t.Skip(why)
				}
			}
			o := o
			if tol, ok := o.CaseTol[name]; ok {
				o.Tol = tol
			}
			c, err := b.Compile(p)
			if err != nil {
				t.Fatalf("%s: Compile: %v", b.Name(), err)
			}
			defer c.Close()
			if c.Dim() != p.Dim {
				t.Fatalf("Dim() = %d, want %d", c.Dim(), p.Dim)
			}
			t.Run("batch", func(t *testing.T) { testBatch(t, c, p, o) })
			t.Run("extreme", func(t *testing.T) { testExtreme(t, c, p, o) })
			t.Run("leapfrog", func(t *testing.T) { testLeapfrog(t, c, p, o) })
		})
	}
}

// agree reports whether got is within tol of want relative to scale;
// two -Inf (or two equal infinities) agree.
func agree(got, want, scale, tol float64) bool {
	if math.IsInf(want, 0) || math.IsInf(got, 0) {
		return got == want
	}
	if math.IsNaN(want) || math.IsNaN(got) {
		return math.IsNaN(want) && math.IsNaN(got)
	}
	return math.Abs(got-want) <= tol*max(scale, math.Abs(want), math.Abs(got))
}

func rowScale(g []float64) float64 {
	s := 0.0
	for _, v := range g {
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			s = max(s, math.Abs(v))
		}
	}
	return s
}

func testBatch(t *testing.T, c accel.Compiled, p *ir.Program, o Options) {
	d := p.Dim
	ref := ir.NewFrame(p)
	for k, bsz := range o.Batches {
		xs := Points(bsz, d, uint64(100+k))
		lps := make([]float64, bsz)
		grads := make([]float64, bsz*d)
		if err := c.LogDensityGrad(xs, lps, grads); err != nil {
			t.Fatalf("B=%d: %v", bsz, err)
		}
		only := make([]float64, bsz)
		if err := c.LogDensityGrad(xs, only, nil); err != nil {
			t.Fatalf("B=%d, values only: %v", bsz, err)
		}
		want := make([]float64, d)
		bad := 0
		for i := range bsz {
			x := xs[i*d : (i+1)*d]
			lp := accel.Finite(ref.Gradient(x, want))
			if !agree(lps[i], lp, 0, o.Tol) || !agree(only[i], lp, 0, o.Tol) {
				t.Errorf("B=%d, point %d: log density %v (values only %v), reference %v", bsz, i, lps[i], only[i], lp)
				bad++
			}
			g := grads[i*d : (i+1)*d]
			s := rowScale(want)
			for j := range d {
				if !agree(g[j], want[j], s, o.Tol) {
					t.Errorf("B=%d, point %d: gradient[%d] = %v, reference %v (row scale %g)", bsz, i, j, g[j], want[j], s)
					bad++
				}
			}
			if bad > 10 {
				t.Fatalf("too many mismatches")
			}
		}
	}
}

// testExtreme evaluates far from the typical set (coordinates of ±30 and
// ±300, where exponentials overflow and densities underflow): the log
// densities must agree on being finite, and finite ones to 1e-6 at least
// (out there a GP covariance is so ill-conditioned that one ulp of exp
// moves gp_pois_regr's density by 5e-8); gradients are not compared.
func testExtreme(t *testing.T, c accel.Compiled, p *ir.Program, o Options) {
	d := p.Dim
	const n = 16
	xs := Points(n, d, 77)
	for i := range xs {
		xs[i] *= 15
		if i%(2*d+1) == 0 {
			xs[i] *= 10
		}
	}
	lps, grads := make([]float64, n), make([]float64, n*d)
	if err := c.LogDensityGrad(xs, lps, grads); err != nil {
		t.Fatal(err)
	}
	ref := ir.NewFrame(p)
	g := make([]float64, d)
	for i := range n {
		lp := accel.Finite(ref.Gradient(xs[i*d:(i+1)*d], g))
		if !agree(lps[i], lp, 0, max(o.Tol, 1e-6)) {
			t.Errorf("point %d (coordinates up to ±300): log density %v, reference %v", i, lps[i], lp)
		}
	}
}

// leapfrog is the reference trajectory: the loop accel.Trajectories
// documents, on an ir.Frame.
func leapfrog(f *ir.Frame, q, p, g []float64, lp *float64, eps float64, m []float64, n int) int {
	for s := range n {
		for i := range p {
			p[i] += eps / 2 * g[i]
		}
		for i := range q {
			q[i] += eps * m[i] * p[i]
		}
		*lp = accel.Finite(f.Gradient(q, g))
		if math.IsInf(*lp, -1) {
			return s + 1
		}
		for i := range p {
			p[i] += eps / 2 * g[i]
		}
	}
	return n
}

func testLeapfrog(t *testing.T, c accel.Compiled, p *ir.Program, o Options) {
	d := p.Dim
	const chains, steps = 9, 6
	r := rand.New(rand.NewPCG(7, 11))
	for _, perChain := range []bool{false, true} {
		q := Points(chains, d, 42)
		mom := make([]float64, chains*d)
		for i := range mom {
			mom[i] = r.NormFloat64()
		}
		eps := make([]float64, chains)
		for i := range eps {
			// Small steps keep most trajectories finite; the last chain
			// takes a huge one so that the stopping rule is exercised.
			eps[i] = 0.002 + 0.01*r.Float64()
		}
		eps[chains-1] = 50
		nm := d
		if perChain {
			nm = chains * d
		}
		m := make([]float64, nm)
		for i := range m {
			m[i] = 0.5 + r.Float64()
		}
		lps := make([]float64, chains)
		grads := make([]float64, chains*d)
		if err := c.LogDensityGrad(q, lps, grads); err != nil {
			t.Fatal(err)
		}
		tr := &accel.Trajectories{
			Q: append([]float64(nil), q...), P: append([]float64(nil), mom...),
			Grad: append([]float64(nil), grads...), LogDensity: append([]float64(nil), lps...),
			StepSize: eps, InvMetric: m, N: steps, Steps: make([]int, chains),
		}
		if err := c.Leapfrog(tr); err != nil {
			t.Fatal(err)
		}
		f := ir.NewFrame(p)
		for b := range chains {
			mb := m
			if perChain {
				mb = m[b*d : (b+1)*d]
			}
			qb := append([]float64(nil), q[b*d:(b+1)*d]...)
			pb := append([]float64(nil), mom[b*d:(b+1)*d]...)
			lp := accel.Finite(f.Gradient(qb, make([]float64, d)))
			gb := make([]float64, d)
			f.Gradient(qb, gb)
			n := leapfrog(f, qb, pb, gb, &lp, eps[b], mb, steps)
			if tr.Steps[b] != n {
				t.Errorf("per-chain metric %v, chain %d: %d steps, reference %d", perChain, b, tr.Steps[b], n)
				continue
			}
			if !agree(tr.LogDensity[b], lp, 0, 1e3*o.Tol) {
				t.Errorf("per-chain metric %v, chain %d: log density %v, reference %v", perChain, b, tr.LogDensity[b], lp)
			}
			// Trajectories amplify rounding differences step by step, so
			// positions and momenta compare at a looser tolerance.
			for j := range d {
				if !agree(tr.Q[b*d+j], qb[j], rowScale(qb), 1e3*o.Tol) || !agree(tr.P[b*d+j], pb[j], rowScale(pb), 1e3*o.Tol) {
					t.Errorf("per-chain metric %v, chain %d, coordinate %d: q, p = %v, %v; reference %v, %v",
						perChain, b, j, tr.Q[b*d+j], tr.P[b*d+j], qb[j], pb[j])
					break
				}
			}
		}
	}
}

func testLengths(t *testing.T, b accel.Backend) {
	// A two-dimensional program: Σ exp(x).
	bl := ir.NewBuilder(2)
	x := bl.ParamSlice(0, []int{2})
	y, _ := bl.Emit(ir.OpExp, []ir.ID{x}, nil, -1)
	s, _ := bl.Emit(ir.OpSum, []ir.ID{y}, nil, -1)
	p, err := bl.Finalize(s)
	if err != nil {
		t.Fatal(err)
	}
	c, err := b.Compile(p)
	if err != nil {
		t.Skipf("%s cannot compile the length-check program: %v", b.Name(), err)
	}
	defer c.Close()
	cases := []struct {
		name           string
		xs, lps, grads []float64
	}{
		{"short positions", make([]float64, 3), make([]float64, 2), nil},
		{"short gradients", make([]float64, 4), make([]float64, 2), make([]float64, 3)},
	}
	for _, tc := range cases {
		if err := c.LogDensityGrad(tc.xs, tc.lps, tc.grads); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	tr := &accel.Trajectories{Q: make([]float64, 4), P: make([]float64, 4), Grad: make([]float64, 4),
		LogDensity: make([]float64, 2), StepSize: make([]float64, 2), Steps: make([]int, 2), InvMetric: make([]float64, 3), N: 1}
	if err := c.Leapfrog(tr); err == nil {
		t.Errorf("inverse metric of 3 values for D=2: no error")
	}
	// exp(x) summed at (0, log 2) is 1 + 2 = 3, gradient (1, 2).
	lps, grads := make([]float64, 1), make([]float64, 2)
	if err := c.LogDensityGrad([]float64{0, math.Ln2}, lps, grads); err != nil {
		t.Fatal(err)
	}
	if !agree(lps[0], 3, 0, 1e-15) || !agree(grads[0], 1, 0, 1e-15) || !agree(grads[1], 2, 0, 1e-15) {
		t.Errorf("Σexp(x) at (0, ln 2) = %v, %v; want 3, (1, 2)", lps[0], grads)
	}
}
