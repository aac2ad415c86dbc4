package lockstep

import (
	"errors"
	"fmt"
	"math"

	"github.com/gobayes/gobayes/accel/philox"
	"github.com/gobayes/gobayes/ppl/adapt"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// ErrNUTSNotOnDevice is runNUTS's answer on a backend that does not run
// NUTS next to the chains (accel.NUTSRunner): NUTS on such a backend
// evaluates one position per call through package infer instead.
var ErrNUTSNotOnDevice = errors.New("lockstep: the backend does not run NUTS on its device")

// heuristicStep is the philox step of the step-size heuristic's momenta:
// heuristicStep at the start, heuristicStep+s+1 after the slow window that
// ends at iteration s.
const heuristicStep = 1 << 31

// nutsSegment is the most iterations run between two looks at
// cancellation and progress.
const nutsSegment = 10

// nutsChains is every chain's own adaptation, as ppl/infer's NUTS runs
// it for each chain: a step size by dual averaging, a diagonal inverse
// metric from Stan's windows, the step-size heuristic at the start and
// after each window.
type nutsChains struct {
	eps           []float64 // [chains]
	da            []adapt.StepSize
	win           []*adapt.Covariance
	invM, sqrtInv []float64 // [chains×d], chain c's at c·d
	grads         []int64   // gradient evaluations of each chain
}

// nutsSchedule is the warm-up's schedule, the same for every chain:
// which iterations add to the window's estimate and which end a window.
type nutsSchedule struct {
	slow [][2]int
}

func (s nutsSchedule) inWindow(it int) bool {
	for _, w := range s.slow {
		if it >= w[0] && it < w[1] {
			return true
		}
	}
	return false
}

func (s nutsSchedule) endOfWindow(it int) bool {
	for _, w := range s.slow {
		if it == w[1]-1 {
			return true
		}
	}
	return false
}

// nextStop is the first iteration after it at which a segment must end:
// the end of a window or of warm-up.
func (s nutsSchedule) nextStop(it, warmup int) int {
	stop := math.MaxInt
	for _, w := range s.slow {
		if w[1] > it {
			stop = min(stop, w[1])
		}
	}
	if warmup > it {
		stop = min(stop, warmup)
	}
	return stop
}

// runNUTS runs NUTS (ppl/mcmc's algorithm, as nutsTree builds it) on
// every chain with each chain's own adaptation (nutsChains), the chains
// side by side: on the CPU one chain per worker at a time, on a device
// that runs NUTS (accel.NUTSRunner) one thread per chain there. The
// transitions of chain c draw from philox stream (seed, c, iteration).
func runNUTS(e *ensemble, ctl *control) (int, error) {
	cfg, d := e.cfg, e.dim
	if cfg.Dense {
		return 0, fmt.Errorf("lockstep: NUTS in lockstep adapts a diagonal metric only; for a dense metric run NUTS on the CPU (ppl.Backend(\"cpu\"))")
	}
	nd := newNUTSDevice(e)
	if e.dev != nil && nd == nil {
		return 0, ErrNUTSNotOnDevice
	}
	if err := e.initialise(true); err != nil {
		return 0, err
	}
	for k := range e.kept {
		e.kept[k].Stats.TreeDepth = make([]int, cfg.Draws)
	}
	sched := nutsSchedule{}
	if !cfg.NoWarmup {
		sched.slow = adapt.StanWindows(cfg.Warmup).Slow()
	}
	if nd != nil {
		return nd.run(e, ctl, sched)
	}
	n := cfg.Chains
	ns := &nutsChains{eps: make([]float64, n), da: make([]adapt.StepSize, n), win: make([]*adapt.Covariance, n),
		invM: make([]float64, n*d), sqrtInv: make([]float64, n*d), grads: make([]int64, n)}
	for c := range ns.eps {
		ns.eps[c] = cfg.StepSize
		ns.da[c] = *adapt.NewStepSize(cfg.TargetAccept)
		ns.win[c] = adapt.NewCovariance(d, false)
	}
	for k := range ns.invM {
		ns.invM[k], ns.sqrtInv[k] = 1, 1
	}
	trees := make([]*nutsTree, len(e.workers))
	for i := range trees {
		trees[i] = newNUTSTree(d, cfg.MaxDepth, divergence)
	}
	var failed []error
	fail := make([]error, n)
	if err := e.parallelIndexed(func(wi int, w *worker, b *block) {
		for c := 0; c < b.n; c++ {
			fail[b.first+c] = e.nutsStart(w, trees[wi], b, c, ns)
		}
	}); err != nil {
		return 0, err
	}
	for _, err := range fail {
		if err != nil {
			failed = append(failed, err)
		}
	}
	if len(failed) > 0 {
		return 0, failed[0]
	}
	total := cfg.Warmup + cfg.Draws
	made := 0
	for s := 0; s < total && !ctl.stopped(); {
		s1 := min(s+nutsSegment, total, sched.nextStop(s, cfg.Warmup))
		if err := e.parallelIndexed(func(wi int, w *worker, b *block) {
			for c := 0; c < b.n; c++ {
				for it := s; it < s1; it++ {
					if err := e.nutsIteration(w, trees[wi], b, c, it, ns, sched); err != nil {
						fail[b.first+c] = err
						return
					}
				}
			}
		}); err != nil {
			return 0, err
		}
		for _, err := range fail {
			if err != nil {
				return 0, err
			}
		}
		if s1 > cfg.Warmup {
			for i := max(s, cfg.Warmup) - cfg.Warmup; i < s1-cfg.Warmup; i++ {
				for k := range e.kept {
					if e.kept[k].Stats.Divergent[i] {
						ctl.div.Add(1)
					}
				}
			}
			made = s1 - cfg.Warmup
			e.draws = made
		}
		s = s1
		ctl.eps.Store(math.Float64bits(ns.eps[0]))
		ctl.iter.Store(int64(s))
	}
	e.nutsFinish(ctl, ns.eps, ns.invM, ns.grads)
	return made, nil
}

// nutsFinish records the run's adaptation and gradient count.
func (e *ensemble) nutsFinish(ctl *control, eps, invM []float64, grads []int64) {
	d := e.dim
	ctl.adaptations = make([]posterior.Adaptation, len(e.kept))
	for k := range ctl.adaptations {
		ctl.adaptations[k] = posterior.Adaptation{StepSize: eps[k], InvMetric: append([]float64(nil), invM[k*d:(k+1)*d]...)}
	}
	var sum int64
	for _, g := range grads {
		sum += g
	}
	ctl.gradEvals = int(sum / int64(max(1, len(grads))))
}

// parallelIndexed is parallel with the worker's index.
func (e *ensemble) parallelIndexed(f func(wi int, w *worker, b *block)) error {
	idx := map[*worker]int{}
	for i, w := range e.workers {
		idx[w] = i
	}
	return e.parallel(func(w *worker, b *block) { f(idx[w], w, b) })
}

// nutsGrad is the log density and gradient of one chain through the
// worker's batch of one.
func (e *ensemble) nutsGrad(w *worker, count *int64) func(q, g []float64) float64 {
	bt := w.batch(e, 1)
	return func(q, g []float64) float64 {
		*count++
		copy(bt.X(), q)
		bt.Gradient()
		copy(g, bt.Grad())
		return bt.LPs()[0]
	}
}

// chainState copies chain c of b into x and g and returns its log density.
func chainState(b *block, c int, x, g []float64) float64 {
	for j := range x {
		x[j], g[j] = b.x[j*b.n+c], b.g[j*b.n+c]
	}
	return b.lp[c]
}

func setChainState(b *block, c int, x, g []float64, lp float64) {
	for j := range x {
		b.x[j*b.n+c], b.g[j*b.n+c] = x[j], g[j]
	}
	b.lp[c] = lp
}

// nutsStart runs chain c's step-size heuristic from the start and
// centres its dual averaging there.
func (e *ensemble) nutsStart(w *worker, t *nutsTree, b *block, c int, ns *nutsChains) error {
	d, k := e.dim, b.first+c
	x, g := w.xc, w.z
	lp := chainState(b, c, x, g)
	st := philox.New(e.cfg.Seed, uint64(k), heuristicStep)
	eps, ok := t.stepSizeHeuristic(x, g, lp, ns.eps[k], ns.invM[k*d:(k+1)*d], ns.sqrtInv[k*d:(k+1)*d], &st,
		e.nutsGrad(w, &ns.grads[k]))
	if !ok {
		return heuristicError(k, eps)
	}
	ns.eps[k] = eps
	ns.da[k].Restart(eps)
	return nil
}

func heuristicError(chain int, eps float64) error {
	if eps == 0 {
		return fmt.Errorf("lockstep: chain %d: the step size fell to 0 in the step-size heuristic: the log density or its gradient is not finite near the chain's position", chain+1)
	}
	return fmt.Errorf("lockstep: chain %d: the step size grew beyond 1e7 in the step-size heuristic: the posterior is improper (a parameter without a proper prior?)", chain+1)
}

// nutsIteration is iteration it of chain c of b: a transition, then the
// chain's adaptation in warm-up (as ppl/infer's runChain adapts a NUTS
// chain with a diagonal metric) or its moments and, for a kept chain,
// its draw.
func (e *ensemble) nutsIteration(w *worker, t *nutsTree, b *block, c, it int, ns *nutsChains, sched nutsSchedule) error {
	cfg, d, k := e.cfg, e.dim, b.first+c
	x, g := w.xc, w.z
	lp := chainState(b, c, x, g)
	invM, sqrtInv := ns.invM[k*d:(k+1)*d], ns.sqrtInv[k*d:(k+1)*d]
	st := philox.New(cfg.Seed, uint64(k), uint64(it))
	f := e.nutsGrad(w, &ns.grads[k])
	eps := ns.eps[k]
	lp, info := t.transition(x, g, lp, eps, invM, sqrtInv, &st, f)
	setChainState(b, c, x, g, lp)
	if it < cfg.Warmup {
		ns.eps[k] = ns.da[k].Learn(info.accept)
		if sched.inWindow(it) {
			ns.win[k].Add(x)
		}
		if sched.endOfWindow(it) {
			win := ns.win[k]
			win.Var(invM)
			adapt.RegulariseVar(invM, win.N())
			for j, v := range invM {
				sqrtInv[j] = math.Sqrt(v)
			}
			win.Restart()
			hs := philox.New(cfg.Seed, uint64(k), heuristicStep+uint64(it)+1)
			eps, ok := t.stepSizeHeuristic(x, g, lp, ns.eps[k], invM, sqrtInv, &hs, f)
			if !ok {
				return heuristicError(k, eps)
			}
			ns.eps[k] = eps
			ns.da[k].Restart(eps)
		}
		if it == cfg.Warmup-1 {
			eps := ns.da[k].Final()
			if math.IsNaN(eps) || eps <= 0 {
				eps = 1
			}
			ns.eps[k] = eps
		}
		return nil
	}
	i := it - cfg.Warmup
	inv := 1 / float64(i+1)
	for j := 0; j < d; j++ {
		q := j*b.n + c
		dx := x[j] - b.mean[q]
		b.mean[q] += dx * inv
		b.m2[q] += dx * (x[j] - b.mean[q])
	}
	if k < len(e.kept) {
		e.nutsRecord(w, k, i, x, lp, eps, info)
	}
	return nil
}

// nutsRecord stores kept chain k's draw i.
func (e *ensemble) nutsRecord(w *worker, k, i int, x []float64, lp, eps float64, info nutsInfo) {
	ch := &e.kept[k]
	w.dens.Constrained(x, w.row)
	for j, v := range w.row {
		ch.Values[j][i] = v
	}
	s := &ch.Stats
	s.LP[i], s.AcceptStat[i], s.StepSize[i] = lp, info.accept, eps
	s.TreeDepth[i], s.NLeapfrog[i], s.Divergent[i], s.Energy[i] = info.depth, info.leapfrogs, info.divergent, info.energy
}
