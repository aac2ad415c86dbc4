package accel

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/gobayes/gobayes/accel/ir"
)

// Backend compiles model programs for one kind of hardware. A Backend is
// safe for concurrent use.
type Backend interface {
	// Name is the backend's registered name ("cpu", "cuda").
	Name() string
	// Compile prepares p for evaluation. p must be finalized and must not
	// change afterwards.
	Compile(p *ir.Program) (Compiled, error)
}

// Compiled is a program ready to run on a backend. Its methods may be
// called from one goroutine at a time. accel/cpu does not allocate after
// the first call; backends in another process (accel/remote) copy the
// batch through a pipe.
type Compiled interface {
	// Dim is the length of a position.
	Dim() int
	// LogDensityGrad evaluates the log density at B = len(lps) positions
	// laid out row by row in xs [B×Dim], writing lps [B] and the gradients
	// row by row into grads [B×Dim]. With grads nil only the log densities
	// are computed. A log density that is not finite is -Inf.
	LogDensityGrad(xs, lps, grads []float64) error
	// Leapfrog runs one trajectory per chain of t (see Trajectories).
	Leapfrog(t *Trajectories) error
	// Close releases the program's memory (device memory on a GPU).
	Close() error
}

// Trajectories is a batch of B leapfrog trajectories, one per chain, all
// of the same number of steps: what lockstep HMC samplers (ChEES, MEADS)
// run per iteration. Each step is
//
//	p ← p + ε/2 · ∇log π(q)
//	q ← q + ε · M⁻¹ p
//	p ← p + ε/2 · ∇log π(q)
//
// with the chain's step size ε and the diagonal inverse metric M⁻¹. Q, P,
// Grad and LogDensity are updated in place. A chain whose log density
// becomes non-finite stops at that step (its Q, Grad and LogDensity are
// those of the non-finite point, LogDensity -Inf): the sampler rejects
// it. Steps[b] reports the steps chain b completed.
type Trajectories struct {
	Q, P []float64 // [B×D] positions and momenta
	// Grad [B×D] and LogDensity [B] are the gradient and log density at
	// Q: they must be current on entry and are current on return.
	Grad       []float64
	LogDensity []float64
	StepSize   []float64 // [B] step size of each chain
	// InvMetric is the diagonal inverse metric: [D] shared by every
	// chain, or [B×D] one per chain.
	InvMetric []float64
	N         int   // number of leapfrog steps
	Steps     []int // [B] out: steps completed (N unless stopped)
}

// Check reports whether t's slices have consistent lengths for dimension d.
func (t *Trajectories) Check(d int) error {
	b := len(t.LogDensity)
	switch {
	case len(t.Q) != b*d || len(t.P) != b*d || len(t.Grad) != b*d:
		return fmt.Errorf("accel: trajectories: Q, P and Grad have %d, %d and %d values, want %d chains × %d = %d",
			len(t.Q), len(t.P), len(t.Grad), b, d, b*d)
	case len(t.StepSize) != b || len(t.Steps) != b:
		return fmt.Errorf("accel: trajectories: StepSize and Steps have %d and %d values, want one per chain (%d)",
			len(t.StepSize), len(t.Steps), b)
	case len(t.InvMetric) != d && len(t.InvMetric) != b*d:
		return fmt.Errorf("accel: trajectories: InvMetric has %d values, want %d (shared) or %d (per chain)",
			len(t.InvMetric), d, b*d)
	case t.N < 0:
		return fmt.Errorf("accel: trajectories: %d steps; want at least 0", t.N)
	}
	return nil
}

// CheckBatch reports whether xs, lps and grads have consistent lengths
// for dimension d.
func CheckBatch(d int, xs, lps, grads []float64) error {
	b := len(lps)
	if len(xs) != b*d {
		return fmt.Errorf("accel: batch of %d log densities but %d position values, want %d × %d", b, len(xs), b, d)
	}
	if grads != nil && len(grads) != b*d {
		return fmt.Errorf("accel: batch of %d log densities but %d gradient values, want %d × %d", b, len(grads), b, d)
	}
	return nil
}

// Finite maps a log density that is NaN or +Inf to -Inf, as every
// backend reports it.
func Finite(lp float64) float64 {
	if math.IsNaN(lp) || math.IsInf(lp, 1) {
		return math.Inf(-1)
	}
	return lp
}

// Factory makes a backend; it returns an error the user can act on when
// the hardware or the worker is missing.
type Factory func() (Backend, error)

var (
	mu        sync.Mutex
	factories = map[string]Factory{}
	made      = map[string]Backend{}
	failed    = map[string]error{} // backends that did not start: not retried
)

// Register makes a backend available under name. Variants call it from
// their init; a second registration of a name panics (programmer error).
func Register(name string, f Factory) { register(factories, "backend", name, f) }

// register adds f to m under name; a second registration panics.
func register[F any](m map[string]F, kind, name string, f F) {
	mu.Lock()
	defer mu.Unlock()
	if _, ok := m[name]; ok {
		panic("accel: " + kind + " " + name + " registered twice")
	}
	m[name] = f
}

// JobConfig says where a job started for one run puts its processes: the
// number of ranks (0: the job's default) or a named cluster.
type JobConfig struct {
	Ranks   int
	Cluster string
}

// A Job is a backend of several processes started for one run and closed
// after it (accel/mpi's): Ranks is how many evaluate, Info describes them
// for a run's caption.
type Job interface {
	Backend
	Ranks() int
	Info() string
	Close() error
}

// A JobFactory starts a Job; it returns an error the user can act on
// when the launcher or the rank program is missing.
type JobFactory func(JobConfig) (Job, error)

// FileRowsReader is a backend whose processes read the rows of data that
// come from files themselves (accel/filerows): a block placed on it may
// leave them out.
type FileRowsReader interface {
	ReadsFileRows() bool
}

var jobs = map[string]JobFactory{}

// RegisterJob makes a kind of job available under name, as Register does
// a backend (accel/mpi registers "mpi"); a second registration panics.
func RegisterJob(name string, f JobFactory) { register(jobs, "job", name, f) }

// StartJob starts a new job of the kind registered as name; the caller
// closes it.
func StartJob(name string, cfg JobConfig) (Job, error) {
	mu.Lock()
	f, ok := jobs[name]
	mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("%w: no job %q; the program that runs it must link its package, e.g. import _ \"github.com/gobayes/gobayes/accel/mpi\" (the notebook kernel does)",
			ErrUnavailable, name)
	}
	return f(cfg)
}

// Forget drops the backends started so far and the remembered failures,
// so that the next ByName starts them again (tests; after installing a
// worker). It does not close them.
func Forget() {
	mu.Lock()
	defer mu.Unlock()
	made = map[string]Backend{}
	failed = map[string]error{}
}

// ErrUnavailable wraps the reason a backend cannot start.
var ErrUnavailable = errors.New("accel: backend unavailable")

// ErrNotInstalled wraps ErrUnavailable when the backend is simply not
// installed (no GPU worker built): the automatic choice then uses the CPU
// silently, while an explicit request (ppl.Backend("cuda"), GOBAYES_ACCEL)
// is an error that says why.
var ErrNotInstalled = fmt.Errorf("%w: not installed", ErrUnavailable)

// ByName returns the backend registered as name, starting it on first use.
func ByName(name string) (Backend, error) {
	mu.Lock()
	defer mu.Unlock()
	if b, ok := made[name]; ok {
		return b, nil
	}
	f, ok := factories[name]
	if !ok {
		return nil, fmt.Errorf("%w: no backend %q (registered: %v); import its package, e.g. _ \"github.com/gobayes/gobayes/accel/cpu\"",
			ErrUnavailable, name, namesLocked())
	}
	if err, ok := failed[name]; ok {
		return nil, err
	}
	b, err := f()
	if err != nil {
		failed[name] = err
		return nil, err
	}
	made[name] = b
	return b, nil
}

func namesLocked() []string {
	var ns []string
	for n := range factories {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Workload describes a run for the automatic choice of a backend
// (ppl.Backend("auto")): how many chains evaluate at once and how much
// work one log density costs.
type Workload struct {
	Chains int
	// Slots is the program's frame size (ir.Program.Size): data plus
	// temporaries, a proxy for the work of one evaluation.
	Slots int
}

// GPU thresholds of the automatic choice, from the crossover measured on an NVIDIA H100
// against accel/cpu on that machine's cores (BenchmarkCrossover in
// accel/cuda; the figures and the run that measured them are in
// bench/README.md, section GPU): below them the CPU is as fast or faster,
// and it has no worker process to talk to.
var (
	GPUMinChains = 16384   // lockstep batches at least this wide
	GPUMinWork   = 1 << 28 // or Chains × Slots at least this (large data)
	// GPUMinChainsWhole is GPUMinChains for the samplers whose whole
	// iteration runs on the device (Walker, Iterator: RWMH and ChEES),
	// from their runs on the same H100 against its 16 cores
	// (bench/README.md, section GPU): at 4,096 chains the GPU's steady
	// iterations already take a fraction of the CPU's time.
	GPUMinChainsWhole = 4096
)

// Walker is a Compiled whose device runs whole segments of random-walk
// Metropolis (ppl/lockstep's RWMH) next to the chains' state, which stays
// on the device between calls: a segment of steps is one call, whatever
// the number of steps and chains (accel/cuda: one kernel launch; through
// accel/remote: one round trip). Every chain's stream of random numbers
// is that of the CPU sampler (philox, counter (block, step, chain) under
// the seed), so the same seed gives the same draws where the arithmetic
// agrees.
type Walker interface {
	Walk(w *Walk) error
	// Walks reports whether walks of this many chains suit the device
	// (a program over large data may run faster one batch at a time).
	Walks(chains int) bool
}

// Walk is one call of a Walker: optionally load the chains' state, run
// Steps steps, optionally read the state back. State is struct-of-arrays,
// as ppl/lockstep's blocks keep it: slot j of chain c at j·Chains+c.
//
// A step of chain c at step s proposes x' = x + Scale_j·z_j with z the
// standard normals of its stream and accepts when log π(x') > log π(x) −
// E, E a standard exponential of the same stream (ppl/lockstep/rwmh.go
// gives the words' layout). With First ≥ 0, each chain's Welford moments
// (Mean, M2) take the state after step s as draw s−First+1.
type Walk struct {
	Chains int
	Seed   uint64
	Step0  int       // the first step's index (its streams' counter)
	Steps  int       // steps to run (0: only load and read)
	Scale  []float64 // [D] proposal standard deviations
	First  int       // the step whose draw is the moments' first; < 0: no moments
	// ClearMoments zeroes the moments before the steps.
	ClearMoments bool
	// Keep records, after each step, the state of chains 0..Keep-1 into
	// KeptX [Steps×D×Keep] (step t, slot j, chain c at (t·D+j)·Keep+c),
	// KeptLP and KeptAcc [Steps×Keep] (1 accepted, 0 not).
	Keep                   int
	KeptX, KeptLP, KeptAcc []float64
	Load                   bool      // put X and LP on the device first
	Read                   bool      // read X, LP, Mean and M2 back after the steps
	X, LP, Mean, M2        []float64 // [D×Chains], [Chains], [D×Chains], [D×Chains]
	Accepted               int64     // out: proposals accepted in these steps, all chains
}

// Check reports whether w's slices fit d dimensions.
func (w *Walk) Check(d int) error {
	n := w.Chains
	switch {
	case n < 1 || w.Steps < 0 || w.Keep < 0 || w.Keep > n:
		return fmt.Errorf("accel: walk: %d chains, %d steps, %d kept: want chains ≥ 1, steps ≥ 0, 0 ≤ kept ≤ chains", n, w.Steps, w.Keep)
	case w.Steps > 0 && len(w.Scale) != d:
		return fmt.Errorf("accel: walk: %d proposal scales, want %d", len(w.Scale), d)
	case (w.Load || w.Read) && (len(w.X) != n*d || len(w.LP) != n):
		return fmt.Errorf("accel: walk: X and LP have %d and %d values, want %d and %d", len(w.X), len(w.LP), n*d, n)
	case w.Read && (len(w.Mean) != n*d || len(w.M2) != n*d):
		return fmt.Errorf("accel: walk: Mean and M2 have %d and %d values, want %d", len(w.Mean), len(w.M2), n*d)
	}
	return nil
}

// KeptLen is the length of KeptX and of KeptLP for d dimensions.
func (w *Walk) KeptLen(d int) (x, lp int) { return w.Steps * d * w.Keep, w.Steps * w.Keep }

// SumChunk is the run of consecutive chains whose values a cross-chain
// sum adds in chain order before it adds the runs' sums in order: the
// order ppl/lockstep's sums keep on the CPU and a device's reduction
// (accel/cuda/cgen's chees.cu) keeps in parallel, so both give the same
// bits.
const SumChunk = 1024

// InitialStep is a step of lockstep HMC's initial phase (ppl/lockstep's
// ghmcStep with a step size per chain): partial momentum refresh p ←
// Damping·p + Refresh·z, one leapfrog step of size ε_c·Sigma_j, accept or
// flip p, then ε_c ← clamp(ε_c·exp(Gain·(α − Target)), 1e-12, 10). Each
// chain's ε_c stays on the device, StepSize at a Load; the momenta start
// at zero there.
type InitialStep struct {
	Sigma                          []float64 // [D]
	Damping, Refresh, Gain, Target float64
	StepSize                       float64
}

// Iterator is a Compiled whose device runs whole iterations of lockstep
// HMC (ppl/lockstep's ChEES after its initial phase) next to the chains'
// state: one call per iteration, whatever the number of chains, with only
// the cross-chain sums the adaptation needs and the kept chains' draw
// crossing back.
type Iterator interface {
	Iterate(it *HMCIteration) error
	// Iterates reports whether iterations of this many chains suit the
	// device (a program over large data may run faster one trajectory
	// batch at a time, through Leapfrog's data-parallel kernel).
	Iterates(chains int) bool
}

// HMCIteration is one call of an Iterator: optionally load the state,
// run one HMC transition of every chain, optionally read the state back.
// State is struct-of-arrays (slot j of chain c at j·Chains+c), as for
// Walk. Each chain's momentum and uniform come from its philox stream at
// Step; its trajectory is Steps leapfrog steps of size Eps under the
// diagonal InvMetric (SqrtInvMetric its square roots). Cross-chain sums
// add runs of SumChunk chains in chain order, then the runs in order.
type HMCIteration struct {
	Chains        int
	Seed          uint64
	Step, Steps   int
	Eps           float64
	InvMetric     []float64 // [D]
	SqrtInvMetric []float64 // [D]
	// Warm asks for the warm-up's sums (below) and the cross-chain mean
	// and variance after the transition.
	Warm bool
	// Initial, when not nil, makes the transition a step of the initial
	// phase instead (see InitialStep); CrossMean and CrossVar come back.
	Initial *InitialStep
	// Draws > 0 adds the state after the transition to the Welford moments
	// as draw number Draws; Keep records chains 0..Keep-1.
	Draws, Keep int
	Load, Read  bool
	X, Grad     []float64 // [D×Chains]
	LP          []float64 // [Chains]
	Mean, M2    []float64 // [D×Chains], read with Read
	// Out, with Warm: the sums over chains of the acceptance probability
	// a, of 1/max(a, 1e-20), of the start positions (SumX) and of a times
	// the proposals (SumAXp); the sum of ChEES's per-chain criterion
	// gradient a·(|xp−m'|²−|x−m|²)·((xp−m')·M⁻¹·p'), m = SumX/Chains,
	// m' = SumAXp/SumA (0 when SumA is 0); CrossMean and CrossVar across
	// chains after the transition (divisor max(1, Chains−1)).
	SumA, SumInvA       float64
	SumX, SumAXp        []float64
	Criterion           float64
	CrossMean, CrossVar []float64
	// Out, with Keep: KeptX [D×Keep] (slot j of kept chain c at j·Keep+c)
	// and KeptLP, KeptAlpha, KeptDiv (1 or 0), KeptEnergy [Keep].
	KeptX                                  []float64
	KeptLP, KeptAlpha, KeptDiv, KeptEnergy []float64
}

// NUTSRunner is a Compiled whose device runs whole NUTS transitions next
// to the chains (ppl/lockstep's NUTS): one call per segment of
// iterations, each chain building its trees and adapting its own step
// size and diagonal metric there, with only the kept chains' draws
// crossing back. Every chain's random numbers are those of the CPU
// sampler (philox, counter (block, iteration, chain) under the seed), so
// the same seed gives the same draws where the arithmetic agrees.
type NUTSRunner interface {
	RunNUTS(s *NUTSSegment) error
	// RunsNUTS reports whether NUTS on this many chains suits the device.
	RunsNUTS(chains int) bool
}

// NUTSSegment is one call of a NUTSRunner: optionally load the state,
// run iterations Step0..Step0+Steps−1 of every chain, optionally read the
// state back. State is struct-of-arrays (slot j of chain c at
// j·Chains+c); the per-chain metric is row by row (chain c's at c·D).
//
// Iteration s of chain c is a NUTS transition (ppl/mcmc's algorithm)
// with momenta and uniforms from the chain's stream at step s; while s <
// Warmup, dual averaging towards TargetAccept updates the chain's step
// size, iterations in [WindowStart, WindowEnd) add the chain's position
// to its window's variance, and at s = WindowEnd−1 the chain's inverse
// metric becomes that variance (regularised as Stan does), followed by
// Stan's step-size heuristic (momenta from step HeuristicStep+s+1) and a
// restart of dual averaging; at s = Warmup−1 the step size becomes dual
// averaging's average. From Warmup on, each chain's Welford moments take
// draw s−Warmup+1.
type NUTSSegment struct {
	Chains       int
	Seed         uint64
	MaxDepth     int
	MaxDeltaH    float64
	TargetAccept float64
	// Load puts X, Grad and LP on the device, sets every chain's inverse
	// metric to 1 and its step size to StepSize, runs the heuristic
	// (momenta from step HeuristicStep) and starts dual averaging there.
	Load          bool
	StepSize      float64
	HeuristicStep int
	Step0, Steps  int
	Warmup        int
	// WindowStart, WindowEnd: the slow window met in this segment (none:
	// both 0). A segment holds at most one window's end.
	WindowStart, WindowEnd int
	// Keep records, after each iteration, chains 0..Keep-1: KeptX
	// [Steps×D×Keep] (iteration t, slot j, chain c at (t·D+j)·Keep+c) and
	// KeptStats [Steps×NUTSKeptStats×Keep] (statistic f at
	// (t·NUTSKeptStats+f)·Keep+c: lp, acceptance statistic, step size,
	// tree depth, leapfrog steps, divergent (1 or 0), energy).
	Keep             int
	KeptX, KeptStats []float64
	Read             bool
	X, Grad, LP      []float64 // [D×Chains], [D×Chains], [Chains]
	Mean, M2         []float64 // [D×Chains], read with Read
	StepSizes        []float64 // [Chains], read with Read
	InvMetric        []float64 // [Chains×D], read with Read
	GradEvals        []float64 // [Chains], read with Read: gradients evaluated per chain
	// Failed (out) is chain+1 of a chain whose step-size heuristic left
	// (0, 1e7], or 0; FailedStepSize its step size then.
	Failed         int
	FailedStepSize float64
}

// NUTSKeptStats is the number of statistics of a kept chain per
// iteration in NUTSSegment.KeptStats.
const NUTSKeptStats = 7

// Check reports whether s's slices fit d dimensions.
func (s *NUTSSegment) Check(d int) error {
	n := s.Chains
	switch {
	case n < 1 || s.Steps < 0 || s.Keep < 0 || s.Keep > n || s.MaxDepth < 1 || s.MaxDepth > 20:
		return fmt.Errorf("accel: NUTS segment: %d chains, %d steps, %d kept, depth %d: want chains ≥ 1, steps ≥ 0, 0 ≤ kept ≤ chains, depth 1..20",
			n, s.Steps, s.Keep, s.MaxDepth)
	case (s.Load || s.Read) && (len(s.X) != n*d || len(s.Grad) != n*d || len(s.LP) != n):
		return fmt.Errorf("accel: NUTS segment: X, Grad and LP have %d, %d and %d values, want %d, %d and %d",
			len(s.X), len(s.Grad), len(s.LP), n*d, n*d, n)
	case s.Read && (len(s.Mean) != n*d || len(s.M2) != n*d || len(s.StepSizes) != n || len(s.InvMetric) != n*d || len(s.GradEvals) != n):
		return fmt.Errorf("accel: NUTS segment: Mean, M2, StepSizes, InvMetric and GradEvals have %d, %d, %d, %d and %d values, want %d, %d, %d, %d and %d",
			len(s.Mean), len(s.M2), len(s.StepSizes), len(s.InvMetric), len(s.GradEvals), n*d, n*d, n, n*d, n)
	}
	return nil
}
