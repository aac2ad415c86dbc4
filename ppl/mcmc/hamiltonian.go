package mcmc

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// hamiltonian is what NUTS and static HMC share: the target, the metric,
// the step size, the leapfrog integrator and Stan's step-size heuristic.
type hamiltonian struct {
	f      LogDensity
	metric *Metric
	rng    *rand.Rand
	eps    float64
	v      []float64 // velocity scratch
	zInit  point     // scratch of the step-size heuristic
}

func newHamiltonian(f LogDensity, m *Metric, rng *rand.Rand) hamiltonian {
	d := m.Dim()
	return hamiltonian{f: f, metric: m, rng: rng, eps: 1, v: make([]float64, d), zInit: newPoint(d)}
}

// energy is H = -log p(q) + ½ pᵀM⁻¹p, with NaN read as +Inf.
func (h *hamiltonian) energy(z *point) float64 {
	h.metric.Velocity(z.p, h.v)
	e := -z.lp + 0.5*dot(z.p, h.v)
	if math.IsNaN(e) {
		return math.Inf(1)
	}
	return e
}

// leapfrog moves z by one step of size eps (negative: backwards).
func (h *hamiltonian) leapfrog(z *point, eps float64) {
	half := 0.5 * eps
	for i, g := range z.g {
		z.p[i] += half * g
	}
	h.metric.Velocity(z.p, h.v)
	for i, v := range h.v {
		z.q[i] += eps * v
	}
	z.lp = h.f(z.q, z.g)
	if math.IsNaN(z.lp) {
		z.lp = math.Inf(-1)
	}
	for i, g := range z.g {
		z.p[i] += half * g
	}
}

// tuneStepSize is Stan's base_hmc::init_stepsize.
func (h *hamiltonian) tuneStepSize(st *State) error {
	if h.eps == 0 || h.eps > 1e7 || math.IsNaN(h.eps) || len(st.Position) == 0 {
		// Nothing to tune (a model without parameters moves nowhere).
		return nil
	}
	z := &h.zInit
	trial := func() float64 {
		z.fromState(st)
		h.metric.SampleMomentum(h.rng, z.p)
		h0 := h.energy(z)
		h.leapfrog(z, h.eps)
		return h0 - h.energy(z)
	}
	logTarget := math.Log(0.8)
	dir := -1
	if trial() > logTarget {
		dir = 1
	}
	for {
		dH := trial()
		if dir == 1 && !(dH > logTarget) {
			break
		}
		if dir == -1 && !(dH < logTarget) {
			break
		}
		if dir == 1 {
			h.eps *= 2
		} else {
			h.eps *= 0.5
		}
		if h.eps > 1e7 {
			return fmt.Errorf("mcmc: step size grew beyond 1e7 in the step-size heuristic: the posterior is improper (a parameter without a proper prior?)")
		}
		if h.eps == 0 {
			return fmt.Errorf("mcmc: step size fell to 0 in the step-size heuristic: the log density or its gradient is not finite near the start")
		}
	}
	return nil
}
