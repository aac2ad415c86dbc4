package mcmc

import (
	"math"
	"math/rand/v2"
)

// NUTS is the No-U-Turn sampler as Stan ships it (Betancourt 2017):
// trajectories grow by doubling in a random direction; a state is drawn from
// the trajectory with multinomial weights, uniformly within subtrees and
// biased towards the newest subtree at the top level; the doubling stops at
// a generalised no-U-turn (checked across the whole tree and across the
// joins of its subtrees), at a divergence, or at MaxDepth.
type NUTS struct {
	hamiltonian
	// MaxDepth bounds the tree depth (2^MaxDepth - 1 leapfrog steps).
	MaxDepth int
	// MaxDeltaH is the energy error beyond which a trajectory diverges.
	MaxDeltaH float64

	dim                              int
	z, zFwd, zBck, zSample, zPropose point
	pFwdFwd, pSharpFwdFwd            []float64
	pFwdBck, pSharpFwdBck            []float64
	pBckFwd, pSharpBckFwd            []float64
	pBckBck, pSharpBckBck            []float64
	rho, rhoFwd, rhoBck, rhoExt      []float64
	levels                           []treeLevel

	h0           float64
	nLeapfrog    int
	sumMetroProb float64
	divergent    bool
}

// treeLevel holds the buffers of one recursion depth of build_tree.
type treeLevel struct {
	zFinal                              point
	pInitEnd, pSharpInitEnd, rhoInit    []float64
	pFinalBeg, pSharpFinalBeg, rhoFinal []float64
	rhoSubtree, rhoExt                  []float64
}

// MaxTreeDepth is the largest MaxDepth NewNUTS preallocates for.
const MaxTreeDepth = 20

// NewNUTS returns a NUTS sampler with step size 1, MaxDepth 10 and
// MaxDeltaH 1000 (Stan's defaults).
func NewNUTS(f LogDensity, m *Metric, rng *rand.Rand) *NUTS {
	return NewNUTSDepth(f, m, rng, 10)
}

// NewNUTSDepth is NewNUTS with the maximum tree depth given (at most
// MaxTreeDepth); buffers are made for that depth.
func NewNUTSDepth(f LogDensity, m *Metric, rng *rand.Rand, maxDepth int) *NUTS {
	if maxDepth < 1 {
		maxDepth = 1
	}
	if maxDepth > MaxTreeDepth {
		maxDepth = MaxTreeDepth
	}
	d := m.Dim()
	vec := func() []float64 { return make([]float64, d) }
	s := &NUTS{
		hamiltonian: newHamiltonian(f, m, rng),
		MaxDepth:    maxDepth,
		MaxDeltaH:   1000,
		dim:         d,
		z:           newPoint(d), zFwd: newPoint(d), zBck: newPoint(d),
		zSample: newPoint(d), zPropose: newPoint(d),
		pFwdFwd: vec(), pSharpFwdFwd: vec(), pFwdBck: vec(), pSharpFwdBck: vec(),
		pBckFwd: vec(), pSharpBckFwd: vec(), pBckBck: vec(), pSharpBckBck: vec(),
		rho: vec(), rhoFwd: vec(), rhoBck: vec(), rhoExt: vec(),
	}
	s.levels = make([]treeLevel, maxDepth+1)
	for i := range s.levels {
		s.levels[i] = treeLevel{
			zFinal: newPoint(d), pInitEnd: vec(), pSharpInitEnd: vec(), rhoInit: vec(),
			pFinalBeg: vec(), pSharpFinalBeg: vec(), rhoFinal: vec(),
			rhoSubtree: vec(), rhoExt: vec(),
		}
	}
	return s
}

// Init implements Sampler.
func (s *NUTS) Init(st *State, x []float64) error { return initState(s.f, st, x) }

// StepSize implements Sampler.
func (s *NUTS) StepSize() float64 { return s.eps }

// SetStepSize implements Sampler.
func (s *NUTS) SetStepSize(eps float64) { s.eps = eps }

// Metric implements Sampler.
func (s *NUTS) Metric() *Metric { return s.metric }

// TuneStepSize implements Sampler.
func (s *NUTS) TuneStepSize(st *State) error { return s.tuneStepSize(st) }

// Step implements Sampler: one NUTS transition (Stan's base_nuts::transition).
func (s *NUTS) Step(st *State) Info {
	z := &s.z
	z.fromState(st)
	s.metric.SampleMomentum(s.rng, z.p)
	s.zFwd.copyFrom(z)
	s.zBck.copyFrom(z)
	s.zSample.copyFrom(z)
	s.zPropose.copyFrom(z)

	s.metric.Velocity(z.p, s.pSharpFwdFwd)
	copy(s.pSharpFwdBck, s.pSharpFwdFwd)
	copy(s.pSharpBckFwd, s.pSharpFwdFwd)
	copy(s.pSharpBckBck, s.pSharpFwdFwd)
	copy(s.pFwdFwd, z.p)
	copy(s.pFwdBck, z.p)
	copy(s.pBckFwd, z.p)
	copy(s.pBckBck, z.p)
	copy(s.rho, z.p)

	logSumWeight := 0.0
	s.h0 = s.energy(z)
	s.nLeapfrog = 0
	s.sumMetroProb = 0
	s.divergent = false

	depth := 0
	for depth < s.MaxDepth {
		zero(s.rhoFwd)
		zero(s.rhoBck)
		var valid bool
		logSumWeightSubtree := math.Inf(-1)
		if s.rng.Float64() > 0.5 {
			// The trajectory so far becomes the backward subtree: its
			// forward end is the trajectory's forward end, which the new
			// subtree is about to overwrite.
			z.copyFrom(&s.zFwd)
			copy(s.rhoBck, s.rho)
			copy(s.pBckFwd, s.pFwdFwd)
			copy(s.pSharpBckFwd, s.pSharpFwdFwd)
			valid = s.buildTree(depth, &s.zPropose, s.pSharpFwdBck, s.pSharpFwdFwd,
				s.rhoFwd, s.pFwdBck, s.pFwdFwd, 1, &logSumWeightSubtree)
			s.zFwd.copyFrom(z)
		} else {
			// Mirrored: the trajectory so far becomes the forward subtree,
			// whose backward end is the trajectory's backward end.
			z.copyFrom(&s.zBck)
			copy(s.rhoFwd, s.rho)
			copy(s.pFwdBck, s.pBckBck)
			copy(s.pSharpFwdBck, s.pSharpBckBck)
			valid = s.buildTree(depth, &s.zPropose, s.pSharpBckFwd, s.pSharpBckBck,
				s.rhoBck, s.pBckFwd, s.pBckBck, -1, &logSumWeightSubtree)
			s.zBck.copyFrom(z)
		}
		if !valid {
			break
		}
		depth++

		// Biased progressive sampling: prefer the new subtree.
		if logSumWeightSubtree > logSumWeight {
			s.zSample.copyFrom(&s.zPropose)
		} else if s.rng.Float64() < math.Exp(logSumWeightSubtree-logSumWeight) {
			s.zSample.copyFrom(&s.zPropose)
		}
		logSumWeight = logAddExp(logSumWeight, logSumWeightSubtree)

		persist := joinPersists(s.pSharpBckBck, s.pSharpBckFwd, s.pSharpFwdBck, s.pSharpFwdFwd,
			s.rhoBck, s.rhoFwd, s.pFwdBck, s.pBckFwd, s.rho, s.rhoExt)
		if !persist {
			break
		}
	}

	s.zSample.toState(st)
	info := Info{
		AcceptStat: s.sumMetroProb / float64(s.nLeapfrog),
		Divergent:  s.divergent,
		TreeDepth:  depth,
		NLeapfrog:  s.nLeapfrog,
		Energy:     s.energy(&s.zSample),
		StepSize:   s.eps,
	}
	return info
}

// buildTree is Stan's base_nuts::build_tree: it extends s.z by 2^depth
// leapfrog steps in direction sign, accumulating the summed momentum in rho
// and the multinomial weight in logSumWeight, and leaves the subtree's
// sampled point in zPropose. It returns false on a divergence or U-turn.
func (s *NUTS) buildTree(depth int, zPropose *point, pSharpBeg, pSharpEnd, rho, pBeg, pEnd []float64,
	sign float64, logSumWeight *float64) bool {
	z := &s.z
	if depth == 0 {
		s.leapfrog(z, sign*s.eps)
		s.nLeapfrog++
		s.metric.Velocity(z.p, pSharpBeg)
		h := -z.lp + 0.5*dot(z.p, pSharpBeg)
		if math.IsNaN(h) {
			h = math.Inf(1)
		}
		if h-s.h0 > s.MaxDeltaH {
			s.divergent = true
		}
		*logSumWeight = logAddExp(*logSumWeight, s.h0-h)
		if s.h0-h > 0 {
			s.sumMetroProb++
		} else {
			s.sumMetroProb += math.Exp(s.h0 - h)
		}
		zPropose.copyFrom(z)
		copy(pSharpEnd, pSharpBeg)
		for i, p := range z.p {
			rho[i] += p
		}
		copy(pBeg, z.p)
		copy(pEnd, z.p)
		return !s.divergent
	}

	lv := &s.levels[depth]
	zero(lv.rhoInit)
	logSumWeightInit := math.Inf(-1)
	if !s.buildTree(depth-1, zPropose, pSharpBeg, lv.pSharpInitEnd, lv.rhoInit, pBeg, lv.pInitEnd,
		sign, &logSumWeightInit) {
		return false
	}

	zFinal := &lv.zFinal
	zFinal.copyFrom(z)
	zero(lv.rhoFinal)
	logSumWeightFinal := math.Inf(-1)
	if !s.buildTree(depth-1, zFinal, lv.pSharpFinalBeg, pSharpEnd, lv.rhoFinal, lv.pFinalBeg, pEnd,
		sign, &logSumWeightFinal) {
		return false
	}

	// Multinomial sample from the two halves.
	logSumWeightSubtree := logAddExp(logSumWeightInit, logSumWeightFinal)
	*logSumWeight = logAddExp(*logSumWeight, logSumWeightSubtree)
	if logSumWeightFinal > logSumWeightSubtree {
		zPropose.copyFrom(zFinal)
	} else if s.rng.Float64() < math.Exp(logSumWeightFinal-logSumWeightSubtree) {
		zPropose.copyFrom(zFinal)
	}

	for i := range rho {
		lv.rhoSubtree[i] = lv.rhoInit[i] + lv.rhoFinal[i]
		rho[i] += lv.rhoSubtree[i]
	}
	persist := criterion(pSharpBeg, pSharpEnd, lv.rhoSubtree)
	for i := range rho {
		lv.rhoExt[i] = lv.rhoInit[i] + lv.pFinalBeg[i]
	}
	persist = persist && criterion(pSharpBeg, lv.pSharpFinalBeg, lv.rhoExt)
	for i := range rho {
		lv.rhoExt[i] = lv.rhoFinal[i] + lv.pInitEnd[i]
	}
	persist = persist && criterion(lv.pSharpInitEnd, pSharpEnd, lv.rhoExt)
	return persist
}

// criterion is the generalised no-U-turn check: the trajectory keeps going
// while both ends' velocities point along the summed momentum.
func criterion(pSharpMinus, pSharpPlus, rho []float64) bool {
	return dot(pSharpPlus, rho) > 0 && dot(pSharpMinus, rho) > 0
}

// joinPersists reports whether a trajectory grown by one doubling goes on:
// no U-turn over the whole (ρ = ρ_bck + ρ_fwd) and none across the join,
// each side's momentum sum extended by the first momentum of the other
// side (pFwdBck: the forward subtree's backmost, pBckFwd: the backward
// subtree's foremost). pSharpXY is subtree X's sharp momentum at its Y
// end. rho and rhoExt are scratch, left holding the last sums.
func joinPersists(pSharpBckBck, pSharpBckFwd, pSharpFwdBck, pSharpFwdFwd, rhoBck, rhoFwd, pFwdBck, pBckFwd, rho, rhoExt []float64) bool {
	for i := range rho {
		rho[i] = rhoBck[i] + rhoFwd[i]
	}
	persist := criterion(pSharpBckBck, pSharpFwdFwd, rho)
	for i := range rhoExt {
		rhoExt[i] = rhoBck[i] + pFwdBck[i]
	}
	persist = persist && criterion(pSharpBckBck, pSharpFwdBck, rhoExt)
	for i := range rhoExt {
		rhoExt[i] = rhoFwd[i] + pBckFwd[i]
	}
	return persist && criterion(pSharpBckFwd, pSharpFwdFwd, rhoExt)
}

func zero(v []float64) {
	for i := range v {
		v[i] = 0
	}
}
