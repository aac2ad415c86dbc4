package lockstep

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/par"
	"github.com/gobayes/gobayes/accel/philox"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// block is the state of chains [first, first+n), struct-of-arrays: slot j
// of chain c at j·n+c.
type block struct {
	first, n int
	x, g     []float64 // position and gradient (gradient only for HMC)
	lp       []float64
	// Per-chain Welford moments of the draws on the unconstrained scale;
	// cm the co-moments, slot (j·dim+k)·n+c, for RWMH's dense proposal.
	mean, m2, cm []float64
	// Scratch of one transition, for the samplers that reduce across
	// chains between proposing and accepting.
	xp, gp, p, pp, lpp, alpha, u []float64
	div                          []bool
	// w2 and w3 keep, for one-dimensional RWMH, the two words of each
	// chain's block left for the next (odd) step.
	w2, w3 []uint32
	// dens is, for one-dimensional RWMH of a mixture, the density form of
	// each chain's position (vec.Batch.ForwardDensity).
	dens []float64
}

// bytes is the memory the block holds.
func (b *block) bytes() int {
	n := 0
	for _, s := range [][]float64{b.x, b.g, b.lp, b.mean, b.m2, b.cm, b.xp, b.gp, b.p, b.pp, b.lpp, b.alpha, b.u, b.dens} {
		n += 8 * cap(s)
	}
	n += 4*cap(b.w2) + 4*cap(b.w3) + cap(b.div)
	return n
}

// worker is one goroutine's evaluators and buffers.
type worker struct {
	batches map[int]evaluator
	dens    infer.Density
	xc, row []float64
	z       []float64 // one value per coordinate
	buf     []float64 // one value per chain of a block
	w0, w1  []uint32  // random words, one per chain of a block
}

func (w *worker) batch(e *ensemble, n int) evaluator {
	b, ok := w.batches[n]
	if !ok {
		b = newEvaluator(e.comp, n)
		w.batches[n] = b
	}
	return b
}

// ensemble is every chain of a run.
type ensemble struct {
	cfg     Config
	model   Model
	dim     int
	blocks  []*block
	workers []*worker // one per worker index of loop
	loop    *par.Loop
	// draws is the number of draws in the Welford moments.
	draws int
	// kept are the posterior's chains; ncols their columns.
	kept  []posterior.Chain
	ncols int
	// comp is the program compiled for the run, through the accel
	// contract: on the CPU (accel/cpu, whose batches are accel/vec's) or
	// on Config.Backend. dev is comp when a Backend was given (nil
	// otherwise): then every chain is one block and each ChEES trajectory
	// one Leapfrog call; traj is its buffers.
	comp accel.Compiled
	dev  accel.Compiled
	traj *accel.Trajectories
}

func newEnsemble(m Model, cfg Config, hmc bool) *ensemble {
	e := &ensemble{cfg: cfg, model: m, dim: m.Dim()}
	d := e.dim
	for first := 0; first < cfg.Chains; first += cfg.Block {
		n := min(cfg.Block, cfg.Chains-first)
		b := &block{first: first, n: n, x: make([]float64, d*n), lp: make([]float64, n),
			mean: make([]float64, d*n), m2: make([]float64, d*n), u: make([]float64, n)}
		if hmc {
			b.g, b.xp, b.gp = make([]float64, d*n), make([]float64, d*n), make([]float64, d*n)
			b.p, b.pp = make([]float64, d*n), make([]float64, d*n)
			b.lpp, b.alpha, b.div = make([]float64, n), make([]float64, n), make([]bool, n)
		}
		e.blocks = append(e.blocks, b)
	}
	nw := cfg.Workers
	if nw <= 0 {
		nw = runtime.GOMAXPROCS(0)
	}
	nw = min(nw, len(e.blocks))
	e.loop = par.NewLoop(nw)
	for i := 0; i < nw; i++ {
		e.workers = append(e.workers, &worker{batches: map[int]evaluator{}, dens: m.NewDensity(), xc: make([]float64, d), z: make([]float64, d), buf: make([]float64, cfg.Block),
			w0: make([]uint32, cfg.Block), w1: make([]uint32, cfg.Block)})
	}
	return e
}

// stateBytes is the memory of the chains' state: O(chains), whatever the
// number of draws.
func (e *ensemble) stateBytes() int {
	n := 0
	for _, b := range e.blocks {
		n += b.bytes()
	}
	return n
}

// parallel runs f on every block, blocks shared out to the workers
// (accel/par's loop: the caller and the process's helpers). A panic in the
// model becomes an error, once every other block has run.
func (e *ensemble) parallel(f func(w *worker, b *block)) error {
	p := e.loop.Run(len(e.blocks), func(w, i int) { f(e.workers[w], e.blocks[i]) })
	if p == nil {
		return nil
	}
	if err, ok := asDeviceError(p); ok {
		return err
	}
	return fmt.Errorf("lockstep: the model's log density panicked: %v", p)
}

// initStep is the step number of the initial positions' random numbers
// (steps of the run count from 0).
const initStep = math.MaxUint32

// initialise starts every chain: at Config.Init, at its Config.InitChains
// position, or uniformly in (-r, r) on the unconstrained scale, redrawing
// chains whose log density (or gradient, for HMC) is not finite. The error
// names the model terms that are not finite at the first chain that found
// no start.
func (e *ensemble) initialise(grad bool) error {
	r := e.cfg.InitRadius
	user := e.cfg.Init != nil || e.cfg.InitChains != nil
	var bad atomic.Int64
	// why[k] is, for block k, whether a chain found no start, and the
	// terms not finite at the first one.
	why := make([]struct {
		found bool
		terms []string
	}, len(e.blocks))
	err := e.parallel(func(w *worker, b *block) {
		bt := w.batch(e, b.n)
		x := bt.X()
		for c := 0; c < b.n; c++ {
			st := philox.New(e.cfg.Seed, uint64(b.first+c), initStep)
			for j := 0; j < e.dim; j++ {
				switch {
				case e.cfg.Init != nil:
					x[j*b.n+c] = e.cfg.Init[j]
				case e.cfg.InitChains != nil:
					x[j*b.n+c] = e.cfg.InitChains[b.first+c][j]
				default:
					x[j*b.n+c] = r * (2*st.Uniform() - 1)
				}
			}
		}
		for try := 0; ; try++ {
			if grad {
				bt.Gradient()
			} else {
				bt.Forward()
			}
			redo, last := 0, try == 100 || user
			for c := 0; c < b.n; c++ {
				lp := bt.LPs()[c]
				ok := !math.IsInf(lp, 0) && !math.IsNaN(lp)
				if grad {
					for j := 0; j < e.dim && ok; j++ {
						g := bt.Grad()[j*b.n+c]
						ok = !math.IsInf(g, 0) && !math.IsNaN(g)
					}
				}
				if ok {
					continue
				}
				redo++
				if last {
					if redo == 1 {
						for j := 0; j < e.dim; j++ {
							w.xc[j] = x[j*b.n+c]
						}
						k := b.first / e.cfg.Block
						why[k].found, why[k].terms = true, w.dens.NonFinite(w.xc)
					}
					continue
				}
				// Redraw from the chain's initial stream, further along.
				st := philox.New(e.cfg.Seed, uint64(b.first+c), initStep-1-uint64(try))
				for j := 0; j < e.dim; j++ {
					x[j*b.n+c] = r * (2*st.Uniform() - 1)
				}
			}
			if redo == 0 || last {
				bad.Add(int64(redo))
				break
			}
		}
		copy(b.x, x)
		copy(b.lp, bt.LPs())
		if grad {
			copy(b.g, bt.Grad())
		}
	})
	if err != nil {
		return err
	}
	n := bad.Load()
	if n == 0 {
		return nil
	}
	what := "the log density or its gradient"
	for _, y := range why {
		if y.found {
			if len(y.terms) > 0 {
				what = strings.Join(y.terms, ", ")
			}
			break
		}
	}
	if user {
		return fmt.Errorf("lockstep: the log density is not finite at the initial values given (not finite: %s): change the initial values", what)
	}
	return fmt.Errorf("lockstep: %d chains found no finite starting point in 100 tries of uniform(-%g, %g) on the unconstrained scale; not finite: %s. Check the priors' supports and the data of these terms, or give initial values (ppl.Init)", n, r, r, what)
}

// record adds the current state of b's chains to the Welford moments (the
// caller counts e.draws) and, for kept chains, to the posterior's draws
// at index i.
func (e *ensemble) record(w *worker, b *block, i int, draws int, stats func(c int, s *posterior.Stats)) {
	accumulate(b, draws)
	e.recordKept(w, b, i, stats)
}

// accumulate adds the current state of b's chains to their Welford
// moments, as the draws-th draw.
func accumulate(b *block, draws int) {
	inv := 1 / float64(draws)
	mean, m2 := b.mean[:len(b.x)], b.m2[:len(b.x)]
	for k, x := range b.x {
		d := x - mean[k]
		mean[k] += d * inv
		m2[k] += d * (x - mean[k])
	}
}

// recordKept adds the current state of b's kept chains to the posterior's
// draws at index i.
func (e *ensemble) recordKept(w *worker, b *block, i int, stats func(c int, s *posterior.Stats)) {
	for c := 0; c < b.n && b.first+c < len(e.kept); c++ {
		ch := &e.kept[b.first+c]
		for j := 0; j < e.dim; j++ {
			w.xc[j] = b.x[j*b.n+c]
		}
		w.dens.Constrained(w.xc, w.row)
		for j, v := range w.row {
			ch.Values[j][i] = v
		}
		ch.Stats.LP[i] = b.lp[c]
		stats(c, &ch.Stats)
	}
}

// allocKept makes room for the kept chains' draws.
func (e *ensemble) allocKept(ncols, draws int, hmc bool) {
	e.ncols = ncols
	e.kept = make([]posterior.Chain, e.cfg.Keep)
	for k := range e.kept {
		ch := &e.kept[k]
		ch.Values = make([][]float64, ncols)
		for j := range ch.Values {
			ch.Values[j] = make([]float64, draws)
		}
		s := &ch.Stats
		s.LP, s.AcceptStat, s.StepSize = make([]float64, draws), make([]float64, draws), make([]float64, draws)
		if hmc {
			s.NLeapfrog, s.Divergent, s.Energy = make([]int, draws), make([]bool, draws), make([]float64, draws)
		}
	}
	for _, w := range e.workers {
		w.row = make([]float64, ncols)
	}
}

// Moments are the moments of every draw of every chain on the
// unconstrained scale, kept by Welford's method in O(chains·dim) memory.
type Moments struct {
	Chains, Dim, Draws int
	// Mean and Var are per unconstrained coordinate over all draws of all
	// chains (Var with divisor draws·chains − 1).
	Mean, Var []float64
	// chainMean and chainM2 are per chain, chain-major.
	chainMean, chainM2 []float64
}

// ChainMean is chain c's mean of coordinate j.
func (m *Moments) ChainMean(c, j int) float64 { return m.chainMean[c*m.Dim+j] }

// ChainVar is chain c's variance of coordinate j (divisor draws − 1).
func (m *Moments) ChainVar(c, j int) float64 {
	if m.Draws < 2 {
		return math.NaN()
	}
	return m.chainM2[c*m.Dim+j] / float64(m.Draws-1)
}

// moments merges the per-chain Welford states (Chan et al.'s parallel
// formula with equal counts).
func (e *ensemble) moments() *Moments {
	d, n := e.dim, e.draws
	m := &Moments{Chains: e.cfg.Chains, Dim: d, Draws: n, Mean: make([]float64, d), Var: make([]float64, d),
		chainMean: make([]float64, e.cfg.Chains*d), chainM2: make([]float64, e.cfg.Chains*d)}
	for _, b := range e.blocks {
		for c := 0; c < b.n; c++ {
			for j := 0; j < d; j++ {
				m.chainMean[(b.first+c)*d+j] = b.mean[j*b.n+c]
				m.chainM2[(b.first+c)*d+j] = b.m2[j*b.n+c]
			}
		}
	}
	if n == 0 {
		for j := range m.Mean {
			m.Mean[j], m.Var[j] = math.NaN(), math.NaN()
		}
		return m
	}
	e.pool(n, m.Mean, m.Var)
	return m
}

// pool writes the mean and variance of each coordinate over every draw of
// every chain, n draws per chain in the per-chain Welford moments, into
// mean and variance (variance with divisor n·chains − 1). Chains are
// summed in chain order, whatever the blocks, so that a run is the same on
// any number of cores and blocks.
func (e *ensemble) pool(n int, mean, variance []float64) {
	clear(mean)
	clear(variance) // the sum of the chains' squared deviations first
	for _, b := range e.blocks {
		for j := range mean {
			for c := 0; c < b.n; c++ {
				mean[j] += b.mean[j*b.n+c]
				variance[j] += b.m2[j*b.n+c]
			}
		}
	}
	chains := float64(e.cfg.Chains)
	for j := range mean {
		mean[j] /= chains
	}
	between := make([]float64, len(mean))
	for _, b := range e.blocks {
		for j := range mean {
			for c := 0; c < b.n; c++ {
				dm := b.mean[j*b.n+c] - mean[j]
				between[j] += dm * dm
			}
		}
	}
	for j := range variance {
		variance[j] = (variance[j] + float64(n)*between[j]) / float64(n*e.cfg.Chains-1)
	}
}

// clearMoments forgets the per-chain Welford moments.
func (e *ensemble) clearMoments() {
	for _, b := range e.blocks {
		clear(b.mean)
		clear(b.m2)
		clear(b.cm)
	}
}

// accumulateCov adds the current state of b's chains to their Welford
// moments and co-moments (b.cm), as the draws-th draw; dx holds one value
// per coordinate.
func accumulateCov(b *block, draws int, dx []float64) {
	inv, n, d := 1/float64(draws), b.n, len(dx)
	for c := 0; c < n; c++ {
		for j := range dx {
			k := j*n + c
			dx[j] = b.x[k] - b.mean[k]
			b.mean[k] += dx[j] * inv
		}
		for j, dj := range dx {
			for k := 0; k < d; k++ {
				b.cm[(j*d+k)*n+c] += dj * (b.x[k*n+c] - b.mean[k*n+c])
			}
			b.m2[j*n+c] = b.cm[(j*d+j)*n+c]
		}
	}
}

// poolCov is pool with the covariance matrix (row-major) from the
// co-moments of accumulateCov.
func (e *ensemble) poolCov(n int, mean, cov []float64) {
	d := e.dim
	e.pool(n, mean, cov[:d]) // the means
	clear(cov)
	for _, b := range e.blocks {
		for jk := range cov {
			j, k := jk/d, jk%d
			for c := 0; c < b.n; c++ {
				dj, dk := b.mean[j*b.n+c]-mean[j], b.mean[k*b.n+c]-mean[k]
				cov[jk] += b.cm[jk*b.n+c] + float64(n)*dj*dk
			}
		}
	}
	for jk := range cov {
		cov[jk] /= float64(n*e.cfg.Chains - 1)
	}
}

// crossChain returns the mean and variance across chains of each
// coordinate of the current positions.
func (e *ensemble) crossChain(mean, variance []float64) {
	n := float64(e.cfg.Chains)
	for j := range mean {
		var s chunkSum
		for _, b := range e.blocks {
			for _, v := range b.x[j*b.n : (j+1)*b.n] {
				s.add(v)
			}
		}
		mean[j] = s.sum() / n
	}
	for j := range variance {
		var s chunkSum
		for _, b := range e.blocks {
			for _, v := range b.x[j*b.n : (j+1)*b.n] {
				s.add((v - mean[j]) * (v - mean[j]))
			}
		}
		variance[j] = s.sum() / math.Max(1, n-1)
	}
}

// chunkSum adds values given in chain order as runs of accel.SumChunk
// chains, each summed in order, then the runs' sums in order: the order a
// device's parallel reduction keeps too (accel.HMCIteration), so that the
// CPU and a GPU give the same bits at any number of chains. Up to
// SumChunk chains it is the plain sum in chain order.
type chunkSum struct {
	total, part float64
	n           int
}

func (a *chunkSum) add(v float64) {
	a.part += v
	if a.n++; a.n == accel.SumChunk {
		a.total += a.part
		a.part, a.n = 0, 0
	}
}

func (a *chunkSum) sum() float64 {
	if a.n == 0 {
		return a.total
	}
	return a.total + a.part
}
