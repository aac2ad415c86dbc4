package ppl

import (
	"context"
	"fmt"
	"io"
	"os"
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
// ppl's notices in the running cell's output (a warning at the start of
// a run). Without it notices go to standard error, which the notebook's
// interpreter process passes to the cell.
type Hooks interface {
	// Context is the context of the code running now: cancelled when the
	// user interrupts it.
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
