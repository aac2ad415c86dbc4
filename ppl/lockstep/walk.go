package lockstep

import (
	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// walkDevice runs RWMH's segments where the backend keeps the chains
// (accel.Walker: a GPU, or its worker through accel/remote): one call per
// segment of steps instead of one per step, the state staying there. The
// host keeps runRWMH's control — windows, the scale's adaptation,
// restarts — and a mirror of the one block, brought up to date (sync)
// only where that control reads it; load and clear say what the device
// must take from the mirror at the next call.
type walkDevice struct {
	w           accel.Walker
	b           *block
	load, clear bool
	walk        accel.Walk
}

// newWalkDevice is the device path of e's run, or nil where the CPU
// steps (no backend, a backend without walks, or a dense proposal).
func newWalkDevice(e *ensemble, dense bool) *walkDevice {
	w, ok := e.dev.(accel.Walker)
	if !ok || dense || len(e.blocks) != 1 || !w.Walks(e.cfg.Chains) {
		return nil
	}
	return &walkDevice{w: w, b: e.blocks[0], load: true, clear: true}
}

// segment runs steps [s0, s1) on the device, recording the kept chains'
// draws of the sampling steps, and returns the proposals accepted.
// first < 0: no moments.
func (v *walkDevice) segment(e *ensemble, s0, s1, first int, scale []float64) (int64, error) {
	b, d, warm := v.b, e.dim, e.cfg.Warmup
	w := &v.walk
	*w = accel.Walk{Chains: b.n, Seed: e.cfg.Seed, Step0: s0, Steps: s1 - s0, Scale: scale, First: first,
		ClearMoments: v.clear, Load: v.load, X: b.x, LP: b.lp,
		KeptX: w.KeptX, KeptLP: w.KeptLP, KeptAcc: w.KeptAcc}
	if s0 >= warm {
		w.Keep = len(e.kept)
	}
	if err := v.w.Walk(w); err != nil {
		return 0, &accel.BatchError{Err: err}
	}
	v.load, v.clear = false, false
	// The kept chains' draws go through the mirror's slots of those
	// chains, which the device's state overrides at the next sync.
	wk, keep := e.workers[0], w.Keep
	for t := 0; t < w.Steps && keep > 0; t++ {
		for c := 0; c < keep; c++ {
			for j := 0; j < d; j++ {
				b.x[j*b.n+c] = w.KeptX[(t*d+j)*keep+c]
			}
			b.lp[c], b.u[c] = w.KeptLP[t*keep+c], w.KeptAcc[t*keep+c]
		}
		i := s0 + t - warm
		e.recordKept(wk, b, i, func(c int, st *posterior.Stats) {
			st.AcceptStat[i], st.StepSize[i] = b.u[c], scale[0]
		})
	}
	return w.Accepted, nil
}

// sync reads the device's state into the mirror: positions, log
// densities and the moments.
func (v *walkDevice) sync(e *ensemble) error {
	b := v.b
	w := accel.Walk{Chains: b.n, Seed: e.cfg.Seed, First: -1, Read: true, Load: v.load, ClearMoments: v.clear,
		X: b.x, LP: b.lp, Mean: b.mean, M2: b.m2}
	if err := v.w.Walk(&w); err != nil {
		return &accel.BatchError{Err: err}
	}
	v.load, v.clear = false, false
	return nil
}

// hmcDevice runs ChEES's iterations where the backend keeps the chains
// (accel.Iterator): one call per iteration; the host keeps runChEES's
// control and a mirror of the one block, synced where the control reads
// it (restarts, the result's moments).
type hmcDevice struct {
	it   accel.Iterator
	b    *block
	load bool
	iter accel.HMCIteration
}

func newHMCDevice(e *ensemble) *hmcDevice {
	it, ok := e.dev.(accel.Iterator)
	if !ok || len(e.blocks) != 1 || !it.Iterates(e.cfg.Chains) {
		return nil
	}
	return &hmcDevice{it: it, b: e.blocks[0], load: true}
}

// iterate runs iteration s (trajectories of h), recording the kept
// chains' draw when sampling.
func (v *hmcDevice) iterate(e *ensemble, s int, h *hmcParams, warm bool) (*accel.HMCIteration, error) {
	b, d := v.b, e.dim
	it := &v.iter
	*it = accel.HMCIteration{Chains: b.n, Seed: e.cfg.Seed, Step: s, Steps: h.steps, Eps: h.eps,
		InvMetric: h.invM, SqrtInvMetric: h.sqrtInv, Warm: warm, Load: v.load, X: b.x, Grad: b.g, LP: b.lp,
		SumX: it.SumX, SumAXp: it.SumAXp, CrossMean: it.CrossMean, CrossVar: it.CrossVar, KeptX: it.KeptX,
		KeptLP: it.KeptLP, KeptAlpha: it.KeptAlpha, KeptDiv: it.KeptDiv, KeptEnergy: it.KeptEnergy}
	i := s - e.cfg.Warmup
	if !warm {
		it.Draws, it.Keep = i+1, len(e.kept)
	}
	if err := v.it.Iterate(it); err != nil {
		return nil, &accel.BatchError{Err: err}
	}
	v.load = false
	keep := it.Keep
	if keep == 0 {
		return it, nil
	}
	for c := 0; c < keep; c++ {
		for j := 0; j < d; j++ {
			b.x[j*b.n+c] = it.KeptX[j*keep+c]
		}
		b.lp[c] = it.KeptLP[c]
	}
	e.recordKept(e.workers[0], b, i, func(c int, st *posterior.Stats) {
		st.AcceptStat[i], st.StepSize[i], st.NLeapfrog[i] = it.KeptAlpha[c], h.eps, h.steps
		st.Divergent[i], st.Energy[i] = it.KeptDiv[c] != 0, it.KeptEnergy[c]
	})
	return it, nil
}

// sync reads the device's state into the mirror.
func (v *hmcDevice) sync(e *ensemble) error {
	b := v.b
	it := accel.HMCIteration{Chains: b.n, Seed: e.cfg.Seed, Load: v.load, Read: true, X: b.x, Grad: b.g, LP: b.lp,
		Mean: b.mean, M2: b.m2}
	if err := v.it.Iterate(&it); err != nil {
		return &accel.BatchError{Err: err}
	}
	v.load = false
	return nil
}

// initial runs step s of the initial phase on the device.
func (v *hmcDevice) initial(e *ensemble, s int, sigma []float64, damping, refresh float64) error {
	b := v.b
	it := &v.iter
	*it = accel.HMCIteration{Chains: b.n, Seed: e.cfg.Seed, Step: s, Load: v.load, X: b.x, Grad: b.g, LP: b.lp,
		CrossMean: it.CrossMean, CrossVar: it.CrossVar,
		Initial: &accel.InitialStep{Sigma: sigma, Damping: damping, Refresh: refresh, Gain: initialGain,
			Target: initialTarget, StepSize: initialStepSize}}
	if err := v.it.Iterate(it); err != nil {
		return &accel.BatchError{Err: err}
	}
	v.load = false
	return nil
}
