package interp

import (
	"context"
	"sync"

	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/display/progress"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/infer"
)

// The interpreter connects ppl's runs to the running cell: the cell's
// context (an interrupt stops the chains) and a live progress table in
// its output. ppl knows nothing of notebooks; these hooks are the seam.
func init() { ppl.SetHooks(cellHooks{}) }

type cellHooks struct{}

func (cellHooks) Context() context.Context { return display.Context() }

// Progress shows a live table when the cell's output reaches a notebook.
func (cellHooks) Progress(model string) ppl.ProgressSink {
	if !display.Active() {
		return nil
	}
	return &liveTable{h: display.NewHandle(), t: progress.New(model)}
}

// liveTable redraws the table in place (one display id) at every report.
type liveTable struct {
	mu sync.Mutex
	h  *display.Handle
	t  *progress.Table
}

func (l *liveTable) Update(ps []infer.ChainProgress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.t.Update(ps)
	l.h.Update(l.t)
}

func (l *liveTable) Finish(interrupted bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.t.Finish(interrupted)
	l.h.Update(l.t)
}
