package ppl_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gobayes/gobayes/internal/posteriordb"
	"github.com/gobayes/gobayes/internal/posteriordb/handwritten"
	"github.com/gobayes/gobayes/ppl"
)

// modelPair is a case's model compiled from ppl and its independent
// hand-written density, with the map between their positions.
type modelPair struct {
	compiled *ppl.Compiled
	hand     *handwritten.Model
	// toHand[i] is the slot of the hand-written position that holds
	// slot i of the compiled one.
	toHand []int
}

// loadCase loads a reference posterior, or simulates the logistic
// regression (small here; the benchmark uses N=10,000, D=50).
func loadCase(t testing.TB, name string, n, d int) *posteriordb.Case {
	if name == posteriordb.LogisticName {
		return posteriordb.SimulatedLogistic(n, d, 1)
	}
	return posteriordb.Require(t, name)
}

// pair compiles case c's ppl model and matches its parameters to the
// hand-written model's blocks by name.
func pair(t testing.TB, c *posteriordb.Case) *modelPair {
	t.Helper()
	m, err := posteriordb.Model(c.Name, c)
	if err != nil {
		t.Fatal(err)
	}
	comp, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	hand, err := handwritten.New(c)
	if err != nil {
		t.Fatal(err)
	}
	p := &modelPair{compiled: comp, hand: hand, toHand: make([]int, comp.Dim())}
	if comp.Dim() != hand.Dim {
		t.Fatalf("compiled model has dimension %d (%v), hand-written %d (%v)", comp.Dim(), comp.Params(), hand.Dim, hand.Blocks)
	}
	for _, cp := range comp.Params() {
		b, ok := hand.Block(cp.Name)
		if !ok || b.Len != cp.Len {
			t.Fatalf("compiled parameter %s (%d slots) has no match among the hand-written blocks %v", cp.Name, cp.Len, hand.Blocks)
		}
		for i := 0; i < cp.Len; i++ {
			p.toHand[cp.Offset+i] = b.Off + i
		}
	}
	return p
}

func (p *modelPair) handPoint(x []float64) []float64 {
	h := make([]float64, len(x))
	for i, v := range x {
		h[p.toHand[i]] = v
	}
	return h
}

// handGradient is the hand-written gradient at compiled position x (the
// analytic one where it exists, else finite differences of the
// hand-written density), in the compiled model's order.
func (p *modelPair) handGradient(x []float64) []float64 {
	h := p.handPoint(x)
	gh := make([]float64, len(h))
	if p.hand.LogDensityGrad != nil {
		p.hand.LogDensityGrad(h, gh)
	} else {
		handwritten.NumericGradient(p.hand.LogDensity, h, gh)
	}
	g := make([]float64, len(x))
	for i := range x {
		g[i] = gh[p.toHand[i]]
	}
	return g
}

// TestPosteriordbModels checks that every reference model written with
// ppl has the log density of its hand-written twin up to a constant, and
// the same gradient, at random points of the unconstrained space.
func TestPosteriordbModels(t *testing.T) {
	for _, name := range append(posteriordb.Cases(), posteriordb.LogisticName) {
		t.Run(name, func(t *testing.T) {
			p := pair(t, loadCase(t, name, 200, 5))
			d := p.compiled.NewDensity().(*ppl.Density)
			rng := rand.New(rand.NewPCG(11, uint64(len(name))))
			dim := p.compiled.Dim()
			ref := loadCaseRef(t, name)
			checkRecordsReference(t, p.compiled, ref)
			near := nearReference(t, p.compiled, ref)
			var lp0, hp0 float64
			for k := 0; k < 6; k++ {
				x := make([]float64, dim)
				for i := range x {
					x[i] = 4*rng.Float64() - 2 // where the samplers start
				}
				if k%2 == 1 && near != nil {
					// Where the posterior is: the reference means, moved a little.
					for i := range x {
						x[i] = near[i] + 0.2*rng.NormFloat64()
					}
				}
				g := make([]float64, dim)
				lp := d.LogDensityGrad(x, g)
				hp := p.hand.LogDensity(p.handPoint(x))
				if math.IsInf(lp, 0) || math.IsNaN(lp) || math.IsInf(hp, 0) || math.IsNaN(hp) {
					t.Fatalf("at %v: compiled log density %v, hand-written %v", x, lp, hp)
				}
				if lp2 := d.LogDensity(x); lp2 != lp {
					t.Errorf("at %v: LogDensity %v but LogDensityGrad %v", x, lp2, lp)
				}
				if k == 0 {
					lp0, hp0 = lp, hp
				} else {
					// The constants differ; differences between points do not.
					got, want := lp-lp0, hp-hp0
					tol := 1e-9 * (math.Abs(lp) + math.Abs(lp0) + math.Abs(hp) + math.Abs(hp0) + 1)
					if math.Abs(got-want) > tol {
						t.Errorf("at %v: lp - lp(x0) = %v, hand-written %v (constant offsets %v and %v)", x, got, want, lp-hp, lp0-hp0)
					}
				}
				p.checkValues(t, x)
				want := p.handGradient(x)
				if e, at := handwritten.GradientMismatch(g, want); !(e < 1e-6) {
					t.Errorf("at %v: gradient[%d] (%s) = %v, hand-written %v (relative error %.2g)", x, at, paramAt(p.compiled, at), g[at], want[at], e)
				}
			}
		})
	}
}

// paramAt names slot i of a compiled position.
func paramAt(c *ppl.Compiled, i int) string {
	for _, p := range c.Params() {
		if i >= p.Offset && i < p.Offset+p.Len {
			return p.Name
		}
	}
	return "?"
}

// loadCaseRef is the case with its reference summary, nil for the
// simulated logistic regression.
func loadCaseRef(t testing.TB, name string) *posteriordb.Case {
	if name == posteriordb.LogisticName {
		return nil
	}
	return posteriordb.Require(t, name)
}

// nearReference is the unconstrained position of the reference posterior
// means of the compiled model's parameters (those the reference reports;
// the others, such as theta_tilde, at 0). nil without a reference.
func nearReference(t testing.TB, comp *ppl.Compiled, c *posteriordb.Case) []float64 {
	if c == nil {
		return nil
	}
	values := map[string]any{}
	for _, p := range comp.Params() {
		n := 1
		for _, d := range p.Shape {
			n *= d
		}
		v := make([]float64, n)
		found := true
		for i := range v {
			name := p.Name
			if len(p.Shape) > 0 {
				name = fmt.Sprintf("%s[%d]", p.Name, i)
			}
			s, ok := c.Ref(name)
			if !ok {
				found = false
				break
			}
			v[i] = s.Mean
		}
		if !found {
			continue
		}
		if len(p.Shape) == 0 {
			values[p.Name] = v[0]
		} else {
			values[p.Name] = v
		}
	}
	x, err := comp.UnconstrainAt(make([]float64, comp.Dim()), values)
	if err != nil {
		t.Fatalf("unconstraining the reference means %v: %v", values, err)
	}
	return x
}

// checkValues compares what a draw records at x (the constrained
// parameters and the deterministic quantities) with the hand-written
// model's values.
func (p *modelPair) checkValues(t *testing.T, x []float64) {
	t.Helper()
	got, err := p.compiled.Constrain(x)
	if err != nil {
		t.Fatal(err)
	}
	want := p.hand.Values(p.handPoint(x))
	for name, g := range got {
		w, ok := want[name]
		if !ok {
			t.Errorf("the compiled model records %s, the hand-written one has no such value", name)
			continue
		}
		if len(g) != len(w) {
			t.Errorf("%s has %d values, hand-written %d", name, len(g), len(w))
			continue
		}
		for i := range g {
			if math.Abs(g[i]-w[i]) > 1e-10*math.Max(1, math.Abs(w[i])) {
				t.Errorf("at %v: %s[%d] = %v, hand-written %v", x, name, i, g[i], w[i])
			}
		}
	}
}

// checkRecordsReference checks that a draw of the compiled model records
// every scalar the reference reports, under the same name ("theta[2]", 0-based).
func checkRecordsReference(t *testing.T, comp *ppl.Compiled, c *posteriordb.Case) {
	t.Helper()
	if c == nil {
		return
	}
	recorded := map[string]bool{}
	for _, v := range comp.Vars() {
		n := 1
		for _, d := range v.Shape {
			n *= d
		}
		if len(v.Shape) == 0 {
			recorded[v.Name] = true
		}
		for i := 0; len(v.Shape) == 1 && i < n; i++ {
			recorded[fmt.Sprintf("%s[%d]", v.Name, i)] = true
		}
	}
	for _, s := range c.Reference {
		if !recorded[s.Name] {
			t.Errorf("the reference reports %s but a draw does not record it (vars %v)", s.Name, comp.Vars())
		}
	}
}

// TestPosteriordbModelsDoNotAllocate checks the promise of the compiled
// programs (DESIGN §4): no allocation per log density and gradient.
func TestPosteriordbModelsDoNotAllocate(t *testing.T) {
	for _, name := range append(posteriordb.Cases(), posteriordb.LogisticName) {
		t.Run(name, func(t *testing.T) {
			p := pair(t, loadCase(t, name, 200, 5))
			d := p.compiled.NewDensity()
			x := benchPoint(p.compiled.Dim())
			g := make([]float64, len(x))
			if n := testing.AllocsPerRun(20, func() { d.LogDensityGrad(x, g) }); n != 0 {
				t.Errorf("%v allocations per log density and gradient; want 0", n)
			}
		})
	}
}
