package ppl

import (
	"context"
	"fmt"
	"io"
	"os"
	"reflect"
	"sync/atomic"

	"github.com/gobayes/gobayes/ppl/infer"
)

// Hooks connect a run (Sample, ADVI, …) to the place that started it. The
// notebook's interpreter installs its own (package interp): the running
// cell's context, so that an interrupt stops the chains, and a live
// progress table in the cell's output. Without hooks a run watches
// context.Background() and shows no progress. ppl itself knows nothing
// of notebooks, displays or kernels: this interface is the whole seam.
//
// Hooks may also have a method Notice(msg string), which shows one of
// ppl's notices in the running cell's output (a cell run again that
// changed a definition: "tau: HalfCauchy(5) → HalfNormal(5)"; a
// warning at the start of a run). Without it notices go to standard
// error, which the notebook's interpreter process passes to the cell.
type Hooks interface {
	// Context is the context of the code running now: cancelled when the
	// user interrupts it. It also tells one execution of a cell from the
	// next: the interpreter makes a new context for each, and a name
	// defined twice with the same context is a mistake (defined twice in
	// one cell), where a later context is the cell run again.
	Context() context.Context
	// Progress returns where the live progress of a run of the named
	// model goes, or nil when nothing shows it.
	Progress(model string) ProgressSink
}

// A ProgressSink shows a run's progress as it goes.
type ProgressSink interface {
	// Update takes every chain's progress, a few times a second.
	Update(ps []infer.ChainProgress)
	// Finish says the run is over, interrupted or not; it is called once,
	// after the last Update.
	Finish(interrupted bool)
}

var hooks atomic.Pointer[Hooks]

// SetHooks installs h (nil removes the hooks) and returns the previous
// ones.
func SetHooks(h Hooks) (previous Hooks) {
	var next *Hooks
	if h != nil {
		next = &h
	}
	if old := hooks.Swap(next); old != nil {
		return *old
	}
	return nil
}

func currentHooks() Hooks {
	if h := hooks.Load(); h != nil {
		return *h
	}
	return nil
}

// runContext is the context a run watches by default.
func runContext() context.Context {
	if h := currentHooks(); h != nil {
		if ctx := h.Context(); ctx != nil {
			return ctx
		}
	}
	return context.Background()
}

// liveProgress is where a run's live progress goes, or nil.
func liveProgress(model string) ProgressSink {
	if h := currentHooks(); h != nil {
		return h.Progress(model)
	}
	return nil
}

// thisRun identifies the code running now: one execution of a notebook
// cell, told by the hooks' Context (the kernel makes a new one for every
// execution). Outside a notebook (no hooks) it is nil: the whole program
// is one run, so a name defined twice is always a mistake.
func thisRun() any {
	h := currentHooks()
	if h == nil {
		return nil
	}
	ctx := h.Context()
	if ctx == nil || !reflect.TypeOf(ctx).Comparable() {
		return nil
	}
	return ctx
}

// inCells reports whether hooks are installed: runs of cells.
func inCells() bool { return currentHooks() != nil }

// noticeOutput is where notices go without a Notice hook.
var noticeOutput io.Writer = os.Stderr

// notice shows msg in the running cell's output (see Hooks), or on
// standard error.
func notice(msg string) {
	if h := currentHooks(); h != nil {
		if n, ok := h.(interface{ Notice(string) }); ok {
			n.Notice(msg)
			return
		}
	}
	fmt.Fprintln(noticeOutput, msg)
}
