package infer

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/gobayes/gobayes/accel"
)

// Sampler is a sampling algorithm: the one typed choice of every run, of
// package lockstep and of the commands.
type Sampler uint8

const (
	// DefaultSampler is the zero value: NUTS for Run, ChEES for
	// lockstep.Run.
	DefaultSampler Sampler = iota
	NUTS                   // the No-U-Turn sampler, one chain per goroutine
	HMC                    // static Hamiltonian Monte Carlo, Steps leapfrog steps
	RWMH                   // random-walk Metropolis, every chain in lockstep
	ChEES                  // ChEES-HMC, every chain in lockstep
	MEADS                  // MEADS, every chain in lockstep
)

var samplerNames = [...]string{"default", "NUTS", "HMC", "RWMH", "ChEES", "MEADS"}

// String is the sampler's name as summaries print it ("NUTS", "ChEES").
func (s Sampler) String() string {
	if int(s) < len(samplerNames) {
		return samplerNames[s]
	}
	return fmt.Sprintf("Sampler(%d)", uint8(s))
}

// ParseSampler is the sampler called name, in any case ("nuts", "CHEES").
func ParseSampler(name string) (Sampler, error) {
	for s := NUTS; s <= MEADS; s++ {
		if strings.EqualFold(name, s.String()) {
			return s, nil
		}
	}
	return 0, fmt.Errorf("infer: unknown sampler %q: use NUTS, HMC, RWMH, ChEES or MEADS", name)
}

// Config is the one set of settings of every sampler — NUTS and HMC here,
// RWMH, ChEES and MEADS in package lockstep — with one
// place for defaults and validation (Defaults). Zero values mean the
// defaults; fields a sampler does not use are ignored.
type Config struct {
	// Sampler chooses the algorithm.
	Sampler Sampler
	// Chains is the number of chains (default 4; 1024 for ChEES and
	// MEADS).
	Chains int
	// Warmup and Draws are iterations per chain (defaults 1000 and 1000).
	// NoWarmup runs no warm-up even though Warmup is 0 means 1000.
	Warmup, Draws int
	NoWarmup      bool
	// Seed fixes every chain's random stream.
	Seed uint64
	// Steps is the number of leapfrog steps of static HMC (default 16).
	Steps int
	// TargetAccept is the step-size adaptation target: 0.8 for NUTS and
	// HMC, 0.234 for RWMH, and for ChEES 0.651 (the paper's), of the
	// harmonic mean of the acceptance probabilities across chains. MEADS
	// sets its step size from curvature and ignores it.
	TargetAccept float64
	// MaxDepth bounds the NUTS tree depth (default 10).
	MaxDepth int
	// Dense adapts a dense inverse metric instead of a diagonal one (NUTS,
	// HMC; for RWMH the proposal's covariance). By default (neither Dense nor DiagMetric) a chain starts
	// diagonal and turns dense in warm-up when its draws show strong
	// correlation (adapt.DenseWorthIt; up to adapt.AutoMaxDim dimensions);
	// DiagMetric keeps it diagonal.
	Dense      bool
	DiagMetric bool
	// StepSize is the initial step size (default 1), before the heuristic.
	StepSize float64
	// Init, when not nil, is the unconstrained starting position of every
	// chain (length Model.Dim); InitChains gives one per chain instead.
	Init       []float64
	InitChains [][]float64
	// InitRadius is the half-width of the uniform initialisation on the
	// unconstrained scale (default 2), InitTries the attempts (default 100).
	InitRadius float64
	InitTries  int
	// Progress, when not nil, receives every chain's progress (in
	// lockstep, the kept chains'), at most every ProgressInterval (default
	// 250ms) and once at the end, from one goroutine.
	Progress         func([]ChainProgress)
	ProgressInterval time.Duration

	// The lockstep samplers' settings.

	// Keep is how many chains the posterior holds (the first ones; default
	// 16, at most Chains); StoreAll keeps every chain.
	Keep     int
	StoreAll bool
	// Scale, when positive, fixes the random-walk proposal's standard
	// deviation (no adaptation of it); otherwise RWMH adapts it in warm-up.
	Scale float64
	// Folds is the number of MEADS folds (default 4).
	Folds int
	// Thin, for MEADS, keeps every Thin-th iteration after warm-up: Draws
	// draws from Draws·Thin iterations (default 1). MEADS spends one
	// gradient per iteration, so on correlated posteriors it needs many
	// iterations for the same effective sample size.
	Thin int
	// MaxSteps bounds the leapfrog steps of one ChEES trajectory (default
	// 1024).
	MaxSteps int
	// Block is the number of chains evaluated together: at most 256, and
	// by default few enough that every core (Workers, or GOMAXPROCS) gets
	// a block — 4 chains on 2 cores are 2 blocks of 2. Draws do not depend
	// on it.
	Block int
	// Workers is the number of goroutines (default GOMAXPROCS).
	Workers int
	// Backend, when not nil, evaluates the log density through the accel
	// contract (a GPU: accel.ByName("cuda")) instead of accel/vec on every
	// core: every chain is then one block, evaluated in one call of the
	// backend per gradient, and each ChEES trajectory is one call of
	// Compiled.Leapfrog. The samplers' own arithmetic between calls
	// (momenta, acceptance, adaptation) stays on the host.
	Backend accel.Backend
}

// Lockstep reports whether the run's chains go in lockstep (package
// lockstep): RWMH, ChEES and MEADS.
func (c Config) Lockstep() bool {
	return c.Sampler == RWMH || c.Sampler == ChEES || c.Sampler == MEADS
}

// ChainProgress is one chain's progress.
type ChainProgress struct {
	Chain       int // 0-based
	Iteration   int // iterations done, warm-up included
	Total       int // warm-up plus draws
	Warmup      bool
	Divergences int // in sampling so far (warm-up ones are not counted)
	StepSize    float64
	Done        bool
}

// DefaultLockstepChains is the number of chains of a ChEES or MEADS run
// that does not say.
const DefaultLockstepChains = 1024

// Defaults fills in c's defaults and checks it, for a model of dimension
// dim (0: not checked against a model), on the engine the sampler runs
// on: one chain per goroutine (Run) or lockstep (lockstep.Run). It is the
// one place of both.
func (c Config) Defaults(dim int, lockstep bool) (Config, error) {
	if c.Sampler == DefaultSampler {
		c.Sampler = NUTS
		if lockstep {
			c.Sampler = ChEES
		}
	}
	if c.Chains == 0 {
		c.Chains = 4
		if c.Sampler == ChEES || c.Sampler == MEADS {
			c.Chains = DefaultLockstepChains
		}
	}
	if c.Warmup == 0 && !c.NoWarmup {
		c.Warmup = 1000
	}
	if c.Draws == 0 {
		c.Draws = 1000
	}
	if c.Steps == 0 {
		c.Steps = 16
	}
	if c.TargetAccept == 0 {
		switch {
		case c.Sampler == RWMH:
			c.TargetAccept = 0.234
		case c.Sampler == ChEES || c.Sampler == MEADS:
			c.TargetAccept = 0.651
		default:
			c.TargetAccept = 0.8
		}
	}
	if c.MaxDepth == 0 {
		c.MaxDepth = 10
	}
	if c.StepSize == 0 {
		c.StepSize = 1
	}
	if c.InitRadius == 0 {
		c.InitRadius = 2
	}
	if c.InitTries == 0 {
		c.InitTries = 100
	}
	if c.ProgressInterval == 0 {
		c.ProgressInterval = 250 * time.Millisecond
	}
	if c.Keep == 0 {
		c.Keep = 16
	}
	c.Keep = min(c.Keep, c.Chains)
	if c.StoreAll {
		c.Keep = c.Chains
	}
	if c.Folds == 0 {
		c.Folds = 4
	}
	if c.Thin == 0 {
		c.Thin = 1
	}
	if c.MaxSteps == 0 {
		c.MaxSteps = 1024
	}
	if c.Block == 0 {
		cores := c.Workers
		if cores <= 0 {
			cores = runtime.GOMAXPROCS(0)
		}
		c.Block = min(256, max(1, (c.Chains+cores-1)/cores))
	}
	if c.Backend != nil && lockstep {
		c.Block, c.Workers = max(c.Chains, 1), 1
	}
	switch {
	case c.Sampler > MEADS:
		return c, fmt.Errorf("infer: unknown sampler %v: use NUTS, HMC, RWMH, ChEES or MEADS", c.Sampler)
	case lockstep && c.Sampler == HMC:
		return c, fmt.Errorf("infer: %v runs one chain per goroutine, not in lockstep: use NUTS, RWMH, ChEES or MEADS", c.Sampler)
	case !lockstep && c.Lockstep():
		return c, fmt.Errorf("infer: %v runs its chains in lockstep: use package lockstep (ppl.RWMH, ppl.ChEES, ppl.MEADS)", c.Sampler)
	case c.Chains < 1:
		return c, fmt.Errorf("infer: %d chains asked for: ask for at least 1", c.Chains)
	case c.Warmup < 0 || c.Draws < 0:
		return c, fmt.Errorf("infer: negative warm-up (%d) or draws (%d): give counts of 0 or more", c.Warmup, c.Draws)
	case !(c.TargetAccept > 0 && c.TargetAccept < 1):
		return c, fmt.Errorf("infer: target acceptance %g is outside (0, 1): use a value like 0.8, or 0.95 for hard posteriors", c.TargetAccept)
	case c.MaxDepth < 1 || c.MaxDepth > 20:
		return c, fmt.Errorf("infer: max tree depth %d is outside 1..20", c.MaxDepth)
	case c.Sampler == MEADS && c.Chains < 2*c.Folds:
		return c, fmt.Errorf("infer: MEADS needs at least 2 chains per fold (%d folds), got %d chains: ask for more chains, e.g. ppl.Chains(256)", c.Folds, c.Chains)
	case c.Sampler == ChEES && c.Chains < 2:
		return c, fmt.Errorf("infer: ChEES adapts from the spread across chains and needs at least 2 chains, got %d: ask for more, e.g. ppl.Chains(256)", c.Chains)
	case c.Thin < 1:
		return c, fmt.Errorf("infer: thinning of %d: give 1 or more", c.Thin)
	case c.Block < 1:
		return c, fmt.Errorf("infer: block of %d chains: give at least 1", c.Block)
	case dim > 0 && c.Init != nil && len(c.Init) != dim:
		return c, fmt.Errorf("infer: initial position has %d values, the model has %d unconstrained parameters", len(c.Init), dim)
	case c.InitChains != nil && len(c.InitChains) != c.Chains:
		return c, fmt.Errorf("infer: %d initial positions for %d chains", len(c.InitChains), c.Chains)
	}
	for i, x := range c.InitChains {
		if dim > 0 && len(x) != dim {
			return c, fmt.Errorf("infer: initial position of chain %d has %d values, the model has %d unconstrained parameters", i+1, len(x), dim)
		}
	}
	return c, nil
}
