package infer

import (
	"fmt"
	"time"
)

// Config are the settings of a run; zero values mean the defaults.
type Config struct {
	// Chains is the number of chains (default 4).
	Chains int
	// Warmup and Draws are iterations per chain (defaults 1000 and 1000).
	// NoWarmup runs no warm-up even though Warmup is 0 means 1000.
	Warmup, Draws int
	NoWarmup      bool
	// Seed fixes every chain's random stream.
	Seed uint64
	// Sampler is "NUTS" (default), "HMC" or "RWMH".
	Sampler string
	// Steps is the number of leapfrog steps of static HMC (default 16).
	Steps int
	// TargetAccept is the step-size adaptation target (default 0.8 for
	// NUTS and HMC, 0.234 for RWMH).
	TargetAccept float64
	// MaxDepth bounds the NUTS tree depth (default 10).
	MaxDepth int
	// Dense adapts a dense inverse metric instead of a diagonal one.
	Dense bool
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
	// Progress, when not nil, receives every chain's progress, at most
	// every ProgressInterval (default 250ms) and once at the end, from one
	// goroutine.
	Progress         func([]ChainProgress)
	ProgressInterval time.Duration
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

func (c Config) withDefaults(dim int) (Config, error) {
	if c.Chains == 0 {
		c.Chains = 4
	}
	if c.Warmup == 0 && !c.NoWarmup {
		c.Warmup = 1000
	}
	if c.Draws == 0 {
		c.Draws = 1000
	}
	if c.Sampler == "" {
		c.Sampler = "NUTS"
	}
	if c.Steps == 0 {
		c.Steps = 16
	}
	if c.TargetAccept == 0 {
		c.TargetAccept = 0.8
		if c.Sampler == "RWMH" {
			c.TargetAccept = 0.234
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
	switch {
	case c.Chains < 1:
		return c, fmt.Errorf("infer: %d chains asked for: ask for at least 1", c.Chains)
	case c.Warmup < 0 || c.Draws < 0:
		return c, fmt.Errorf("infer: negative warm-up (%d) or draws (%d): give counts of 0 or more", c.Warmup, c.Draws)
	case c.Sampler != "NUTS" && c.Sampler != "HMC" && c.Sampler != "RWMH":
		return c, fmt.Errorf("infer: unknown sampler %q: use NUTS, HMC or RWMH", c.Sampler)
	case !(c.TargetAccept > 0 && c.TargetAccept < 1):
		return c, fmt.Errorf("infer: target acceptance %g is outside (0, 1): use a value like 0.8, or 0.95 for hard posteriors", c.TargetAccept)
	case c.MaxDepth < 1 || c.MaxDepth > 20:
		return c, fmt.Errorf("infer: max tree depth %d is outside 1..20", c.MaxDepth)
	case c.Init != nil && len(c.Init) != dim:
		return c, fmt.Errorf("infer: initial position has %d values, the model has %d unconstrained parameters", len(c.Init), dim)
	case c.InitChains != nil && len(c.InitChains) != c.Chains:
		return c, fmt.Errorf("infer: %d initial positions for %d chains", len(c.InitChains), c.Chains)
	}
	for i, x := range c.InitChains {
		if len(x) != dim {
			return c, fmt.Errorf("infer: initial position of chain %d has %d values, the model has %d unconstrained parameters", i+1, len(x), dim)
		}
	}
	return c, nil
}
