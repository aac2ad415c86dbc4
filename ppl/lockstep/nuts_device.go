package lockstep

import (
	"math"

	"github.com/gobayes/gobayes/accel"
)

// nutsDevice runs runNUTS's iterations where the backend keeps the chains
// (accel.NUTSRunner: a GPU, or its worker through accel/remote): one call
// per segment of iterations, every chain's transitions and adaptation
// there, the host keeping the schedule (which iterations a window holds,
// where segments end) and recording the kept chains' draws.
type nutsDevice struct {
	r   accel.NUTSRunner
	b   *block
	seg accel.NUTSSegment
}

// newNUTSDevice is the device path of e's NUTS run, or nil where the CPU
// runs it.
func newNUTSDevice(e *ensemble) *nutsDevice {
	r, ok := e.dev.(accel.NUTSRunner)
	if !ok || len(e.blocks) != 1 || !r.RunsNUTS(e.cfg.Chains) {
		return nil
	}
	return &nutsDevice{r: r, b: e.blocks[0]}
}

func (nd *nutsDevice) call() error {
	if err := nd.r.RunNUTS(&nd.seg); err != nil {
		return err
	}
	if f := nd.seg.Failed; f > 0 {
		return heuristicError(f-1, nd.seg.FailedStepSize)
	}
	return nil
}

func (nd *nutsDevice) run(e *ensemble, ctl *control, sched nutsSchedule) (int, error) {
	cfg, d, b := e.cfg, e.dim, nd.b
	n := cfg.Chains
	seg := &nd.seg
	*seg = accel.NUTSSegment{Chains: n, Seed: cfg.Seed, MaxDepth: cfg.MaxDepth, MaxDeltaH: divergence,
		TargetAccept: cfg.TargetAccept, Load: true, StepSize: cfg.StepSize, HeuristicStep: heuristicStep,
		Warmup: cfg.Warmup, X: b.x, Grad: b.g, LP: b.lp}
	if err := nd.call(); err != nil {
		return 0, err
	}
	seg.Load = false
	total := cfg.Warmup + cfg.Draws
	made := 0
	wk := e.workers[0]
	x := wk.xc
	for s := 0; s < total && !ctl.stopped(); {
		s1 := min(s+nutsSegment, total, sched.nextStop(s, cfg.Warmup))
		seg.Step0, seg.Steps = s, s1-s
		seg.WindowStart, seg.WindowEnd = 0, 0
		for _, w := range sched.slow {
			if w[1] > s {
				seg.WindowStart, seg.WindowEnd = w[0], w[1]
				break
			}
		}
		seg.Keep = 0
		if s1 > cfg.Warmup {
			seg.Keep = len(e.kept)
		}
		if err := nd.call(); err != nil {
			return 0, err
		}
		keep := seg.Keep
		for t := 0; t < seg.Steps && keep > 0; t++ {
			it := s + t
			if it < cfg.Warmup {
				continue
			}
			i := it - cfg.Warmup
			for c := 0; c < keep; c++ {
				for j := 0; j < d; j++ {
					x[j] = seg.KeptX[(t*d+j)*keep+c]
				}
				st := func(f int) float64 { return seg.KeptStats[(t*accel.NUTSKeptStats+f)*keep+c] }
				info := nutsInfo{accept: st(1), depth: int(st(3)), leapfrogs: int(st(4)), divergent: st(5) != 0, energy: st(6)}
				e.nutsRecord(wk, c, i, x, st(0), st(2), info)
				if info.divergent {
					ctl.div.Add(1)
				}
			}
		}
		if s1 > cfg.Warmup {
			made = s1 - cfg.Warmup
			e.draws = made
		}
		s = s1
		ctl.iter.Store(int64(s))
	}
	eps, invM, grads := make([]float64, n), make([]float64, n*d), make([]float64, n)
	*seg = accel.NUTSSegment{Chains: n, Seed: cfg.Seed, MaxDepth: cfg.MaxDepth, Read: true, X: b.x, Grad: b.g, LP: b.lp,
		Mean: b.mean, M2: b.m2, StepSizes: eps, InvMetric: invM, GradEvals: grads}
	if err := nd.r.RunNUTS(seg); err != nil {
		return 0, err
	}
	if len(eps) > 0 {
		ctl.eps.Store(math.Float64bits(eps[0]))
	}
	counts := make([]int64, n)
	for c, g := range grads {
		counts[c] = int64(g)
	}
	e.nutsFinish(ctl, eps, invM, counts)
	return made, nil
}
