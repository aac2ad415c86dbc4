package ppl

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
	"github.com/gobayes/gobayes/ppl/optim"
	"github.com/gobayes/gobayes/ppl/posterior"
	"github.com/gobayes/gobayes/ppl/vi"
)

// SampleOption is a setting of Model.Sample.
type SampleOption func(*sampleSettings)

type sampleSettings struct {
	cfg      infer.Config
	fullRank bool
	init     map[string]any
	ctx      context.Context
	progress func([]infer.ChainProgress)
	live     *bool
	backend  string      // Backend's name; "" for GOBAYES_ACCEL or "auto"
	ranks    int         // Ranks: the MPI job's size
	cluster  string      // Cluster: the MPI job's hosts
	data     []namedData // WithData's containers
	batch    bool        // Minibatch: ADVI over blocks of rows
	// otherModel lets PosteriorPredictive and LogLik take a posterior of
	// another model (OtherModel).
	otherModel bool
	err        *Error // the first option given a value it cannot take
}

// fail records a bad option's value (the first one counts); the method
// given it refuses to run.
func (s *sampleSettings) fail(msg string) {
	if s.err == nil {
		s.err = &Error{Msg: msg}
	}
}

// NUTS samples with the No-U-Turn sampler (the default).
func NUTS() SampleOption { return func(s *sampleSettings) { s.cfg.Sampler = infer.NUTS } }

// HMC samples with static Hamiltonian Monte Carlo taking about steps
// leapfrog steps per draw.
func HMC(steps int) SampleOption {
	return func(s *sampleSettings) { s.cfg.Sampler, s.cfg.Steps = infer.HMC, steps }
}

// RWMH samples with random-walk Metropolis: a normal proposal whose scale
// per coordinate warm-up adapts, from each of Stan's windows' draws pooled
// over every chain and by the acceptance against a target of 0.234. The
// chains run in lockstep (see package lockstep), from the default 4 (one
// block, one core) up to millions of them on every core: memory grows with
// the chain count only (56 bytes per chain for a one-dimensional model),
// and with more than 16 chains the posterior keeps 16 chains' draws for
// the summary, R-hat and ESS, and the streaming moments of all of them in
// its Ensemble. A random walk needs many more iterations than NUTS for the
// same effective sample size (ten times the defaults is a start).
func RWMH() SampleOption { return func(s *sampleSettings) { s.cfg.Sampler = infer.RWMH } }

// Chains sets the number of chains (default 4), run in parallel; at least
// 1.
func Chains(n int) SampleOption {
	return func(s *sampleSettings) {
		if n < 1 {
			s.fail(fmt.Sprintf("Chains(%d): a run needs at least 1 chain (the default is 4)", n))
		}
		s.cfg.Chains = n
	}
}

// Warmup sets the warm-up iterations per chain (default 1000; 0 for none).
func Warmup(n int) SampleOption {
	return func(s *sampleSettings) { s.cfg.Warmup, s.cfg.NoWarmup = n, n == 0 }
}

// Draws sets the draws kept per chain (default 1000); at least 1.
func Draws(n int) SampleOption {
	return func(s *sampleSettings) {
		if n < 1 {
			s.fail(fmt.Sprintf("Draws(%d): keep at least 1 draw per chain (the default is 1000; Warmup(0) is how to skip warm-up)", n))
		}
		s.cfg.Draws = n
	}
}

// Seed fixes the random streams: the same seed gives the same draws on any
// number of cores.
func Seed(seed uint64) SampleOption { return func(s *sampleSettings) { s.cfg.Seed = seed } }

// TargetAccept sets the step-size adaptation's target acceptance, in the
// open interval (0, 1) (default 0.8); raise it (0.95, 0.99) to remove
// divergences.
func TargetAccept(a float64) SampleOption {
	return func(s *sampleSettings) {
		// 0 is refused too: the sampler's settings read 0 as "the
		// default", so TargetAccept(0) would silently run with 0.8.
		if !(a > 0 && a < 1) {
			s.fail(fmt.Sprintf("TargetAccept(%g): the target acceptance must lie in the open interval (0, 1); use 0.8 (the default), or 0.95 or 0.99 for hard posteriors", a))
		}
		s.cfg.TargetAccept = a
	}
}

// MaxDepth sets the largest NUTS tree depth (default 10).
func MaxDepth(d int) SampleOption { return func(s *sampleSettings) { s.cfg.MaxDepth = d } }

// DenseMetric adapts a dense inverse metric, for strongly correlated
// posteriors (NUTS, HMC; with RWMH a dense proposal covariance).
func DenseMetric() SampleOption { return func(s *sampleSettings) { s.cfg.Dense = true } }

// DiagMetric keeps the inverse metric diagonal. By default NUTS and HMC
// start diagonal and turn dense in warm-up when the draws show strong
// correlation (up to 100 parameters); the summary says which each chain
// ended with.
func DiagMetric() SampleOption { return func(s *sampleSettings) { s.cfg.DiagMetric = true } }

// Init gives initial values of parameters on their own (constrained)
// scale, by name: a number, or a slice for a vector. Parameters not named
// start at random, as usual. Runs of the lockstep samplers (RWMH, ChEES,
// MEADS) with 64 chains or more start every chain at the one position
// given, so there every free parameter needs a value.
func Init(values map[string]any) SampleOption { return func(s *sampleSettings) { s.init = values } }

// Context makes the run stop when ctx is cancelled, keeping the draws made
// so far. By default a run watches the notebook cell's context
// (through the Hooks the notebook installs), so interrupting the cell
// stops it the same way.
func Context(ctx context.Context) SampleOption { return func(s *sampleSettings) { s.ctx = ctx } }

// Progress receives every chain's progress a few times a second (instead
// of the live table Sample shows in a notebook).
func Progress(f func([]infer.ChainProgress)) SampleOption {
	return func(s *sampleSettings) { s.progress = f }
}

// FullRank makes ADVI fit a full-rank normal instead of a mean-field one.
func FullRank() SampleOption { return func(s *sampleSettings) { s.fullRank = true } }

// LiveProgress turns the notebook's live progress table on or off (on by
// default when a notebook displays the output).
func LiveProgress(on bool) SampleOption { return func(s *sampleSettings) { s.live = &on } }

// Sample compiles the model and samples it: 4 chains of 1000 warm-up
// iterations and 1000 draws with NUTS unless options say otherwise. In a
// notebook it shows a live progress table; as a cell's last expression the
// posterior shows its summary table. Errors (a model that does not compile,
// no finite starting point, bad options) panic with an *Error.
func (m *Model) Sample(opts ...SampleOption) *posterior.Posterior {
	p, err := m.sample(opts...)
	orPanic(err)
	return p
}

// LastRun is the posterior of the latest Sample of the session's models,
// nil before any. A notebook cell interrupted while sampling ends before
// its fit := m.Sample(…) is assigned; the draws made so far are here:
// fit := ppl.LastRun() (its summary says the run was interrupted). In a
// notebook it is the kernel session's (interp binds it to its Session);
// in a Go program, that of the models made outside any Session.
func LastRun() *posterior.Posterior { return program.LastRun() }

// MAP finds the posterior mode on the unconstrained scale by L-BFGS (see
// package optim for what that mode is). Seed and Init choose the start.
func (m *Model) MAP(opts ...SampleOption) *optim.Result {
	s := m.settings(opts)
	orPanic(m.needData("MAP", &s))
	c, err := m.Compile()
	orPanic(err)
	orPanic(sampleable(c, "MAP"))
	o := optim.Options{Seed: s.cfg.Seed}
	if s.init != nil {
		xs, err := c.initialPositions(s.init, infer.Config{Chains: 1, Seed: s.cfg.Seed})
		orPanic(err)
		o.Init = xs[0]
	}
	r, err := optim.MAP(c, o)
	orPanic(c.explainStart(err, s.cfg.Seed))
	return r
}

// ADVI fits a normal approximation to the posterior by variational
// inference (mean-field, or full-rank with FullRank()); Seed, Draws and
// Context apply. Its Posterior field holds draws from the approximation.
func (m *Model) ADVI(opts ...SampleOption) *vi.Result {
	s := m.settings(opts)
	orPanic(m.needData("ADVI", &s))
	c, err := m.Compile()
	orPanic(err)
	orPanic(sampleable(c, "ADVI"))
	o := vi.Options{Seed: s.cfg.Seed, Draws: s.cfg.Draws, Method: vi.MeanField}
	if s.fullRank {
		o.Method = vi.FullRank
	}
	if s.batch {
		finish := m.minibatches(&o, &s) // minibatch.go
		defer finish()
	}
	r, err := vi.ADVI(s.ctx, c, o)
	orPanic(c.explainStart(err, s.cfg.Seed))
	m.annotate(r.Posterior)
	return r
}

// PriorPredictive draws n times from the prior: every parameter,
// deterministic quantity and observed variable (and every discrete
// variable summed out), as one chain. Seed applies.
func (m *Model) PriorPredictive(n int, opts ...SampleOption) *posterior.Posterior {
	s := m.settings(opts)
	c, err := m.Compile()
	orPanic(err)
	draws, err := c.PriorPredictive(rand.New(rand.NewPCG(s.cfg.Seed, 0x9a10)), n)
	orPanic(err)
	vars := append(append(c.Vars(), c.enumVars()...), c.Observed()...)
	p := &posterior.Posterior{Model: c.Name(), Sampler: "prior predictive", Independent: true}
	ch := posterior.Chain{}
	for _, v := range vars {
		d, ok := draws[v.Name]
		if !ok {
			continue
		}
		p.Vars = append(p.Vars, posterior.Var{Name: v.Name, Shape: v.Shape, Deterministic: v.Deterministic, Start: len(p.Columns)})
		cols := infer.ColumnNames(v.Name, v.Shape)
		p.Columns = append(p.Columns, cols...)
		for j := range cols {
			col := make([]float64, n)
			for i := range col {
				col[i] = d[i][j]
			}
			ch.Values = append(ch.Values, col)
		}
	}
	p.Chains = []posterior.Chain{ch}
	return m.annotate(p)
}

// PosteriorPredictive draws replicated data for every draw of fit (a
// posterior of this model, not a selection of it): the observed variables,
// chains and draws as in fit, and the deterministic quantities computed
// from data containers (the mean prediction at new x). Seed applies; the
// same seed gives the same replications. WithData predicts at new data
// for this call alone; after SetData, at the model's data as they are.
// A discrete variable summed out (enumerated) is drawn at each draw from
// its posterior probabilities (its _probs) before the observed variables,
// and recorded beside them.
func (m *Model) PosteriorPredictive(fit *posterior.Posterior, opts ...SampleOption) *posterior.Posterior {
	s := m.settings(opts)
	defer m.withData(&s)()
	c, err := m.Compile()
	orPanic(err)
	orPanic(checkFit(c, fit, "PosteriorPredictive", s.otherModel))
	obs := append(append(c.Observed(), m.dataDets()...), c.enumVars()...)
	// Its own time per chain, not the fit's: the summary's ESS per second
	// is the predictive's.
	p := &posterior.Posterior{Model: c.Name(), Sampler: "posterior predictive", Warmup: fit.Warmup, Seconds: make([]float64, len(fit.Chains))}
	for _, v := range obs {
		p.Vars = append(p.Vars, posterior.Var{Name: v.Name, Shape: v.Shape, Deterministic: v.Deterministic, Start: len(p.Columns)})
		p.Columns = append(p.Columns, infer.ColumnNames(v.Name, v.Shape)...)
	}
	n := fit.Draws()
	row := make([]float64, len(fit.Columns))
	for ci, fc := range fit.Chains {
		start := time.Now()
		rng := rand.New(rand.NewPCG(s.cfg.Seed, 0x99d0+uint64(ci)))
		ch := posterior.Chain{Values: make([][]float64, len(p.Columns))}
		for j := range ch.Values {
			ch.Values[j] = make([]float64, n)
		}
		for i := 0; i < n; i++ {
			for j := range row {
				row[j] = fc.Values[j][i]
			}
			rep, err := c.PosteriorPredictive(rng, row)
			orPanic(err)
			for _, v := range p.Vars {
				for k, x := range rep[v.Name] {
					ch.Values[v.Start+k][i] = x
				}
			}
		}
		p.Chains = append(p.Chains, ch)
		p.Seconds[ci] = time.Since(start).Seconds()
	}
	return m.annotate(p)
}

// LogLik is the pointwise log-likelihood of every observed element at every
// draw of fit, as a posterior with one variable "log_lik" (for LOO and
// WAIC): log_lik[k] is the k-th observed element, in the order of the
// observed variables. WithData evaluates it at new data (new
// observations included) for this call alone. Where a discrete variable
// is summed out, an element that uses it gets log p(yⱼ | y₋ⱼ, θ), the
// marginal given the other observations (exact for one label per
// observation; for a shared label the conditional that LOO needs).
func (m *Model) LogLik(fit *posterior.Posterior, opts ...SampleOption) *posterior.Posterior {
	s := m.settings(opts)
	defer m.withData(&s)()
	orPanic(m.needData("LogLik", &sampleSettings{}))
	c, err := m.Compile()
	orPanic(err)
	orPanic(checkFit(c, fit, "LogLik", s.otherModel))
	k := c.LogLikLen()
	p := &posterior.Posterior{Model: c.Name(), Sampler: "log-likelihood", Warmup: fit.Warmup, Seconds: make([]float64, len(fit.Chains)),
		Vars: []posterior.Var{{Name: "log_lik", Shape: []int{k}}}, Columns: infer.ColumnNames("log_lik", []int{k})}
	n := fit.Draws()
	row := make([]float64, len(fit.Columns))
	out := make([]float64, k)
	for ci, fc := range fit.Chains {
		start := time.Now()
		ch := posterior.Chain{Values: make([][]float64, k)}
		for j := range ch.Values {
			ch.Values[j] = make([]float64, n)
		}
		for i := 0; i < n; i++ {
			for j := range row {
				row[j] = fc.Values[j][i]
			}
			orPanic(c.PointwiseLogLik(row, out))
			for j, v := range out {
				ch.Values[j][i] = v
			}
		}
		p.Chains = append(p.Chains, ch)
		p.Seconds[ci] = time.Since(start).Seconds()
	}
	return p
}

func (m *Model) settings(opts []SampleOption) sampleSettings {
	// The running cell's context: a notebook interrupt stops the chains.
	s := sampleSettings{ctx: m.session().runContext()}
	for _, o := range opts {
		o(&s)
	}
	if s.err != nil {
		panic(s.err)
	}
	return s
}

// sampleable refuses a model with nothing to sample: no parameters, or
// all of them observed.
func sampleable(c *Compiled, what string) error {
	if c.Dim() > 0 {
		return nil
	}
	return &Error{Msg: fmt.Sprintf("%s: model %q has no parameters to sample (it has no variables, or every one is observed); add a parameter, as m.Normal(\"mu\", 0, 1), or draw the observed variables from the model with PriorPredictive", what, c.Name())}
}

// OtherModel lets PosteriorPredictive and LogLik take a posterior of
// another model, or of this model before a cell run again changed it: its
// draws are read by column name as draws of this model. Without it such a
// posterior is refused (see fingerprint.go), as it would silently give
// the answer of a model other than the one written.
func OtherModel() SampleOption { return func(s *sampleSettings) { s.otherModel = true } }

// checkFit refuses a posterior that is not a whole posterior of this
// model: its columns must be the model's, in order (a posterior of another
// model with as many columns would silently be read as this one's), and,
// unless other, its fingerprint the model's.
func checkFit(c *Compiled, fit *posterior.Posterior, what string, other bool) error {
	if err := checkColumns(c, fit, what); err != nil {
		return err
	}
	m := c.m
	if other || fit.Fingerprint == "" || m.fromModel(fit.Fingerprint) {
		return nil
	}
	if m.printed[fit.Fingerprint] {
		return &Error{Msg: fmt.Sprintf("%s: the posterior was drawn from model %q as it was before a change (a cell run again redefined part of it, or gave it other data): sample the model again (fit := m.Sample()), or pass ppl.OtherModel() to use the old draws with the model as it is now", what, m.Name())}
	}
	return &Error{Msg: fmt.Sprintf("%s: the posterior was drawn from another model (%q) than model %q as it is now: their variables have the same names, but their structure or data differ; pass a posterior of this model (fit := m.Sample()), or ppl.OtherModel() to use another model's draws on purpose", what, fit.Model, m.Name())}
}

// checkColumns refuses a posterior whose columns are not the model's.
func checkColumns(c *Compiled, fit *posterior.Posterior, what string) error {
	var want []string
	params := 0
	for _, v := range c.Vars() {
		want = append(want, infer.ColumnNames(v.Name, v.Shape)...)
		if !v.Deterministic {
			params = len(want)
		}
	}
	if len(c.m.g.Data) > 0 && len(fit.Columns) >= params {
		// New data (SetData) may have changed the deterministic
		// quantities' shapes: the parameters must match, and come first.
		want = want[:params]
		fit = &posterior.Posterior{Model: fit.Model, Columns: fit.Columns[:params]}
	}
	if len(fit.Columns) != len(want) {
		return &Error{Msg: fmt.Sprintf("%s: the posterior has %d columns, model %s records %d: pass a whole posterior of this model (fit := m.Sample()), not a selection or another model's", what, len(fit.Columns), c.Name(), len(want))}
	}
	for i, name := range want {
		if fit.Columns[i] != name {
			return &Error{Msg: fmt.Sprintf("%s: the posterior's column %d is %s where model %s records %s: pass a posterior of this model (fit := m.Sample()), not of model %q", what, i, fit.Columns[i], c.Name(), name, fit.Model)}
		}
	}
	return nil
}

// orPanic panics with err as an *Error (keeping one that is already).
func orPanic(err error) {
	if err == nil {
		return
	}
	if e, ok := err.(*Error); ok {
		panic(e)
	}
	msg := err.Error()
	for _, p := range []string{"infer: ", "optim: ", "vi: ", "ppl: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	panic(&Error{Msg: msg})
}

func (m *Model) sample(opts ...SampleOption) (*posterior.Posterior, error) {
	s := m.settings(opts)
	if err := m.needData("Sample", &s); err != nil {
		return nil, err
	}
	c, err := m.Compile()
	if err != nil {
		return nil, err
	}
	if err := sampleable(c, "Sample"); err != nil {
		return nil, err
	}
	c.checkProbSums(s.cfg.Seed)
	var lockInit []float64
	switch {
	case s.init != nil && usesLockstep(s.cfg) && !perChainInit(s.cfg):
		// One position for every chain (as many as a million): every
		// free parameter must be named.
		if lockInit, err = c.UnconstrainAt(nil, s.init); err != nil {
			return nil, err
		}
	case s.init != nil:
		inits, err := c.initialPositions(s.init, s.cfg)
		if err != nil {
			return nil, err
		}
		s.cfg.InitChains = inits
	}
	bk, err := chooseBackend(&s, c, s.cfg)
	if err != nil {
		return nil, err
	}
	if bk.job != nil {
		// Nothing of the job outlives the run: not on an error, an
		// interrupt, or a chain's panic.
		defer bk.job.Close()
		if !usesLockstep(s.cfg) {
			// The ranks hold the rows: the model split into one shard
			// per rank.
			if c, err = m.compileOnRanks(bk.job.Ranks()); err != nil {
				return nil, err
			}
			defer c.unplace()
			if c.p.ShardBlocks == nil {
				bk.caption += "; not sharded, rank 0 evaluates the whole model: " + c.ShardPlan().String()
			} else {
				bk.caption += fmt.Sprintf("; %d blocks of rows over %d ranks", c.p.Plan.Blocks, bk.job.Ranks())
			}
		}
	}
	s.cfg.Progress = s.progress
	var sink ProgressSink
	if s.progress == nil && (s.live == nil || *s.live) {
		if sink = m.session().liveProgress(c.Name()); sink != nil {
			s.cfg.Progress = sink.Update
		}
	}
	var fit *posterior.Posterior
	onDevice := false
	if bk.nuts {
		// NUTS where the GPU runs whole transitions (package lockstep's
		// NUTS, accel.NUTSRunner); a worker without it takes the path below.
		cfg := s.cfg
		cfg.Sampler = infer.NUTS
		fit, err = sampleLockstep(s.ctx, c, cfg, lockInit, bk.b)
		if onDevice = !errors.Is(err, lockstep.ErrNUTSNotOnDevice); onDevice && fit != nil {
			fit.Backend = bk.caption + ", NUTS on the device (whole transitions per launch, one thread per chain, diagonal metric)"
		}
		bk.caption += fmt.Sprintf(", one position per call (%s; ChEES or MEADS with ppl.Chains(1024) fill the device)", samplerName(s.cfg))
	}
	if onDevice {
	} else if usesLockstep(s.cfg) {
		fit, err = sampleLockstep(s.ctx, c, s.cfg, lockInit, bk.b)
		if fit != nil {
			fit.Backend = bk.caption
		}
	} else {
		var model infer.Model = c
		if bk.b != nil {
			model = onBackend{c, bk.b}
		}
		fit, err = infer.Run(s.ctx, model, s.cfg)
		if fit != nil && bk.b != nil {
			fit.Backend = bk.caption
		}
	}
	if bk.job != nil {
		bk.job.Close() // before the final word: an interrupted cell waits for that
	}
	if fit != nil {
		// Before the final word too: the notebook's interrupt waits for the
		// live table to finish, and the next cell may then read LastRun.
		fit = m.annotate(fit)
		m.session().last.Store(fit)
	}
	if sink != nil {
		// The last progress report may precede the end of the run (or, on
		// an interrupt, never come): the final word is said here.
		sink.Finish(s.ctx.Err() != nil || (err != nil && fit != nil))
	}
	if fit == nil {
		err = c.explainStart(err, s.cfg.Seed)
	}
	if err != nil && fit != nil {
		// A backend that died mid-run (an MPI rank, the GPU's worker):
		// the draws made before are kept, as an interrupt keeps them.
		err = fmt.Errorf("%w; the %d draws of each chain made before it are kept: fit := ppl.LastRun()", err, fit.Draws())
	}
	return fit, err
}

// initialPositions turns constrained initial values into one unconstrained
// position per chain; parameters not given start uniformly in (-2, 2), as
// without Init.
func (c *Compiled) initialPositions(values map[string]any, cfg infer.Config) ([][]float64, error) {
	chains := cfg.Chains
	if chains == 0 {
		chains = 4
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x1417))
	out := make([][]float64, chains)
	for k := range out {
		x0 := make([]float64, c.Dim())
		for i := range x0 {
			x0[i] = 4*rng.Float64() - 2
		}
		x, err := c.UnconstrainAt(x0, values)
		if err != nil {
			return nil, err
		}
		out[k] = x
	}
	return out, nil
}
