package mcmc

import (
	"math"
	"math/rand/v2"
)

// HMC is static Hamiltonian Monte Carlo: a trajectory of about Steps
// leapfrog steps and a Metropolis correction. The number of steps is drawn
// uniformly from [Steps - Steps/2, Steps + Steps/2] at every transition:
// a fixed trajectory length can resonate with the posterior's periods (on a
// Gaussian it can map x to nearly -x forever), which jitter breaks (Neal
// 2011, section 5.4.2.3).
type HMC struct {
	hamiltonian
	// Steps is the number of leapfrog steps per transition.
	Steps int
	// MaxDeltaH is the energy error beyond which a transition is reported
	// as divergent.
	MaxDeltaH float64
	z         point
}

// NewHMC returns a static HMC sampler taking steps leapfrog steps.
func NewHMC(f LogDensity, m *Metric, rng *rand.Rand, steps int) *HMC {
	if steps < 1 {
		steps = 1
	}
	return &HMC{hamiltonian: newHamiltonian(f, m, rng), Steps: steps, MaxDeltaH: 1000, z: newPoint(m.Dim())}
}

// Init implements Sampler.
func (s *HMC) Init(st *State, x []float64) error { return initState(s.f, st, x) }

// StepSize implements Sampler.
func (s *HMC) StepSize() float64 { return s.eps }

// SetStepSize implements Sampler.
func (s *HMC) SetStepSize(eps float64) { s.eps = eps }

// Metric implements Sampler.
func (s *HMC) Metric() *Metric { return s.metric }

// TuneStepSize implements Sampler.
func (s *HMC) TuneStepSize(st *State) error { return s.tuneStepSize(st) }

// Step implements Sampler.
func (s *HMC) Step(st *State) Info {
	z := &s.z
	z.fromState(st)
	s.metric.SampleMomentum(s.rng, z.p)
	h0 := s.energy(z)
	half := s.Steps / 2
	steps := s.Steps - half + s.rng.IntN(2*half+1)
	for i := 0; i < steps; i++ {
		s.leapfrog(z, s.eps)
	}
	h := s.energy(z)
	acc := 1.0
	if h0-h < 0 {
		acc = math.Exp(h0 - h)
	}
	info := Info{AcceptStat: acc, Divergent: h-h0 > s.MaxDeltaH, NLeapfrog: steps, StepSize: s.eps}
	if s.rng.Float64() < acc {
		z.toState(st)
		info.Energy = h
	} else {
		// Rejected: the chain stays at the start, whose energy was h0.
		info.Energy = h0
	}
	return info
}
