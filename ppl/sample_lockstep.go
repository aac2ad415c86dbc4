package ppl

import (
	"context"
	"fmt"
	"math"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// ChEES samples with ChEES-HMC: many chains in lockstep (1024 unless
// Chains says otherwise) whose trajectory length, step size and diagonal
// metric adapt from the spread across chains. The posterior keeps 16
// chains, and the streaming moments of all of them in its Ensemble; see
// package lockstep.
func ChEES() SampleOption { return func(s *sampleSettings) { s.cfg.Sampler = infer.ChEES } }

// MEADS samples with MEADS, generalised HMC tuned from folds of many
// chains in lockstep (1024 unless Chains says otherwise). The posterior
// keeps 16 chains. MEADS takes one gradient per iteration, so its draws
// are strongly autocorrelated: for R-hat below 1.01 over the kept chains
// run about as many gradients per chain as NUTS spends, e.g. Draws(40000)
// (mesquite and arK: R-hat 1.01-1.015 with 10,000 draws, 1.003 with
// 40,000); Chains(256) is enough for its adaptation on posteriors of up
// to a dozen dimensions and costs a quarter of the default. Its metric
// is diagonal: for posteriors with correlations beyond -0.99 use NUTS with
// DenseMetric. See package lockstep.
func MEADS() SampleOption { return func(s *sampleSettings) { s.cfg.Sampler = infer.MEADS } }

// usesLockstep reports whether a run goes to package lockstep: RWMH,
// ChEES and MEADS.
func usesLockstep(cfg infer.Config) bool { return cfg.Lockstep() }

// sharedInitChains is the chain count from which a lockstep run starts
// every chain at the one position Init gives (every free parameter named,
// as many as a million chains), rather than at a position per chain whose
// parameters not named start at random.
const sharedInitChains = 64

// perChainInit reports whether Init gives a lockstep run one position per
// chain.
func perChainInit(cfg infer.Config) bool {
	cfg, err := cfg.Defaults(0, true)
	return err == nil && cfg.Chains < sharedInitChains
}

// sampleLockstep runs cfg's sampler on c with every chain in lockstep.
// Chains start at init (unconstrained) when it is not nil, else
// uniformly in (-2, 2) on the unconstrained scale.
func sampleLockstep(ctx context.Context, c *Compiled, cfg infer.Config, init []float64, backend accel.Backend) (*posterior.Posterior, error) {
	cfg.Backend, cfg.Init = backend, init
	res, err := lockstep.Run(ctx, c, cfg)
	if err != nil {
		return nil, err
	}
	if m := res.Moments; m != nil && m.Draws > 0 {
		res.Posterior.Ensemble = ensemble(c, m)
	}
	return res.Posterior, nil
}

// ensemble is the streaming summary of all chains, named by the
// parameters of c.
func ensemble(c *Compiled, m *lockstep.Moments) *posterior.Ensemble {
	e := &posterior.Ensemble{Chains: m.Chains, Draws: m.Draws, Mean: m.Mean, SD: make([]float64, len(m.Var))}
	for j, v := range m.Var {
		e.SD[j] = math.Sqrt(v)
	}
	e.Names = make([]string, c.Dim())
	for _, p := range c.Params() {
		names := infer.ColumnNames(p.Name, p.Shape)
		for k := 0; k < p.Len; k++ {
			switch {
			case p.Transform == "identity" && len(names) == p.Len:
				e.Names[p.Offset+k] = names[k]
			case p.Len == 1:
				e.Names[p.Offset+k] = p.Name + " (unconstrained)"
			default:
				e.Names[p.Offset+k] = fmt.Sprintf("%s (unconstrained %d)", p.Name, k)
			}
		}
	}
	return e
}
