package ppl

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/gobayes/gobayes/accel/filerows"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/vi"
)

// Minibatch makes ADVI stochastic-gradient ADVI over blocks of rows, for
// data too large to evaluate whole at every step: each gradient (and each
// draw of an ELBO estimate) reads one block of the observed rows, chosen
// at random, and counts its log-likelihood B times, B the number of
// blocks (N over the block's rows, up to one row): an unbiased estimate
// of the log density, the prior and what does not split by rows counted
// whole. The blocks are those of the model's sharded log density
// (ShardPlan: about a megabyte of data each); a model whose rows do not
// split is refused with the plan's reason. Where the data come from a
// file (m.Data over a package table column), a block's rows are read from
// the file each time it is drawn, so the fit holds one block at a time.
//
// The answer is noisier than full-data ADVI's: the ELBO estimates, and so
// the convergence test, see the minibatches' noise as well as the draws'.
// The means agree with full-data ADVI's to a fraction of a posterior
// standard deviation on the tested regressions (minibatch_test.go).
func Minibatch() SampleOption { return func(s *sampleSettings) { s.batch = true } }

// minibatches sets o's Batch from the model's blocks of rows, and its
// Progress; the returned function ends the progress display.
func (m *Model) minibatches(o *vi.Options, s *sampleSettings) (finish func()) {
	c, err := m.compileOnRanks(2)
	orPanic(err)
	if c.p.ShardBlocks == nil {
		failf(nil, m.g.Name, "Minibatch: the observed rows do not split into blocks (%s); fit the whole data with ADVI()", c.ShardPlan())
	}
	blocks, err := c.detachedBlocks()
	orPanic(err)
	main := ir.NewFrame(c.p.ShardMain)
	own := c.NewDensity()
	frames := make([]*ir.Frame, len(blocks)) // in memory: made once
	scale := float64(len(blocks))
	d := &batchDensity{Density: own, main: main, scale: scale, tmp: make([]float64, c.Dim())}
	o.Batch = func(r *rand.Rand) infer.Density {
		j := r.IntN(len(blocks))
		switch {
		case frames[j] != nil:
			d.block = frames[j]
		case blocks[j] != c.p.ShardBlocks[j]:
			// Read from the file now, dropped after this estimate.
			p, err := filerows.Attach(blocks[j])
			orPanic(err)
			d.block = ir.NewFrame(p)
		default:
			frames[j] = ir.NewFrame(blocks[j])
			d.block = frames[j]
		}
		return d
	}
	update := s.progress
	var sink ProgressSink
	if update == nil && (s.live == nil || *s.live) {
		if sink = m.session().liveProgress(m.g.Name); sink != nil {
			update = sink.Update
		}
	}
	var at infer.ChainProgress
	if update != nil {
		var last time.Time
		o.Progress = func(done, total int) {
			at = infer.ChainProgress{Iteration: done, Total: total}
			if now := time.Now(); now.Sub(last) > 200*time.Millisecond {
				last = now
				update([]infer.ChainProgress{at})
			}
		}
	}
	return func() {
		if update != nil && at.Iteration > 0 {
			at.Done = true // converged, ran out of iterations or stopped
			update([]infer.ChainProgress{at})
		}
		if sink != nil {
			sink.Finish(s.ctx.Err() != nil)
		}
	}
}

// batchDensity is the log density estimated from one block of rows: the
// main program (priors, Jacobians, what is not split) plus the block's
// log-likelihood times scale. Constrained and NonFinite are the model's.
type batchDensity struct {
	infer.Density
	main, block *ir.Frame
	scale       float64
	tmp         []float64
}

func (d *batchDensity) LogDensityGrad(x, grad []float64) float64 {
	if grad == nil {
		lp := d.main.Forward(x) + d.scale*d.block.Forward(x)
		if math.IsNaN(lp) {
			return math.Inf(-1)
		}
		return lp
	}
	lp := d.main.Gradient(x, grad)
	lp += d.scale * d.block.Gradient(x, d.tmp)
	for i, g := range d.tmp {
		grad[i] += d.scale * g
	}
	if math.IsNaN(lp) {
		return math.Inf(-1)
	}
	return lp
}
