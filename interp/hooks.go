package interp

import (
	"context"
	"sync"
	"time"

	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/display/progress"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/diag"
	"github.com/gobayes/gobayes/ppl/infer"
)

// The interpreter connects ppl's runs to the running cell: the cell's
// context (an interrupt stops the chains) and a live progress table in
// its output. ppl knows nothing of notebooks; these hooks are the seam.
// Each Session has its own (a ppl.Session made with cellHooks, bound to
// the cells by pplSymbols): nothing is installed for the process.
type cellHooks struct{ s *Session }

func (h cellHooks) Context() context.Context { return h.s.cellContext() }

// Notice shows ppl's notices (a redefinition and what changed) in the
// running cell's output, in order with what the cell prints.
func (h cellHooks) Notice(msg string) { display.To(h.s.out).Notice(msg) }

// Progress shows a live table when the cell's output reaches a notebook.
func (h cellHooks) Progress(model string) ppl.ProgressSink {
	o := display.To(h.s.out)
	if !h.s.out.connected() {
		return nil
	}
	h.s.live.add()
	return &liveTable{h: o.NewHandle(), t: newProgressTable(model), runs: h.s.live}
}

// newProgressTable is a run's live table, its step sizes written as the
// summary table writes a column (ppl/diag): one form for the column.
func newProgressTable(model string) *progress.Table {
	return progress.New(model, func(column []float64) func(float64) string {
		return diag.FormatFor(column, 3, 2, 6).Format
	})
}

// progressRows is ppl's progress report as the table's rows.
func progressRows(ps []infer.ChainProgress) []progress.Row {
	rows := make([]progress.Row, len(ps))
	for i, p := range ps {
		rows[i] = progress.Row{Chain: p.Chain, Iteration: p.Iteration, Total: p.Total, Warmup: p.Warmup,
			Divergences: p.Divergences, StepSize: p.StepSize, Done: p.Done}
	}
	return rows
}

// A runCounter counts a session's live tables of runs not finished yet.
// An interrupted cell returns before its sampler has stopped (yaegi
// returns at once on cancel); the session waits for them (waitLive) so
// that the tables' last word, "interrupted", reaches the notebook while
// the cell's output is still connected, instead of the table staying
// frozen on "sampling".
type runCounter struct {
	mu      sync.Mutex
	n       int
	started int           // tables ever made, to tell whether a cell sampled
	zero    chan struct{} // closed when n drops to 0
}

func (c *runCounter) add() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == 0 {
		c.zero = make(chan struct{})
	}
	c.n++
	c.started++
}

// count is how many tables were ever made.
func (c *runCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.started
}

func (c *runCounter) done() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n > 0 {
		if c.n--; c.n == 0 {
			close(c.zero)
		}
	}
}

// waitLive waits until every live table has finished, or timeout.
func (c *runCounter) waitLive(timeout time.Duration) {
	c.mu.Lock()
	n, zero := c.n, c.zero
	c.mu.Unlock()
	if n == 0 {
		return
	}
	select {
	case <-zero:
	case <-time.After(timeout):
	}
}

// liveTable redraws the table in place (one display id) at every report.
type liveTable struct {
	mu   sync.Mutex
	h    *display.Handle
	t    *progress.Table
	runs *runCounter // the session's
}

func (l *liveTable) Update(ps []infer.ChainProgress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.t.Update(progressRows(ps))
	l.h.Update(l.t)
}

func (l *liveTable) Finish(interrupted bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.t.Finish(interrupted)
	l.h.Update(l.t)
	l.runs.done()
}
