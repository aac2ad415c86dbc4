// Package par is the one parallel loop of gobayes on the CPU: a Loop runs
// the iterations 0..n-1 of a body on the calling goroutine and on helpers
// of a process-wide pool (GOMAXPROCS-1 goroutines, started on first use),
// each iteration once, and returns when all have run.
//
//	l := par.NewLoop(workers)
//	if p := l.Run(n, body); p != nil { ... } // body(w, i): w < workers names the goroutine's state
//
// Three loops were written by hand before (accel/cpu's per-program
// workers, the lockstep samplers' blocks, the sharded log density's
// helpers); each now runs on a Loop:
//
//   - The caller always works too: a call never waits for a helper to
//     start, so a Loop nested in another's body, or one whose helpers are
//     all busy, still finishes (the caller runs every iteration itself).
//   - Helpers are woken by a message on a buffered queue; a message that
//     arrives after its call ended, or during the Loop's next call, finds
//     a newer epoch and leaves without touching anything. Iterations are
//     claimed with a compare-and-swap on a word holding the epoch and the
//     next iteration, so only helpers of the current call run them.
//   - Worker indexes: the caller is 0 and each helper joining the call
//     gets the next one, at most workers-1 of them, so per-goroutine state
//     (a frame, a scratch buffer) indexed by w is never shared.
//   - A panic in the body is recovered on whichever goroutine ran it; the
//     call still runs every other iteration, and Run returns the first
//     panic's value for the caller to raise or report (a helper never
//     dies, the process never stops).
//
// A Loop runs one call at a time (it is not safe for concurrent Runs);
// many Loops run at once, sharing the pool. Nothing allocates per call.
package par
