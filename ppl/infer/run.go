package infer

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobayes/gobayes/ppl/adapt"
	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/mcmc"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// Run samples model with the settings of cfg and returns the posterior.
// On cancellation of ctx it returns the draws made so far (the same number
// for every chain) with Interrupted set, and no error.
func Run(ctx context.Context, model Model, cfg Config) (*posterior.Posterior, error) {
	dim := model.Dim()
	cfg, err := cfg.Defaults(dim, false)
	if err != nil {
		return nil, err
	}
	vars, cols := layout(model.Vars())
	if err := roomForDraws(cfg, len(cols)); err != nil {
		return nil, err
	}
	post := &posterior.Posterior{
		Model:   model.Name(),
		Vars:    vars,
		Columns: cols,
		Chains:  make([]posterior.Chain, cfg.Chains),
		Sampler: cfg.Sampler.String(),
		Warmup:  cfg.Warmup,
		Seconds: make([]float64, cfg.Chains),
		Settings: posterior.Settings{
			Seed: cfg.Seed, TargetAccept: cfg.TargetAccept, Metric: "diag_e",
		},
	}
	if cfg.Dense {
		post.Settings.Metric = "dense_e"
	}
	switch cfg.Sampler {
	case NUTS:
		post.Settings.MaxDepth = cfg.MaxDepth
	case HMC:
		post.Settings.Steps = cfg.Steps
	}

	var stop atomic.Bool
	// A context cancelled already stops the run before its first
	// iteration: the watcher below may be scheduled only after a small
	// model has finished.
	stop.Store(ctx.Err() != nil)
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			stop.Store(true)
		case <-done:
		}
	}()

	progress := make([]chainStatus, cfg.Chains)
	for i := range progress {
		progress[i].total = cfg.Warmup + cfg.Draws
	}
	var progressDone chan struct{}
	if cfg.Progress != nil {
		progressDone = make(chan struct{})
		go reportProgress(cfg, progress, done, progressDone)
	}

	errs := make([]error, cfg.Chains)
	made := make([]int, cfg.Chains)
	var wg sync.WaitGroup
	for c := 0; c < cfg.Chains; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			// A panic in a goroutine would end the whole process (the
			// notebook's kernel): turn one in the model into an error.
			defer func() {
				if r := recover(); r != nil {
					errs[c] = fmt.Errorf("infer: chain %d: the model's log density panicked: %v", c+1, r)
					// The draws recorded before the panic are kept.
					made[c] = max(0, int(progress[c].iter.Load())-cfg.Warmup)
					stop.Store(true)
				}
			}()
			made[c], errs[c] = runChain(model, cfg, c, len(cols), &post.Chains[c], &post.Seconds[c], &stop, &progress[c])
		}(c)
	}
	wg.Wait()
	close(done)
	if progressDone != nil {
		<-progressDone
	}
	var failed error
	for _, e := range errs {
		if e != nil {
			failed = e
			break
		}
	}
	for _, ch := range post.Chains {
		if ch.Adaptation.Dense {
			post.Settings.Metric = "dense_e" // the warm-up chose it (see Config.Dense)
		}
	}
	n := cfg.Draws
	for _, m := range made {
		n = min(n, m)
	}
	if failed != nil && n == 0 {
		return nil, failed
	}
	if n < cfg.Draws {
		post.Interrupted = true
		for c := range post.Chains {
			truncate(&post.Chains[c], n)
		}
	}
	// A chain that failed after every chain had made draws (a backend
	// that died: an MPI rank, the GPU's worker) ends the run as an
	// interrupt does: the draws made so far come back with the error.
	return post, failed
}

// chainStatus is one chain's progress, written by its goroutine and read by
// the reporter.
type chainStatus struct {
	iter, div atomic.Int64
	eps       atomic.Uint64 // float64 bits
	done      atomic.Bool
	total     int
}

func reportProgress(cfg Config, st []chainStatus, done <-chan struct{}, finished chan<- struct{}) {
	defer close(finished)
	snap := make([]ChainProgress, len(st))
	broken := false
	send := func() {
		if broken {
			return
		}
		// The callback may be a notebook's code: a panic in it stops the
		// reports, not the process.
		defer func() {
			if recover() != nil {
				broken = true
			}
		}()
		for i := range st {
			it := int(st[i].iter.Load())
			snap[i] = ChainProgress{
				Chain: i, Iteration: it, Total: st[i].total, Warmup: it < cfg.Warmup,
				Divergences: int(st[i].div.Load()), StepSize: math.Float64frombits(st[i].eps.Load()),
				Done: st[i].done.Load(),
			}
		}
		cfg.Progress(snap)
	}
	t := time.NewTicker(cfg.ProgressInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			send()
		case <-done:
			send()
			return
		}
	}
}

// chainSeed derives a chain's stream from the run's seed (SplitMix64 of
// both, so neighbouring seeds and chains give unrelated streams).
func chainSeed(seed uint64, chain int) (uint64, uint64) {
	mix := func(z uint64) uint64 {
		z += 0x9e3779b97f4a7c15
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	return mix(seed), mix(mix(seed) ^ uint64(chain+1))
}

func newSampler(cfg Config, f mcmc.LogDensity, dim int, rng *rand.Rand) mcmc.Sampler {
	m := mcmc.NewDiagMetric(dim)
	if cfg.Dense {
		m = mcmc.NewDenseMetric(dim)
	}
	var s mcmc.Sampler
	switch cfg.Sampler {
	case HMC:
		s = mcmc.NewHMC(f, m, rng, cfg.Steps)
	default:
		s = mcmc.NewNUTSDepth(f, m, rng, cfg.MaxDepth)
	}
	s.SetStepSize(cfg.StepSize)
	return s
}

// runChain runs chain c and returns the number of draws made.
func runChain(model Model, cfg Config, c, ncols int, out *posterior.Chain, seconds *float64,
	stop *atomic.Bool, status *chainStatus) (int, error) {
	defer status.done.Store(true)
	start := time.Now()
	dim := model.Dim()
	dens := model.NewDensity()
	gradEvals := 0
	f := func(x, g []float64) float64 {
		gradEvals++
		return dens.LogDensityGrad(x, g)
	}
	s1, s2 := chainSeed(cfg.Seed, c)
	rng := rand.New(rand.NewPCG(s1, s2))
	sampler := newSampler(cfg, f, dim, rng)
	st := mcmc.NewState(dim)
	status.eps.Store(math.Float64bits(sampler.StepSize()))

	if err := initialise(cfg, c, dens, sampler, st, rng); err != nil {
		return 0, err
	}

	// Step-size heuristic (also without warm-up, as Stan runs it), then
	// warm-up.
	if err := sampler.TuneStepSize(st); err != nil {
		return 0, fmt.Errorf("infer: chain %d: %v", c+1, err)
	}
	if cfg.Warmup > 0 {
		auto := !cfg.Dense && !cfg.DiagMetric && dim <= adapt.AutoMaxDim
		w := adapt.New(dim, cfg.Warmup, adapt.Options{TargetAccept: cfg.TargetAccept, Dense: cfg.Dense, Auto: auto})
		w.Init(sampler.StepSize())
		metric := sampler.Metric()
		for i := 0; i < cfg.Warmup; i++ {
			if stop.Load() {
				break
			}
			info := sampler.Step(st)
			w.Cost(info.NLeapfrog, info.Divergent)
			u := w.Update(st.Position, info.AcceptStat)
			sampler.SetStepSize(u.StepSize)
			if u.MetricUpdated {
				switch {
				case u.Dense && metric.Dense():
					// Regularisation keeps the estimate positive definite;
					// should rounding defeat it, the previous metric stays.
					_ = metric.SetCov(w.Cov())
				case u.Dense:
					// The warm-up found strong correlation: dense from now
					// on (or, should the factorisation fail, diagonal).
					if metric.SetDense(w.Cov()) != nil {
						metric.SetDiag(w.Var())
					}
				case metric.Dense():
					metric.SetDiagonal(w.Var()) // a dense trial that did not pay
				default:
					metric.SetDiag(w.Var())
				}
				if err := sampler.TuneStepSize(st); err != nil {
					return 0, fmt.Errorf("infer: chain %d: %v", c+1, err)
				}
				w.Restart(sampler.StepSize())
			}
			status.iter.Store(int64(i + 1))
			status.eps.Store(math.Float64bits(sampler.StepSize()))
		}
		sampler.SetStepSize(w.Final())
		status.eps.Store(math.Float64bits(sampler.StepSize()))
	}
	warmEnd := time.Now()
	m := sampler.Metric()
	out.Adaptation = adaptationOf(sampler.StepSize(), m)

	// Sampling.
	out.Values = make([][]float64, ncols)
	for j := range out.Values {
		out.Values[j] = make([]float64, cfg.Draws)
	}
	allocStats(&out.Stats, cfg.Sampler, cfg.Draws)
	row := make([]float64, ncols)
	n := 0
	if !stop.Load() {
		for i := 0; i < cfg.Draws; i++ {
			if stop.Load() {
				break
			}
			info := sampler.Step(st)
			dens.Constrained(st.Position, row)
			for j, v := range row {
				out.Values[j][i] = v
			}
			recordStats(&out.Stats, i, st.LogDensity, info)
			if info.Divergent {
				status.div.Add(1)
			}
			n = i + 1
			status.iter.Store(int64(cfg.Warmup + n))
		}
	}
	end := time.Now()
	out.Adaptation.WarmupSeconds = warmEnd.Sub(start).Seconds()
	out.Adaptation.SamplingSeconds = end.Sub(warmEnd).Seconds()
	out.Adaptation.GradEvals = gradEvals
	*seconds = end.Sub(start).Seconds()
	return n, nil
}

func adaptationOf(eps float64, m *mcmc.Metric) posterior.Adaptation {
	a := posterior.Adaptation{StepSize: eps, Dense: m.Dense()}
	if m.Dense() {
		a.InvMetric = m.InvMetric()
	} else {
		a.InvMetric = append([]float64(nil), m.Diag...)
	}
	return a
}

// initialise finds the chain's start: the user's position, or uniform draws
// in (-r, r) on the unconstrained scale until one has a finite log density
// and gradient.
func initialise(cfg Config, c int, dens Density, s mcmc.Sampler, st *mcmc.State, rng *rand.Rand) error {
	dim := len(st.Position)
	var user []float64
	switch {
	case cfg.InitChains != nil:
		user = cfg.InitChains[c]
	case cfg.Init != nil:
		user = cfg.Init
	}
	if user != nil {
		if err := s.Init(st, user); err != nil {
			return fmt.Errorf("infer: chain %d: the log density is not finite at the initial values given (not finite: %s): change the initial values", c+1, strings.Join(dens.NonFinite(user), ", "))
		}
		return nil
	}
	x := make([]float64, dim)
	for try := 0; try < cfg.InitTries; try++ {
		for i := range x {
			x[i] = cfg.InitRadius * (2*rng.Float64() - 1)
		}
		if s.Init(st, x) == nil {
			return nil
		}
	}
	terms := dens.NonFinite(x)
	what := "the log density or its gradient"
	if len(terms) > 0 {
		what = strings.Join(terms, ", ")
	}
	return fmt.Errorf("infer: chain %d: no finite starting point in %d tries of uniform(-%g, %g) on the unconstrained scale; not finite: %s. Check the priors' supports and the data of these terms, or give initial values (ppl.Init)",
		c+1, cfg.InitTries, cfg.InitRadius, cfg.InitRadius, what)
}

func allocStats(s *posterior.Stats, sampler Sampler, n int) {
	s.LP = make([]float64, n)
	s.AcceptStat = make([]float64, n)
	s.StepSize = make([]float64, n)
	s.NLeapfrog = make([]int, n)
	s.Divergent = make([]bool, n)
	s.Energy = make([]float64, n)
	if sampler == NUTS {
		s.TreeDepth = make([]int, n)
	}
}

func recordStats(s *posterior.Stats, i int, lp float64, info mcmc.Info) {
	s.LP[i] = lp
	s.AcceptStat[i] = info.AcceptStat
	s.StepSize[i] = info.StepSize
	if s.NLeapfrog != nil {
		s.NLeapfrog[i] = info.NLeapfrog
		s.Divergent[i] = info.Divergent
		s.Energy[i] = info.Energy
	}
	if s.TreeDepth != nil {
		s.TreeDepth[i] = info.TreeDepth
	}
}

// layout lists the posterior's variables and their scalar columns, named
// "theta[0]", "Sigma[1,0]" (0-based, row-major).
func layout(vs []Var) ([]posterior.Var, []string) {
	var cols []string
	out := make([]posterior.Var, len(vs))
	for i, v := range vs {
		out[i] = posterior.Var{Name: v.Name, Shape: append([]int(nil), v.Shape...), Deterministic: v.Deterministic, Start: len(cols)}
		cols = append(cols, ColumnNames(v.Name, v.Shape)...)
	}
	return out, cols
}

// ColumnNames names the scalars of a variable of the given shape, row-major
// and 0-based as Go and ArviZ index: "mu" for a scalar, "theta[0]"…,
// "Sigma[0,0]", "Sigma[0,1]"…. (A Stan CSV file, written or read, counts
// from 1: package posterior maps its names at that boundary.)
func ColumnNames(name string, shape []int) []string {
	n := 1
	for _, d := range shape {
		n *= d
	}
	if len(shape) == 0 {
		return []string{name}
	}
	out := make([]string, 0, n)
	idx := make([]int, len(shape))
	var b strings.Builder
	for k := 0; k < n; k++ {
		b.Reset()
		b.WriteString(name)
		b.WriteByte('[')
		for j, i := range idx {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(i))
		}
		b.WriteByte(']')
		out = append(out, b.String())
		for j := len(idx) - 1; j >= 0; j-- {
			idx[j]++
			if idx[j] < shape[j] {
				break
			}
			idx[j] = 0
		}
	}
	return out
}

// truncate keeps the first n draws of a chain.
func truncate(ch *posterior.Chain, n int) {
	for j := range ch.Values {
		ch.Values[j] = ch.Values[j][:n]
	}
	s := &ch.Stats
	s.LP, s.AcceptStat, s.StepSize, s.Energy = cut(s.LP, n), cut(s.AcceptStat, n), cut(s.StepSize, n), cut(s.Energy, n)
	if s.TreeDepth != nil {
		s.TreeDepth = s.TreeDepth[:n]
	}
	if s.NLeapfrog != nil {
		s.NLeapfrog = s.NLeapfrog[:n]
	}
	if s.Divergent != nil {
		s.Divergent = s.Divergent[:n]
	}
}

func cut(x []float64, n int) []float64 {
	if x == nil {
		return nil
	}
	return x[:n]
}

// roomForDraws refuses, before the run starts, a run whose draws cannot
// fit under the process's memory limit (debug.SetMemoryLimit: the
// notebook's worker sets one below its cap): one that grew into it would
// be stopped, or end the interpreter, only after minutes of sampling.
// Without a limit there is nothing to check against.
func roomForDraws(cfg Config, cols int) error {
	limit := debug.SetMemoryLimit(-1)
	if limit == math.MaxInt64 {
		return nil
	}
	// The values, then LP, AcceptStat, StepSize, Energy, NLeapfrog and
	// Divergent (and TreeDepth for NUTS), per draw.
	perDraw := int64(8*cols + 5*8 + 1)
	if cfg.Sampler == NUTS {
		perDraw += 8
	}
	need := int64(cfg.Chains) * int64(cfg.Draws) * perDraw
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	var live int64
	if sample[0].Value.Kind() == metrics.KindUint64 {
		live = int64(sample[0].Value.Uint64())
	}
	free := limit - live
	if need <= free {
		return nil
	}
	most := max(free, 0) / (int64(cfg.Chains) * perDraw)
	return fmt.Errorf("infer: %d chains × %d draws of %s would hold %s of draws, more than the %s left under the memory limit (%s, %s in use): ask for at most %d draws (ppl.Draws), or fewer chains, or raise the limit (the kernel's GOBAYES_MEMORY_LIMIT)",
		cfg.Chains, cfg.Draws, diag.Plural(cols, "value"), bytesString(need), bytesString(max(free, 0)), bytesString(limit), bytesString(live), most)
}

// bytesString is a size in KiB, MiB or GiB, to three figures.
func bytesString(n int64) string {
	switch {
	case n >= 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<30), 'g', 3, 64) + " GiB"
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'g', 3, 64) + " MiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<10), 'g', 3, 64) + " KiB"
}
