package mcmc

import (
	"math"
	"testing"
)

// TestNUTSTreeMatchesReference checks where each NUTS trajectory stops
// against a reference written from the definition rather than from the
// sampler's bookkeeping. The reference lays the trajectory out in time
// order and applies the generalised no-U-turn criterion to spans of it:
// every merge of two adjacent spans A = [a, m] and B = [m+1, b] (inside a
// subtree, and the top-level merge of the trajectory with its new subtree)
// must pass over A∪B, over A plus B's first state and over A's last state
// plus B. Each transition's leapfrog count and tree depth must equal the
// reference's, given the directions the sampler drew (read off the
// positions it evaluated).
func TestNUTSTreeMatchesReference(t *testing.T) {
	scales := []float64{1, 3, 0.4}
	d := len(scales)
	grad := func(q, g []float64) float64 {
		lp := 0.0
		for i, s := range scales {
			g[i] = -q[i] / (s * s)
			lp -= 0.5 * q[i] * q[i] / (s * s)
		}
		return lp
	}
	var record [][]float64
	f := func(x, g []float64) float64 {
		record = append(record, append([]float64(nil), x...))
		return grad(x, g)
	}
	const eps = 0.2
	s := NewNUTS(f, NewDiagMetric(d), newRNG(11))
	s.SetStepSize(eps)
	st := NewState(d)
	if err := s.Init(st, []float64{0.5, -1, 0.2}); err != nil {
		t.Fatal(err)
	}
	checked, bad := 0, 0
	for it := 0; it < 400; it++ {
		q0 := append([]float64(nil), st.Position...)
		g0 := append([]float64(nil), st.Grad...)
		record = record[:0]
		info := s.Step(st)
		if info.Divergent || info.NLeapfrog < 4 || len(record) != info.NLeapfrog {
			if len(record) != info.NLeapfrog {
				t.Fatalf("transition %d: %d log-density calls for %d leapfrog steps", it, len(record), info.NLeapfrog)
			}
			continue
		}
		// The first step went forward or backward: each gives a starting
		// momentum; keep the one whose trajectory explains every position.
		var dirs []int
		var traj *refTrajectory
		for _, sign := range []float64{1, -1} {
			p0 := make([]float64, d)
			for i := range p0 {
				p0[i] = sign*(record[0][i]-q0[i])/eps - sign*0.5*eps*g0[i]
			}
			tr := newRefTrajectory(q0, p0, eps, grad, 1<<s.MaxDepth)
			if ds, ok := tr.directions(record); ok {
				dirs, traj = ds, tr
				break
			}
		}
		if traj == nil {
			t.Fatalf("transition %d: the evaluated positions are not one leapfrog trajectory", it)
		}
		n, depth := traj.reference(dirs, s.MaxDepth)
		checked++
		if n != info.NLeapfrog || depth != info.TreeDepth {
			bad++
			if bad <= 5 {
				t.Errorf("transition %d (directions %v): %d leapfrog steps at depth %d, the reference stops after %d at depth %d",
					it, dirs, info.NLeapfrog, info.TreeDepth, n, depth)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d transitions stop elsewhere than the reference", bad, checked)
	}
	if checked < 200 {
		t.Fatalf("only %d transitions checked", checked)
	}
}

// refTrajectory holds the leapfrog states on both sides of a start, in
// time order: index t > 0 is t steps forward, t < 0 is -t steps back.
type refTrajectory struct {
	fq, fp, bq, bp [][]float64
}

func newRefTrajectory(q0, p0 []float64, eps float64, grad func(q, g []float64) float64, n int) *refTrajectory {
	tr := &refTrajectory{}
	walk := func(e float64) (qs, ps [][]float64) {
		q, p := append([]float64(nil), q0...), append([]float64(nil), p0...)
		g := make([]float64, len(q))
		grad(q, g)
		qs, ps = [][]float64{q}, [][]float64{p}
		for k := 0; k < n; k++ {
			nq, np := make([]float64, len(q)), make([]float64, len(q))
			for i := range q {
				np[i] = p[i] + 0.5*e*g[i]
				nq[i] = q[i] + e*np[i]
			}
			grad(nq, g)
			for i := range np {
				np[i] += 0.5 * e * g[i]
			}
			q, p = nq, np
			qs, ps = append(qs, q), append(ps, p)
		}
		return qs, ps
	}
	tr.fq, tr.fp = walk(eps)
	tr.bq, tr.bp = walk(-eps)
	return tr
}

func (tr *refTrajectory) q(t int) []float64 {
	if t >= 0 {
		return tr.fq[t]
	}
	return tr.bq[-t]
}

func (tr *refTrajectory) p(t int) []float64 {
	if t >= 0 {
		return tr.fp[t]
	}
	return tr.bp[-t]
}

// directions reads the direction of each doubling off the evaluated
// positions (in evaluation order); false if they do not fit.
func (tr *refTrajectory) directions(record [][]float64) ([]int, bool) {
	near := func(a, b []float64) bool {
		for i := range a {
			if math.Abs(a[i]-b[i]) > 1e-9*(1+math.Abs(a[i])) {
				return false
			}
		}
		return true
	}
	var dirs []int
	lo, hi, idx := 0, 0, 0
	for j := 0; idx < len(record); j++ {
		size := 1 << j
		if hi+size >= len(tr.fq) || lo-size <= -len(tr.bq) {
			return nil, false
		}
		dir := 0
		switch {
		case near(record[idx], tr.q(hi+1)):
			dir = 1
		case near(record[idx], tr.q(lo-1)):
			dir = -1
		default:
			return nil, false
		}
		dirs = append(dirs, dir)
		for k := 0; k < size && idx < len(record); k++ {
			at := hi + 1 + k
			if dir < 0 {
				at = lo - 1 - k
			}
			if !near(record[idx], tr.q(at)) {
				return nil, false
			}
			idx++
		}
		if dir > 0 {
			hi += size
		} else {
			lo -= size
		}
	}
	return dirs, true
}

// check is the no-U-turn criterion over the span [a, b] with the unit
// metric: both ends' momenta point along the span's summed momentum.
func (tr *refTrajectory) check(a, b int) bool {
	d := len(tr.p(a))
	rho := make([]float64, d)
	for t := a; t <= b; t++ {
		for i, v := range tr.p(t) {
			rho[i] += v
		}
	}
	return dot(tr.p(a), rho) > 0 && dot(tr.p(b), rho) > 0
}

// merge checks the join of [a, m] and [m+1, b].
func (tr *refTrajectory) merge(a, m, b int) bool {
	return tr.check(a, b) && tr.check(a, m+1) && tr.check(m, b)
}

// build is a subtree over [a, b] built in direction dir: the leapfrog
// steps taken before it completes or fails, and whether it is valid.
func (tr *refTrajectory) build(a, b, dir int) (int, bool) {
	if a == b {
		return 1, true
	}
	m := a + (b-a+1)/2 - 1
	first, second := [2]int{a, m}, [2]int{m + 1, b}
	if dir < 0 {
		first, second = second, first
	}
	n1, ok := tr.build(first[0], first[1], dir)
	if !ok {
		return n1, false
	}
	n2, ok := tr.build(second[0], second[1], dir)
	if !ok {
		return n1 + n2, false
	}
	return n1 + n2, tr.merge(a, m, b)
}

// reference is where a trajectory with these doubling directions stops:
// its leapfrog steps and tree depth (-1, -1 when it needs a direction the
// sampler never drew).
func (tr *refTrajectory) reference(dirs []int, maxDepth int) (n, depth int) {
	lo, hi := 0, 0
	for j := 0; j < maxDepth; j++ {
		if j >= len(dirs) {
			return -1, -1
		}
		size := 1 << j
		a, b := hi+1, hi+size
		if dirs[j] < 0 {
			a, b = lo-size, lo-1
		}
		k, ok := tr.build(a, b, dirs[j])
		n += k
		if !ok {
			return n, depth
		}
		depth++
		if dirs[j] > 0 {
			ok = tr.merge(lo, hi, b)
			hi = b
		} else {
			ok = tr.merge(a, b, hi)
			lo = a
		}
		if !ok {
			return n, depth
		}
	}
	return n, depth
}
