// Package progress is the live progress table of a sampling run in a
// notebook: one row per chain, under a header that says "sampling" with
// the time so far while chains run, then "done" or "interrupted" with the
// run's total time, frozen. The notebook's interpreter (package interp)
// shows one through ppl's run hooks; ppl itself renders nothing.
//
// The package is a leaf like display: it knows a chain's progress as a Row
// of plain numbers, and the caller gives the step-size column's number
// format (interp gives the summary table's, ppl/diag's), so it imports
// none of ppl.
package progress

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
	"time"
)

// Row is one chain's progress.
type Row struct {
	Chain       int // 0-based
	Iteration   int // iterations done, warm-up included
	Total       int // warm-up plus draws
	Warmup      bool
	Divergences int // in sampling so far
	StepSize    float64
	Done        bool
}

// A ColumnFormat gives the form of a column's values from the whole
// column, so that they are written alike ("1.00" beside "1.02").
type ColumnFormat func(column []float64) func(v float64) string

// threeDigits is the step sizes' form when the caller gives none.
func threeDigits([]float64) func(float64) string {
	return func(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }
}

// Table is the progress of one run. It renders as text (String) and HTML.
type Table struct {
	model       string
	now         func() time.Time // the clock, injected so tests can set it
	start       time.Time
	end         time.Time // when the run ended; zero while it runs
	interrupted bool
	rows        []Row
	steps       ColumnFormat
}

// New starts the table of a run of the named model now; stepSizes is the
// step-size column's format (nil: three significant digits each).
func New(model string, stepSizes ColumnFormat) *Table { return newAt(model, stepSizes, time.Now) }

func newAt(model string, stepSizes ColumnFormat, now func() time.Time) *Table {
	if stepSizes == nil {
		stepSizes = threeDigits
	}
	return &Table{model: model, now: now, start: now(), steps: stepSizes}
}

// Update takes a progress report; once every chain is done the run's end
// time is fixed.
func (t *Table) Update(ps []Row) {
	t.rows = append(t.rows[:0], ps...)
	if !t.end.IsZero() || len(ps) == 0 {
		return
	}
	for _, r := range ps {
		if !r.Done {
			return
		}
		if r.Iteration < r.Total {
			t.interrupted = true
		}
	}
	t.end = t.now()
}

// Finish marks the run over, interrupted or not, when the sampler returns.
func (t *Table) Finish(interrupted bool) {
	t.interrupted = t.interrupted || interrupted
	if t.end.IsZero() {
		t.end = t.now()
	}
}

// status is the header's word on the run and its time in seconds.
func (t *Table) status() string {
	switch {
	case t.end.IsZero():
		return fmt.Sprintf("sampling, %.1f s", t.now().Sub(t.start).Seconds())
	case t.interrupted:
		return fmt.Sprintf("interrupted after %.1f s: the draws made so far are kept", t.end.Sub(t.start).Seconds())
	}
	return fmt.Sprintf("done in %.1f s", t.end.Sub(t.start).Seconds())
}

func phase(r Row) string {
	switch {
	case r.Done && r.Iteration < r.Total:
		return "stopped"
	case r.Done:
		return "done"
	case r.Warmup:
		return "warm-up"
	}
	return "sampling"
}

// stepFormat is the step-size column's one form.
func (t *Table) stepFormat() func(float64) string {
	steps := make([]float64, len(t.rows))
	for i, r := range t.rows {
		steps[i] = r.StepSize
	}
	return t.steps(steps)
}

// String renders the table as text.
func (t *Table) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", t.model, t.status())
	fmt.Fprintf(&b, "%-6s %-22s %-9s %11s %10s\n", "chain", "progress", "phase", "divergences", "step size")
	step := t.stepFormat()
	for _, r := range t.rows {
		frac := float64(r.Iteration) / math.Max(1, float64(r.Total))
		fmt.Fprintf(&b, "%-6d %s %3.0f%% %-9s %11d %10s\n", r.Chain+1, textBar(frac), 100*frac, phase(r), r.Divergences, step(r.StepSize))
	}
	return b.String()
}

// textBar is a progress bar of 20 characters, frac of it full.
func textBar(frac float64) string {
	n := int(frac * 20)
	return strings.Repeat("█", n) + strings.Repeat("·", 20-n)
}

// HTML renders the table with progress bars.
func (t *Table) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="gobayes-progress"><b>%s</b>: %s<table><thead><tr><th>chain</th><th>progress</th><th>iteration</th><th>phase</th><th>divergences</th><th>step size</th></tr></thead><tbody>`,
		html.EscapeString(t.model), t.status())
	step := t.stepFormat()
	for _, r := range t.rows {
		frac := float64(r.Iteration) / math.Max(1, float64(r.Total))
		color := "#1f77b4"
		if r.Warmup {
			color = "#aaa"
		}
		div := fmt.Sprint(r.Divergences)
		if r.Divergences > 0 {
			div = `<span style="color:#b00">` + div + "</span>"
		}
		// The bar is drawn by styles; an untrusted notebook strips them,
		// and with them the display:none that hides the same bar in
		// characters.
		fmt.Fprintf(&b, `<tr><td>%d</td><td><div style="width:12em;background:#eee"><div style="width:%.1f%%;background:%s;height:0.8em"></div></div><span style="display:none">%s</span></td><td>%d / %d</td><td>%s</td><td style="text-align:right">%s</td><td style="text-align:right">%s</td></tr>`,
			r.Chain+1, 100*frac, color, textBar(frac), r.Iteration, r.Total, phase(r), div, step(r.StepSize))
	}
	b.WriteString("</tbody></table></div>")
	return b.String()
}
