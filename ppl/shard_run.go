package ppl

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gobayes/gobayes/accel/ir"
)

// Parallel evaluation of the shards. Every Density of a sharded model
// owns a frame per block of rows (each shard is a few blocks); a call
// hands the blocks to a pool of helper goroutines shared by the whole
// process (GOMAXPROCS-1 of them, started on first use; a call wakes at
// most Shards-1 of them) and works through them itself too. Blocks are
// claimed one at a time from an atomic counter, so the caller never waits
// for a helper that has not started and waits for a busy one at most one
// block: when the helpers are busy (NUTS runs one chain per core, each
// with its own Density) the caller computes the blocks alone, and
// sharding costs a few atomic operations rather than oversubscribing the
// cores. Nothing is allocated and no goroutine is started per call; the
// values and gradients are summed in block order, so the result does not
// depend on which goroutine ran which block.

// shardRun is one Density's block frames and the state of its current
// call.
type shardRun struct {
	workers int // shards: how many goroutines may share a call
	main    *ir.Frame
	frames  []*ir.Frame
	lps     []float64
	grads   [][]float64 // one gradient per block

	// The current call, written by the caller before next is reset.
	x        []float64
	withGrad bool

	next     atomic.Int32 // next block to claim
	done     atomic.Int32 // blocks finished
	finished chan struct{}

	// panicked holds the first panic of a shard in the current call, to
	// be raised again in the caller's goroutine (a helper must not die).
	mu       sync.Mutex
	panicked any
}

func newShardRun(c *Compiled) *shardRun {
	k := len(c.shardProgs)
	r := &shardRun{workers: c.shardPlan.Shards, main: ir.NewFrame(c.shardMain), frames: make([]*ir.Frame, k), lps: make([]float64, k),
		grads: make([][]float64, k), finished: make(chan struct{}, 1)}
	for i, p := range c.shardProgs {
		r.frames[i] = ir.NewFrame(p)
		r.grads[i] = make([]float64, c.dim)
	}
	r.next.Store(int32(k)) // nothing to claim until a call
	return r
}

// shardHelpers is the process's pool of helper goroutines.
var shardHelpers struct {
	once sync.Once
	jobs chan *shardRun
	n    int
}

func startShardHelpers() {
	n := runtime.GOMAXPROCS(0) - 1
	shardHelpers.n = n
	if n <= 0 {
		return // shardHelpers.jobs stays nil: callers work alone
	}
	shardHelpers.jobs = make(chan *shardRun, 64*n)
	for range n {
		go shardHelper(shardHelpers.jobs)
	}
}

func shardHelper(jobs <-chan *shardRun) {
	for r := range jobs {
		// A message may arrive after its call ended; it then claims
		// nothing, or helps the Density's next call.
		if n := r.work(); n > 0 && int(r.done.Add(int32(n))) == len(r.frames) {
			r.finished <- struct{}{}
		}
	}
}

// work claims and runs shards until none is left, returning how many it
// ran.
func (r *shardRun) work() int {
	n := 0
	for {
		i := int(r.next.Add(1)) - 1
		if i >= len(r.frames) {
			return n
		}
		r.run(i)
		n++
	}
}

// runMain evaluates the main program, catching a panic: it is raised
// again once the helpers are done with this call's frames.
func (r *shardRun) runMain(x, grad []float64) float64 {
	defer r.catch()
	if grad != nil {
		return r.main.Gradient(x, grad)
	}
	return r.main.Forward(x)
}

func (r *shardRun) catch() {
	if p := recover(); p != nil {
		r.mu.Lock()
		if r.panicked == nil {
			r.panicked = p
		}
		r.mu.Unlock()
	}
}

// run evaluates shard i, catching a panic for the caller.
func (r *shardRun) run(i int) {
	defer r.catch()
	if r.withGrad {
		r.lps[i] = r.frames[i].Gradient(r.x, r.grads[i])
	} else {
		r.lps[i] = r.frames[i].Forward(r.x)
	}
}

// eval returns the log density at x, summed over the main program and the
// shards, and with grad non-nil writes the summed gradient into it.
func (r *shardRun) eval(x, grad []float64) float64 {
	shardHelpers.once.Do(startShardHelpers)
	k := len(r.frames)
	r.x, r.withGrad = x, grad != nil
	r.done.Store(0)
	r.next.Store(0) // publishes x to the helpers
	for range min(r.workers-1, shardHelpers.n) {
		select {
		case shardHelpers.jobs <- r:
		default: // the queue is full: the helpers are busy anyway
		}
	}
	lp := r.runMain(x, grad)
	// Exactly one Add brings done to k; when it is a helper's, that
	// helper signals finished.
	if n := r.work(); n == 0 || int(r.done.Add(int32(n))) != k {
		<-r.finished
	}
	r.x = nil
	if p := r.panicked; p != nil {
		r.panicked = nil
		panic(p)
	}
	for i := range k {
		lp += r.lps[i]
		if grad != nil {
			for j, g := range r.grads[i] {
				grad[j] += g
			}
		}
	}
	return lp
}
