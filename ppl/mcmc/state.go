package mcmc

import (
	"errors"
	"math"
)

// LogDensity returns the log density at the unconstrained position x and
// writes its gradient into grad. It returns -Inf where the density is zero
// or not finite.
type LogDensity func(x, grad []float64) float64

// State is a chain's position with its log density and gradient there.
type State struct {
	Position   []float64
	LogDensity float64
	Grad       []float64
}

// NewState returns a State for positions of length dim.
func NewState(dim int) *State {
	return &State{Position: make([]float64, dim), Grad: make([]float64, dim)}
}

// CopyFrom makes s a copy of o (same dimension).
func (s *State) CopyFrom(o *State) {
	copy(s.Position, o.Position)
	copy(s.Grad, o.Grad)
	s.LogDensity = o.LogDensity
}

// Info describes one transition.
type Info struct {
	// AcceptStat is the mean Metropolis acceptance probability over the
	// trajectory (NUTS) or of the proposal (HMC).
	AcceptStat float64
	// Divergent is true when the energy error exceeded the divergence
	// threshold somewhere on the trajectory.
	Divergent bool
	// TreeDepth is the depth of the NUTS tree (0 for other samplers).
	TreeDepth int
	// NLeapfrog counts the gradient evaluations of the step.
	NLeapfrog int
	// Energy is the Hamiltonian at the new state.
	Energy float64
	// StepSize is the step size the transition used.
	StepSize float64
}

// Sampler is one chain's transition kernel.
type Sampler interface {
	// Init evaluates the target at x and makes st the chain's state. It
	// fails when the log density or its gradient is not finite there.
	Init(st *State, x []float64) error
	// Step moves st to the next state of the chain.
	Step(st *State) Info
	// StepSize is the current step size.
	StepSize() float64
	// SetStepSize sets it.
	SetStepSize(eps float64)
	// Metric is the sampler's metric, which adaptation may change in place.
	Metric() *Metric
	// TuneStepSize runs Stan's step-size heuristic from st: it doubles or
	// halves the step size until one leapfrog step's acceptance
	// probability crosses 0.8. st is left unchanged.
	TuneStepSize(st *State) error
}

// ErrNotFinite reports a start whose log density or gradient is not finite.
var ErrNotFinite = errors.New("mcmc: log density or gradient not finite at the initial position")

func initState(f LogDensity, st *State, x []float64) error {
	copy(st.Position, x)
	st.LogDensity = f(st.Position, st.Grad)
	if math.IsNaN(st.LogDensity) || math.IsInf(st.LogDensity, 0) {
		return ErrNotFinite
	}
	for _, g := range st.Grad {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return ErrNotFinite
		}
	}
	return nil
}

// point is a point of phase space: position, momentum, and the log density
// and its gradient at the position.
type point struct {
	q, p, g []float64
	lp      float64
}

func newPoint(dim int) point {
	return point{q: make([]float64, dim), p: make([]float64, dim), g: make([]float64, dim)}
}

func (z *point) copyFrom(o *point) {
	copy(z.q, o.q)
	copy(z.p, o.p)
	copy(z.g, o.g)
	z.lp = o.lp
}

func (z *point) fromState(st *State) {
	copy(z.q, st.Position)
	copy(z.g, st.Grad)
	z.lp = st.LogDensity
}

func (z *point) toState(st *State) {
	copy(st.Position, z.q)
	copy(st.Grad, z.g)
	st.LogDensity = z.lp
}

// Dot is Σ a_i·b_i in index order and LogAddExp is log(e^a + e^b),
// exact when one side is -Inf: the arithmetic of NUTS's weights and
// U-turn checks, which package lockstep's NUTS shares so that its trees
// are this package's to the bit.
func Dot(a, b []float64) float64 { return dot(a, b) }

// LogAddExp: see Dot.
func LogAddExp(a, b float64) float64 { return logAddExp(a, b) }

// UTurn is NUTS's no-U-turn criterion for a subtree (see Dot).
func UTurn(pSharpMinus, pSharpPlus, rho []float64) bool {
	return criterion(pSharpMinus, pSharpPlus, rho)
}

// JoinPersists is the U-turn checks of one doubling, the whole trajectory
// and the two across the join (see Dot; the arguments as joinPersists).
func JoinPersists(pSharpBckBck, pSharpBckFwd, pSharpFwdBck, pSharpFwdFwd, rhoBck, rhoFwd, pFwdBck, pBckFwd, rho, rhoExt []float64) bool {
	return joinPersists(pSharpBckBck, pSharpBckFwd, pSharpFwdBck, pSharpFwdFwd, rhoBck, rhoFwd, pFwdBck, pBckFwd, rho, rhoExt)
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

func logAddExp(a, b float64) float64 {
	if math.IsInf(a, -1) {
		return b
	}
	if math.IsInf(b, -1) {
		return a
	}
	if a > b {
		return a + math.Log1p(math.Exp(b-a))
	}
	return b + math.Log1p(math.Exp(a-b))
}
