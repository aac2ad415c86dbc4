package ppl

import (
	"context"
	"fmt"
	"io"
	"os"
	"reflect"
	"sync/atomic"

	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// Hooks connect a run (Sample, ADVI, …) to the place that started it. The
// notebook's interpreter gives its own to its Session (package interp): the running
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

// A Session is where models are defined and run: the Hooks that connect
// its runs to what started them, and its last run (LastRun). The
// notebook's interpreter (package interp) makes one per kernel session
// and binds the cells' ppl.NewModel, ppl.GLM and ppl.LastRun to it, so
// two sessions in one process never see each other's runs or hooks. A
// model belongs to the session that made it (Session.Adopt); one made
// outside any (a Go program's NewModel) belongs to the program's own
// session, which has no hooks.
type Session struct {
	hooks Hooks
	last  atomic.Pointer[posterior.Posterior]
}

// NewSession returns a session whose runs report to h (nil: none; runs
// then watch context.Background() and show no progress).
func NewSession(h Hooks) *Session { return &Session{hooks: h} }

// LastRun is the posterior of the latest Sample of a model of s, nil
// before any.
func (s *Session) LastRun() *posterior.Posterior { return s.last.Load() }

// Adopt makes m a model of s unless it already belongs to a session, and
// returns m: what the notebook's bindings of the model constructors do.
func (s *Session) Adopt(m *Model) *Model {
	if m != nil && m.sess == nil {
		m.sess = s
	}
	return m
}

// program is the session of the models made outside any: a Go program's.
// It has no hooks; only its last run changes (see LastRun).
var program = &Session{}

// session is the session m belongs to.
func (m *Model) session() *Session {
	if m.sess != nil {
		return m.sess
	}
	return program
}

// runContext is the context a run watches by default.
func (s *Session) runContext() context.Context {
	if s.hooks != nil {
		if ctx := s.hooks.Context(); ctx != nil {
			return ctx
		}
	}
	return context.Background()
}

// liveProgress is where a run's live progress goes, or nil.
func (s *Session) liveProgress(model string) ProgressSink {
	if s.hooks != nil {
		return s.hooks.Progress(model)
	}
	return nil
}

// thisRun identifies the code running now: one execution of a notebook
// cell, told by the hooks' Context (the kernel makes a new one for every
// execution). Without hooks it is nil: the whole program is one run, so a
// name defined twice is always a mistake.
func (s *Session) thisRun() any {
	if s.hooks == nil {
		return nil
	}
	ctx := s.hooks.Context()
	if ctx == nil || !reflect.TypeOf(ctx).Comparable() {
		return nil
	}
	return ctx
}

// inCells reports whether s has hooks: runs of cells.
func (s *Session) inCells() bool { return s.hooks != nil }

// noticeOutput is where notices go without a Notice hook.
var noticeOutput io.Writer = os.Stderr

// notice shows msg in the running cell's output (see Hooks), or on
// standard error.
func (s *Session) notice(msg string) {
	if n, ok := s.hooks.(interface{ Notice(string) }); ok {
		n.Notice(msg)
		return
	}
	fmt.Fprintln(noticeOutput, msg)
}
