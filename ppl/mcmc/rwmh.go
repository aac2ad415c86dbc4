package mcmc

import (
	"math"
	"math/rand/v2"
)

// RWMH is random-walk Metropolis with Gaussian proposals whose covariance is
// StepSize² times the inverse metric.
type RWMH struct {
	f      LogDensity
	metric *Metric
	rng    *rand.Rand
	eps    float64
	z, dx  []float64
	prop   *State
}

// NewRWMH returns a random-walk Metropolis sampler with proposal scale
// 2.38/sqrt(dim) (the optimal scale for Gaussian targets, Roberts, Gelman
// and Gilks 1997).
func NewRWMH(f LogDensity, m *Metric, rng *rand.Rand) *RWMH {
	d := m.Dim()
	return &RWMH{f: f, metric: m, rng: rng, eps: 2.38 / math.Sqrt(float64(max(d, 1))),
		z: make([]float64, d), dx: make([]float64, d), prop: NewState(d)}
}

// Init implements Sampler.
func (s *RWMH) Init(st *State, x []float64) error { return initState(s.f, st, x) }

// StepSize implements Sampler.
func (s *RWMH) StepSize() float64 { return s.eps }

// SetStepSize implements Sampler.
func (s *RWMH) SetStepSize(eps float64) { s.eps = eps }

// Metric implements Sampler.
func (s *RWMH) Metric() *Metric { return s.metric }

// TuneStepSize implements Sampler: the proposal scale goes back to
// 2.38/sqrt(dim), the optimum once the metric matches the posterior.
func (s *RWMH) TuneStepSize(st *State) error {
	s.eps = 2.38 / math.Sqrt(float64(max(len(s.z), 1)))
	return nil
}

// Step implements Sampler.
func (s *RWMH) Step(st *State) Info {
	for i := range s.z {
		s.z[i] = s.rng.NormFloat64()
	}
	s.metric.ScaleNoise(s.z, s.dx)
	for i, x := range st.Position {
		s.prop.Position[i] = x + s.eps*s.dx[i]
	}
	lp := s.f(s.prop.Position, s.prop.Grad)
	if math.IsNaN(lp) {
		lp = math.Inf(-1)
	}
	s.prop.LogDensity = lp
	acc := 1.0
	if d := lp - st.LogDensity; d < 0 {
		acc = math.Exp(d)
	}
	if s.rng.Float64() < acc {
		st.CopyFrom(s.prop)
	}
	return Info{AcceptStat: acc, NLeapfrog: 1, Energy: -st.LogDensity, StepSize: s.eps}
}
