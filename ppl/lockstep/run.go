package lockstep

import (
	"context"
	"math"
	"sync/atomic"
	"time"

	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// Result is a lockstep run: the posterior of the kept chains and the
// moments of all of them.
type Result struct {
	Posterior *posterior.Posterior
	Moments   *Moments
	// StateBytes is the memory of the chains' state (positions, moments,
	// transition scratch), O(chains); the kept draws come on top.
	StateBytes int
	// GradEvals is the number of log-density evaluations (gradients for
	// HMC) per chain, warm-up included.
	GradEvals int
}

// control is what a sampler's loop shares with the run: when to stop, and
// its progress.
type control struct {
	stop        atomic.Bool
	iter        atomic.Int64 // iterations done, warm-up included
	div         atomic.Int64 // divergences while sampling, kept chains
	eps         atomic.Uint64
	gradEvals   int
	adaptations []posterior.Adaptation // per kept chain
}

func (c *control) stopped() bool { return c.stop.Load() }

// Run samples m with every chain of cfg in lockstep. On cancellation of
// ctx it returns the draws made so far with Interrupted set, and no error.
func Run(ctx context.Context, m Model, cfg Config) (*Result, error) {
	cfg, err := cfg.Defaults(m.Dim(), true)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	vars, cols := layout(m.Vars())
	hmc := cfg.Sampler != infer.RWMH
	e := newEnsemble(m, cfg, hmc)
	if e.comp, err = openBackend(m, cfg); err != nil {
		return nil, err
	}
	defer e.comp.Close()
	if cfg.Backend != nil {
		e.dev = e.comp
		e.traj = newTrajectories(cfg.Chains, e.dim)
	}
	e.allocKept(len(cols), cfg.Draws, hmc)
	ctl := &control{}
	// A context cancelled already stops the run before its first step:
	// the watcher below may be scheduled only after a small run ended.
	ctl.stop.Store(ctx.Err() != nil)

	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			ctl.stop.Store(true)
		case <-done:
		}
	}()
	var progressDone chan struct{}
	if cfg.Progress != nil {
		progressDone = make(chan struct{})
		go reportProgress(cfg, ctl, done, progressDone)
	}

	var made int
	switch cfg.Sampler {
	case infer.RWMH:
		made, err = runRWMH(e, ctl)
	case infer.ChEES:
		made, err = runChEES(e, ctl)
	case infer.NUTS:
		made, err = runNUTS(e, ctl)
	default:
		made, err = runMEADS(e, ctl)
	}
	close(done)
	if progressDone != nil {
		<-progressDone
	}
	if err != nil {
		return nil, err
	}
	secs := time.Since(start).Seconds()
	post := &posterior.Posterior{
		Model: m.Name(), Vars: vars, Columns: cols, Chains: e.kept, Sampler: cfg.Sampler.String(), Warmup: cfg.Warmup,
		Seconds:  make([]float64, len(e.kept)),
		Settings: posterior.Settings{Seed: cfg.Seed, TargetAccept: cfg.TargetAccept, Metric: "diag_e"},
	}
	if cfg.Chains > len(e.kept) {
		post.RunChains = cfg.Chains
	}
	for k := range post.Chains {
		post.Seconds[k] = secs
		if k < len(ctl.adaptations) {
			post.Chains[k].Adaptation = ctl.adaptations[k]
			if ctl.adaptations[k].Dense {
				post.Settings.Metric = "dense_e"
			}
		}
		post.Chains[k].Adaptation.GradEvals = ctl.gradEvals
	}
	if made < cfg.Draws {
		post.Interrupted = true
		for k := range post.Chains {
			truncate(&post.Chains[k], made)
		}
	}
	return &Result{Posterior: post, Moments: e.moments(), StateBytes: e.stateBytes(), GradEvals: ctl.gradEvals}, nil
}

func reportProgress(cfg Config, ctl *control, done <-chan struct{}, finished chan<- struct{}) {
	defer close(finished)
	snap := make([]infer.ChainProgress, cfg.Keep)
	broken := false
	send := func(end bool) {
		if broken {
			return
		}
		defer func() {
			if recover() != nil {
				broken = true
			}
		}()
		it := int(ctl.iter.Load())
		total := cfg.Warmup + cfg.Draws
		if cfg.Sampler == infer.MEADS {
			total = cfg.Warmup + cfg.Draws*cfg.Thin
		}
		for i := range snap {
			snap[i] = infer.ChainProgress{Chain: i, Iteration: it, Total: total, Warmup: it < cfg.Warmup,
				Divergences: int(ctl.div.Load()), StepSize: math.Float64frombits(ctl.eps.Load()), Done: end}
		}
		cfg.Progress(snap)
	}
	t := time.NewTicker(cfg.ProgressInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			send(false)
		case <-done:
			send(true)
			return
		}
	}
}

func layout(vs []infer.Var) ([]posterior.Var, []string) {
	var cols []string
	out := make([]posterior.Var, len(vs))
	for i, v := range vs {
		out[i] = posterior.Var{Name: v.Name, Shape: append([]int(nil), v.Shape...), Deterministic: v.Deterministic, Start: len(cols)}
		cols = append(cols, infer.ColumnNames(v.Name, v.Shape)...)
	}
	return out, cols
}

func truncate(c *posterior.Chain, n int) {
	for j := range c.Values {
		c.Values[j] = c.Values[j][:n]
	}
	s := &c.Stats
	s.LP, s.AcceptStat, s.StepSize = s.LP[:n], s.AcceptStat[:n], s.StepSize[:n]
	if s.NLeapfrog != nil {
		s.NLeapfrog, s.Divergent, s.Energy = s.NLeapfrog[:n], s.Divergent[:n], s.Energy[:n]
	}
	if s.TreeDepth != nil {
		s.TreeDepth = s.TreeDepth[:n]
	}
}
