package cpu

import (
	"fmt"
	"math"
	"runtime"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/fuse"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/par"
	"github.com/gobayes/gobayes/accel/vec"
)

var (
	_ accel.Backend      = (*Backend)(nil)
	_ accel.Compiled     = (*Compiled)(nil)
	_ accel.Batcher      = (*Compiled)(nil)
	_ accel.DensityBatch = (*vec.Batch)(nil)
)

func init() {
	accel.Register("cpu", func() (accel.Backend, error) { return New(0), nil })
}

// Backend evaluates programs on Workers goroutines.
type Backend struct {
	Workers int
}

// New returns a backend with the given number of workers (0 or less:
// GOMAXPROCS at compile time).
func New(workers int) *Backend { return &Backend{Workers: workers} }

// Name is "cpu".
func (b *Backend) Name() string { return "cpu" }

// Compile prepares p with a frame per worker.
func (b *Backend) Compile(p *ir.Program) (accel.Compiled, error) {
	if p == nil {
		return nil, fmt.Errorf("cpu: Compile of a nil program")
	}
	if p.NeedsPlanner() {
		// Planned where it was built, then sent here (accel/remote's
		// worker): this backend runs it with accel/fuse's kernels.
		p = p.WithPlanner(fuse.Plan)
	}
	n := b.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	own := ir.NewFrame(p)
	e := &engine{p: p, own: own, loop: par.NewLoop(n), minBlock: max(1, minBlockSlots/max(p.Size, 1))}
	// The caller works too, on its own frame (worker 0); New(1), what
	// one-chain samplers use, runs every batch there.
	e.frames = append(e.frames, own)
	for range n - 1 {
		e.frames = append(e.frames, ir.NewFrame(p))
	}
	e.body = e.block
	return &Compiled{engine: e, own: own, dim: p.Dim}, nil
}

// blocksPerWorker splits a batch finer than one block per worker so that
// uneven blocks (chains that stop early, slow regions) balance out.
const blocksPerWorker = 4

// minBlockSlots is the least work worth handing to a worker, in frame
// slots evaluated (Program.Size per position): below it the hand-over
// costs more than it saves, and a small batch of a small model runs on
// the caller's goroutine.
const minBlockSlots = 1 << 14

type evalCall struct{ xs, lps, grads []float64 }

// Compiled is a program on the CPU backend.
type Compiled struct {
	*engine
	// own and dim are the engine's, here for the one-position path.
	own *ir.Frame
	dim int
}

// engine is the program, its frames (the caller's first) and the
// parallel loop over a batch's blocks (accel/par).
type engine struct {
	p      *ir.Program
	own    *ir.Frame // the caller's frame, worker 0's
	frames []*ir.Frame
	loop   *par.Loop
	body   func(w, i int)
	// The current call: b positions in nb blocks, one of eval and traj.
	b, nb int
	eval  *evalCall
	traj  *accel.Trajectories
	call  evalCall
	// minBlock is the fewest positions per block (see minBlockSlots).
	minBlock int
}

// Dim is the position length.
func (c *Compiled) Dim() int { return c.p.Dim }

// NewBatch is a struct-of-arrays batch of b positions: accel/vec's
// lockstep kernels, the CPU's implementation of accel.Batch (an
// accel.DensityBatch too). Its evaluations run on the caller's goroutine;
// the lockstep samplers run one per block on every core.
func (c *Compiled) NewBatch(b int) accel.Batch { return vec.New(c.p, b) }

// Close releases nothing: the frames are garbage-collected with c, and the
// helpers are the process's (accel/par). The Compiled must not be used
// afterwards.
func (c *Compiled) Close() error { return nil }

// block runs block i of the current call as worker w.
func (c *engine) block(w, i int) {
	lo, hi := i*c.b/c.nb, (i+1)*c.b/c.nb
	if c.eval != nil {
		c.evalBlock(c.frames[w], c.eval, lo, hi)
	} else {
		c.trajBlock(c.frames[w], c.traj, lo, hi)
	}
}

// split runs blocks of [0, b) on the workers and waits; batches of one
// block run on the caller's goroutine. A panic of the program is raised
// again in the caller's goroutine once every block has run.
func (c *engine) split(b int, eval *evalCall, traj *accel.Trajectories) {
	nb := min((b+c.minBlock-1)/c.minBlock, blocksPerWorker*len(c.frames))
	if nb <= 1 || len(c.frames) <= 1 {
		if eval != nil {
			c.evalBlock(c.own, eval, 0, b)
		} else {
			c.trajBlock(c.own, traj, 0, b)
		}
		return
	}
	c.b, c.nb, c.eval, c.traj = b, nb, eval, traj
	p := c.loop.Run(nb, c.body)
	c.eval, c.traj = nil, nil
	if p != nil {
		panic(p)
	}
}

// LogDensityGrad evaluates a batch (see accel.Compiled). One position
// goes straight to the caller's frame. (It does not inline, cost 229 of
// 80: callers on the CPU that evaluate one position at a time, ppl's
// Density for NUTS, HMC, MAP and ADVI, call Gradient, which does.)
func (c *Compiled) LogDensityGrad(xs, lps, grads []float64) error {
	if len(lps) == 1 && grads != nil && len(xs) == c.dim && len(grads) == len(xs) {
		lps[0] = accel.Finite(c.own.Gradient(xs, grads))
		return nil
	}
	return c.batch(xs, lps, grads)
}

// Gradient is LogDensityGrad of one position (x and grad of length Dim)
// returning its log density as the frame gives it (NaN or +Inf included:
// the caller maps them to -Inf, accel.Finite): what the one-chain samplers
// ask for at every step, on the caller's frame. It is small enough to
// inline, so nothing stands between the sampler and the frame.
func (c *Compiled) Gradient(x, grad []float64) float64 {
	return c.own.Gradient(x, grad)
}

func (c *Compiled) batch(xs, lps, grads []float64) error {
	if len(lps) == 1 && grads == nil && len(xs) == c.p.Dim {
		lps[0] = accel.Finite(c.own.Forward(xs))
		return nil
	}
	if err := accel.CheckBatch(c.p.Dim, xs, lps, grads); err != nil {
		return err
	}
	if len(lps) == 0 {
		return nil
	}
	c.call = evalCall{xs, lps, grads}
	c.split(len(lps), &c.call, nil)
	c.call = evalCall{}
	return nil
}

func (c *engine) evalBlock(f *ir.Frame, e *evalCall, lo, hi int) {
	d := c.p.Dim
	for i := lo; i < hi; i++ {
		x := e.xs[i*d : (i+1)*d]
		if e.grads == nil {
			e.lps[i] = accel.Finite(f.Forward(x))
			continue
		}
		e.lps[i] = accel.Finite(f.Gradient(x, e.grads[i*d:(i+1)*d]))
	}
}

// Leapfrog runs a batch of trajectories (see accel.Trajectories).
func (c *Compiled) Leapfrog(t *accel.Trajectories) error {
	if err := t.Check(c.p.Dim); err != nil {
		return err
	}
	if len(t.LogDensity) == 0 {
		return nil
	}
	c.split(len(t.LogDensity), nil, t)
	return nil
}

func (c *engine) trajBlock(f *ir.Frame, t *accel.Trajectories, lo, hi int) {
	d := c.p.Dim
	shared := len(t.InvMetric) == d
	for b := lo; b < hi; b++ {
		q, p, g := t.Q[b*d:(b+1)*d], t.P[b*d:(b+1)*d], t.Grad[b*d:(b+1)*d]
		m := t.InvMetric
		if !shared {
			m = m[b*d : (b+1)*d]
		}
		t.Steps[b] = Trajectory(f, q, p, g, &t.LogDensity[b], t.StepSize[b], m, t.N)
	}
}

// Trajectory runs n leapfrog steps of size eps from (q, p) with gradient g
// and log density *lp current at q, in place, on frame f; it returns the
// steps completed (fewer than n when the log density becomes non-finite).
// It is the reference loop of accel.Trajectories.
func Trajectory(f *ir.Frame, q, p, g []float64, lp *float64, eps float64, invMetric []float64, n int) int {
	h := eps / 2
	for s := range n {
		for i := range p {
			p[i] += h * g[i]
		}
		for i := range q {
			q[i] += eps * invMetric[i] * p[i]
		}
		*lp = accel.Finite(f.Gradient(q, g))
		if math.IsInf(*lp, -1) {
			return s + 1
		}
		for i := range p {
			p[i] += h * g[i]
		}
	}
	return n
}
