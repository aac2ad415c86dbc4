package posterior

// Posterior holds the draws of a run: per chain, per scalar column, per
// draw, on the constrained scale, with the sampler's statistics.
type Posterior struct {
	Model string
	// Fingerprint identifies the model the draws came from, its structure
	// and data (ppl refuses a posterior of another model, or of its model
	// before a change, where a posterior of its own is needed); "" when
	// unknown, as for a posterior read from a file.
	Fingerprint string
	// Vars are the recorded variables; Columns their scalars, named by
	// 0-based index ("theta[0]"), in the same order as Chain.Values.
	Vars    []Var
	Columns []string
	Chains  []Chain
	// Sampler names the algorithm ("NUTS", "HMC", "RWMH", …).
	Sampler string
	// RunChains is the number of chains the run had when it kept fewer
	// (the lockstep samplers run up to millions and keep 16); 0 when
	// every chain of the run is in Chains.
	RunChains int
	// Backend says where the log density was evaluated when the run chose
	// (ppl.Backend): "cpu", or the GPU with why it was picked.
	Backend string
	// Ensemble, for a lockstep run, summarises all its chains, not only
	// the kept ones; nil for other runs.
	Ensemble *Ensemble
	// Warmup is the number of warm-up iterations run per chain.
	Warmup int
	// Seconds is the wall time of warm-up and sampling per chain.
	Seconds []float64
	// Interrupted is true when the run was stopped before every draw was
	// made; the chains hold the draws made so far.
	Interrupted bool
	// Settings are the sampler settings of the run (for files and
	// summaries); zero for a posterior not made by a sampler.
	Settings Settings
	// Approximation is true when the draws are independent draws from a
	// fitted approximation (ADVI), not Markov chains: the summary leaves
	// out MCSE, ESS, R-hat and ESS per second, which describe how well
	// chains explored the posterior, not how good the approximation is.
	Approximation bool
	// Independent is true when the draws are independent draws of the
	// distribution itself (the prior predictive), not Markov chains: the
	// summary leaves out MCSE, ESS, R-hat and ESS per second, and the
	// chain warnings (R-hat, ESS, divergences) do not apply.
	Independent bool
	// Structure says the model's structure is known (a fit of a model of
	// package ppl, not a file): Centred then lists its latent variables
	// written in centred hierarchical form (theta ~ Normal(mu, tau), its
	// scale a parameter), which the warnings' advice names.
	Structure bool
	Centred   []string
	// Coords labels the elements along named dimensions (see Var.Dims):
	// the summary shows theta[Choate] for theta[0], and Column accepts
	// either.
	Coords map[string][]string

	// stats caches the summary's per-column statistics (statsCache).
	stats *statsCache
}

// Settings records how a posterior was sampled.
type Settings struct {
	Seed         uint64
	TargetAccept float64
	MaxDepth     int    // NUTS
	Steps        int    // static HMC: leapfrog steps per transition
	Metric       string // "diag_e", "dense_e" or "unit_e", as Stan names them
}

// Adaptation is what one chain's warm-up settled on, and its cost.
type Adaptation struct {
	StepSize float64
	// InvMetric is the inverse metric: its diagonal (Dense false) or the
	// dense matrix row-major.
	InvMetric []float64
	Dense     bool
	// WarmupSeconds and SamplingSeconds split the chain's wall time.
	WarmupSeconds, SamplingSeconds float64
	// GradEvals counts log-density gradient evaluations, warm-up included.
	GradEvals int
}

// Var is one recorded variable; Start indexes its first scalar in Columns.
type Var struct {
	Name          string
	Shape         []int
	Deterministic bool
	Start         int
	// Dims names the dimensions (as PyMC's dims), nil when unnamed;
	// Posterior.Coords labels their elements.
	Dims []string
}

// Chain is one chain's draws and statistics.
type Chain struct {
	Values     [][]float64 // [column][draw]
	Stats      Stats
	Adaptation Adaptation
}

// Stats are per-draw sampler statistics, as Stan's CSV names them. Slices
// a sampler does not produce are nil.
type Stats struct {
	LP         []float64 // lp__
	AcceptStat []float64 // accept_stat__
	StepSize   []float64 // stepsize__
	TreeDepth  []int     // treedepth__
	NLeapfrog  []int     // n_leapfrog__
	Divergent  []bool    // divergent__
	Energy     []float64 // energy__
}

// Draws is the number of draws per chain (0 with no chains).
func (p *Posterior) Draws() int {
	if len(p.Chains) == 0 || len(p.Chains[0].Values) == 0 {
		return 0
	}
	return len(p.Chains[0].Values[0])
}

// Column returns the index of a scalar column ("theta[0]", or its label
// by coordinates, "theta[Choate]"), or -1.
func (p *Posterior) Column(name string) int {
	for i, c := range p.Columns {
		if c == name {
			return i
		}
	}
	return p.labelColumn(name)
}
