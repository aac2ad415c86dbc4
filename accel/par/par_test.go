package par_test

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gobayes/gobayes/accel/par"
)

// TestRunEveryIterationOnce runs loops of many sizes and worker counts,
// reused call after call: every iteration runs exactly once per call, and
// no two goroutines hold the same worker index at once.
func TestRunEveryIterationOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 8} {
		l := par.NewLoop(workers)
		for _, n := range []int{1, 2, 5, 64, 1000} {
			for call := range 20 {
				hits := make([]atomic.Int32, n)
				busy := make([]atomic.Int32, workers)
				if p := l.Run(n, func(w, i int) {
					if w < 0 || w >= workers {
						panic(fmt.Sprintf("worker index %d outside 0..%d", w, workers-1))
					}
					if busy[w].Add(1) != 1 {
						panic(fmt.Sprintf("worker index %d held by two goroutines", w))
					}
					hits[i].Add(1)
					runtime.Gosched()
					busy[w].Add(-1)
				}); p != nil {
					t.Fatalf("workers=%d n=%d call %d: %v", workers, n, call, p)
				}
				for i := range hits {
					if h := hits[i].Load(); h != 1 {
						t.Fatalf("workers=%d n=%d call %d: iteration %d ran %d times", workers, n, call, i, h)
					}
				}
			}
		}
	}
}

// TestRunReturnsPanic checks that a panic is returned, not raised, that
// the other iterations still run, and that the loop works afterwards.
func TestRunReturnsPanic(t *testing.T) {
	l := par.NewLoop(4)
	var ran atomic.Int32
	p := l.Run(100, func(w, i int) {
		ran.Add(1)
		if i == 37 {
			panic("iteration 37")
		}
	})
	if p != "iteration 37" {
		t.Fatalf("Run returned %v, want the panic's value", p)
	}
	if ran.Load() != 100 {
		t.Fatalf("%d iterations ran, want 100", ran.Load())
	}
	if p := l.Run(10, func(w, i int) {}); p != nil {
		t.Fatalf("the next call returned %v", p)
	}
}

// TestLoopsShareThePool runs loops from many goroutines at once, and
// loops nested in a loop's body: none deadlocks (the caller always works)
// and each call's sum is right.
func TestLoopsShareThePool(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outer := par.NewLoop(0)
			inner := make([]*par.Loop, outer.Workers())
			for w := range inner {
				inner[w] = par.NewLoop(0)
			}
			for range 50 {
				var sum atomic.Int64
				if p := outer.Run(16, func(w, i int) {
					inner[w].Run(10, func(_, j int) { sum.Add(int64(i*10 + j)) })
				}); p != nil {
					t.Errorf("goroutine %d: %v", g, p)
					return
				}
				if want := int64(159 * 160 / 2); sum.Load() != want {
					t.Errorf("goroutine %d: sum %d, want %d", g, sum.Load(), want)
					return
				}
			}
		}()
	}
	wg.Wait()
}
