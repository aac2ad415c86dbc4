package shard

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gobayes/gobayes/accel/ir"
)

// Evaluator is one Density's block frames and the state of its current
// call: not safe for concurrent use (each goroutine has its own), never
// allocating.
type Evaluator struct {
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

// New is an evaluator of main plus blocks (programs over one position of
// dim values, their targets summed) whose calls share the blocks among
// at most workers goroutines, the caller's included.
func New(main *ir.Program, blocks []*ir.Program, workers, dim int) *Evaluator {
	k := len(blocks)
	r := &Evaluator{workers: workers, main: ir.NewFrame(main), frames: make([]*ir.Frame, k), lps: make([]float64, k),
		grads: make([][]float64, k), finished: make(chan struct{}, 1)}
	for i, p := range blocks {
		r.frames[i] = ir.NewFrame(p)
		r.grads[i] = make([]float64, dim)
	}
	r.next.Store(int32(k)) // nothing to claim until a call
	return r
}

// helpers is the process's pool of helper goroutines.
var helpers struct {
	once sync.Once
	jobs chan *Evaluator
	n    int
}

func startHelpers() {
	n := runtime.GOMAXPROCS(0) - 1
	helpers.n = n
	if n <= 0 {
		return // helpers.jobs stays nil: callers work alone
	}
	helpers.jobs = make(chan *Evaluator, 64*n)
	for range n {
		go helper(helpers.jobs)
	}
}

func helper(jobs <-chan *Evaluator) {
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
func (r *Evaluator) work() int {
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
func (r *Evaluator) runMain(x, grad []float64) float64 {
	defer r.catch()
	if grad != nil {
		return r.main.Gradient(x, grad)
	}
	return r.main.Forward(x)
}

func (r *Evaluator) catch() {
	if p := recover(); p != nil {
		r.mu.Lock()
		if r.panicked == nil {
			r.panicked = p
		}
		r.mu.Unlock()
	}
}

// run evaluates shard i, catching a panic for the caller.
func (r *Evaluator) run(i int) {
	defer r.catch()
	if r.withGrad {
		r.lps[i] = r.frames[i].Gradient(r.x, r.grads[i])
	} else {
		r.lps[i] = r.frames[i].Forward(r.x)
	}
}

// Eval returns the log density at x, summed over the main program and the
// blocks, and with grad non-nil writes the summed gradient into it. A
// panic of a program (a backend failure) is raised again in the caller's
// goroutine once every helper is done with this call.
func (r *Evaluator) Eval(x, grad []float64) float64 {
	helpers.once.Do(startHelpers)
	k := len(r.frames)
	r.x, r.withGrad = x, grad != nil
	r.done.Store(0)
	r.next.Store(0) // publishes x to the helpers
	for range min(r.workers-1, helpers.n) {
		select {
		case helpers.jobs <- r:
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
