package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Loop is a parallel loop that can be run many times, one call at a time.
type Loop struct {
	workers int
	body    func(w, i int)
	// n is the call's number of iterations, atomic because a helper of an
	// ended call may read it while the next call sets it (it then finds
	// the new epoch in claim and leaves).
	n atomic.Int64
	// claim holds the call's epoch (high 32 bits) and the next iteration
	// to claim (low 32); join the epoch and the number of goroutines that
	// joined (the caller included).
	claim, join atomic.Uint64
	epoch       uint32
	done        atomic.Int64 // iterations finished in this call
	finished    chan struct{}

	mu       sync.Mutex
	panicked any
}

// NewLoop returns a loop whose calls run on at most workers goroutines,
// the caller's included (0 or less: GOMAXPROCS).
func NewLoop(workers int) *Loop {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return &Loop{workers: workers, finished: make(chan struct{}, 1)}
}

// Workers is the largest number of goroutines a call runs on: worker
// indexes are below it.
func (l *Loop) Workers() int { return l.workers }

// pool is the process's helper goroutines.
var pool struct {
	once sync.Once
	jobs chan job
	n    int
}

// job asks a helper to join call epoch of loop l.
type job struct {
	l     *Loop
	epoch uint32
}

func startPool() {
	n := runtime.GOMAXPROCS(0) - 1
	pool.n = n
	if n <= 0 {
		return // pool.jobs stays nil: callers work alone
	}
	pool.jobs = make(chan job, 64*n)
	for range n {
		go helper(pool.jobs)
	}
}

func helper(jobs <-chan job) {
	for j := range jobs {
		j.l.help(j.epoch)
	}
}

// Run runs body(w, i) for every i in [0, n) and returns when all have
// returned: w is the index (below Workers) of the goroutine running it,
// the caller's 0. It returns the value of the first panic of body, nil
// when none panicked.
func (l *Loop) Run(n int, body func(w, i int)) any {
	if n <= 0 {
		return nil
	}
	pool.once.Do(startPool)
	l.body, l.panicked = body, nil
	l.n.Store(int64(n))
	l.epoch++
	e := uint64(l.epoch) << 32
	l.done.Store(0)
	l.join.Store(e | 1)
	l.claim.Store(e) // publishes the call: helpers may claim from here on
	if l.workers > 1 && n > 1 {
		sent := false
		for range min(l.workers-1, pool.n, n-1) {
			select {
			case pool.jobs <- job{l, l.epoch}:
				sent = true
			default: // the queue is full: the helpers are busy anyway
			}
		}
		if sent {
			// A woken helper waits in this goroutine's processor until it
			// yields (Go's scheduler runs a readied goroutine next on the
			// same P, and another P steals it only after a delay): yield
			// once, so that the helper starts now and this goroutine goes
			// on wherever a processor is free.
			runtime.Gosched()
		}
	}
	if l.work(l.epoch, 0) {
		// Exactly one goroutine brings done to n; when it is a helper, it
		// says so on finished.
		<-l.finished
	}
	p := l.panicked
	l.body, l.panicked = nil, nil
	return p
}

// help joins call epoch as the next worker, if the call still runs and
// has room for one.
func (l *Loop) help(epoch uint32) {
	for {
		old := l.join.Load()
		if uint32(old>>32) != epoch || int(uint32(old)) >= l.workers {
			return
		}
		if l.join.CompareAndSwap(old, old+1) {
			if l.work(epoch, int(uint32(old))) {
				return
			}
			l.finished <- struct{}{}
			return
		}
	}
}

// work claims and runs iterations of call epoch as worker w until none is
// left. It reports whether another goroutine finished the call's last
// iteration (false: this one did).
func (l *Loop) work(epoch uint32, w int) bool {
	e := uint64(epoch) << 32
	ran := int64(0)
	for {
		old := l.claim.Load()
		if old&^(1<<32-1) != e {
			break // a later call: nothing here is ours
		}
		i := int(uint32(old))
		if int64(i) >= l.n.Load() {
			break
		}
		if !l.claim.CompareAndSwap(old, old+1) {
			continue
		}
		l.run(w, i)
		ran++
	}
	if ran == 0 {
		return true
	}
	return l.done.Add(ran) != l.n.Load()
}

// run runs iteration i as worker w, recovering a panic.
func (l *Loop) run(w, i int) {
	defer func() {
		if p := recover(); p != nil {
			l.mu.Lock()
			if l.panicked == nil {
				l.panicked = p
			}
			l.mu.Unlock()
		}
	}()
	l.body(w, i)
}
