package lockstep

import (
	"fmt"
	"time"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/infer"
)

// Model is a compiled model with its log-density program (ppl.Compiled).
type Model interface {
	infer.Model
	Program() *ir.Program
}

// Config are the settings of a lockstep run; zero values mean defaults.
type Config struct {
	// Sampler is "RWMH", "ChEES" (default) or "MEADS".
	Sampler string
	// Chains is the number of chains (default 1024).
	Chains int
	// Warmup and Draws are iterations per chain (defaults 1000 and 1000;
	// NoWarmup for none).
	Warmup, Draws int
	NoWarmup      bool
	Seed          uint64
	// Keep is how many chains the posterior holds (the first ones; default
	// 16, at most Chains); StoreAll keeps every chain.
	Keep     int
	StoreAll bool
	// TargetAccept is the step-size target: of the harmonic mean of the
	// acceptance probabilities across chains for ChEES (default 0.651, the
	// paper's), of the mean acceptance for RWMH (default 0.234). MEADS sets
	// its step size from curvature and ignores it.
	TargetAccept float64
	// Scale, when positive, fixes the random-walk proposal's standard
	// deviation (no adaptation of it); otherwise RWMH adapts it in warm-up.
	Scale float64
	// Folds is the number of MEADS folds (default 4).
	Folds int
	// Thin, for MEADS, keeps every Thin-th iteration after warm-up: Draws
	// draws from Draws·Thin iterations (default 1). MEADS spends one
	// gradient per iteration, so on correlated posteriors it needs many
	// iterations for the same effective sample size; the other samplers
	// ignore it.
	Thin int
	// MaxSteps bounds the leapfrog steps of one ChEES trajectory (default
	// 1024).
	MaxSteps int
	// Init, when not nil, is every chain's unconstrained starting position
	// (length Dim).
	Init []float64
	// InitRadius is the half-width of the uniform start on the
	// unconstrained scale (default 2).
	InitRadius float64
	// Block is the number of chains evaluated together (default 256).
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
	// Progress receives the kept chains' progress, at most every
	// ProgressInterval (default 250ms) and once at the end.
	Progress         func([]infer.ChainProgress)
	ProgressInterval time.Duration
}

// DefaultChains is the number of chains of a run that does not say.
const DefaultChains = 1024

func (c Config) withDefaults() (Config, error) {
	if c.Sampler == "" {
		c.Sampler = "ChEES"
	}
	if c.Chains == 0 {
		c.Chains = DefaultChains
	}
	if c.Warmup == 0 && !c.NoWarmup {
		c.Warmup = 1000
	}
	if c.Draws == 0 {
		c.Draws = 1000
	}
	if c.Keep == 0 {
		c.Keep = 16
	}
	c.Keep = min(c.Keep, c.Chains)
	if c.StoreAll {
		c.Keep = c.Chains
	}
	if c.TargetAccept == 0 {
		c.TargetAccept = 0.651
		if c.Sampler == "RWMH" {
			c.TargetAccept = 0.234
		}
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
	if c.InitRadius == 0 {
		c.InitRadius = 2
	}
	if c.Block == 0 {
		c.Block = 256
	}
	if c.Backend != nil {
		c.Block, c.Workers = max(c.Chains, 1), 1
	}
	if c.ProgressInterval == 0 {
		c.ProgressInterval = 250 * time.Millisecond
	}
	switch {
	case c.Sampler != "RWMH" && c.Sampler != "ChEES" && c.Sampler != "MEADS":
		return c, fmt.Errorf("lockstep: unknown sampler %q: use RWMH, ChEES or MEADS", c.Sampler)
	case c.Chains < 1:
		return c, fmt.Errorf("lockstep: %d chains asked for: ask for at least 1", c.Chains)
	case c.Sampler == "MEADS" && c.Chains < 2*c.Folds:
		return c, fmt.Errorf("lockstep: MEADS needs at least 2 chains per fold (%d folds), got %d chains: ask for more chains, e.g. ppl.Chains(256)", c.Folds, c.Chains)
	case c.Sampler == "ChEES" && c.Chains < 2:
		return c, fmt.Errorf("lockstep: ChEES adapts from the spread across chains and needs at least 2 chains, got %d: ask for more, e.g. ppl.Chains(256)", c.Chains)
	case c.Warmup < 0 || c.Draws < 0:
		return c, fmt.Errorf("lockstep: negative warm-up (%d) or draws (%d): give counts of 0 or more", c.Warmup, c.Draws)
	case !(c.TargetAccept > 0 && c.TargetAccept < 1):
		return c, fmt.Errorf("lockstep: target acceptance %g is outside (0, 1)", c.TargetAccept)
	case c.Thin < 1:
		return c, fmt.Errorf("lockstep: thinning of %d: give 1 or more", c.Thin)
	case c.Block < 1:
		return c, fmt.Errorf("lockstep: block of %d chains: give at least 1", c.Block)
	}
	return c, nil
}
