package interp

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp/rewrite"
)

// The magics are a layer over the session: they reach it only through
// magicHost, and the session calls runMagics for every cell it executes.

// magicHost is what the magics need of a session.
type magicHost interface {
	// execute runs Go code; magics are not recognised there.
	execute(ctx context.Context, code string) Result
	// reset drops every variable, function, type and import.
	reset() error
	// doc documents a (possibly qualified) name; false when nothing is found.
	doc(name string) (display.Bundle, bool)
	// write adds text to the cell's stdout after what the cell printed;
	// flush sends what is pending now.
	write(text string)
	flush()
}

var _ magicHost = (*Session)(nil)

func (s *Session) doc(name string) (display.Bundle, bool) { return s.inspectName(name, 1) }
func (s *Session) write(text string)                      { s.out.write("stdout", []byte(text)) }
func (s *Session) flush()                                 { s.out.flush() }

// helpText is what %help prints.
const helpText = `gobayes cells are Go, run by the yaegi interpreter.

  x := 1                 variables, functions and types live across cells
  import "fmt"           import any standard package, display and gonum
  x + 1                  a final expression is the cell's result

Magics (first line of a cell):
  %help                  this text
  %doc NAME              documentation of NAME (also: NAME?)
  %time                  run the rest of the cell and print its wall time
  %reset                 forget every variable, function, type and import

Rich output: display.HTML(s), display.Markdown(s), display.PNG(b),
display.SVG(s), display.JSON(v), display.Image(img), display.Show(v),
display.Clear(wait), and h := display.NewHandle(); h.Update(v) for a display
that changes in place. Interrupt a running cell with the kernel's interrupt.
`

// helpQuery matches "NAME?" and "NAME??" cells.
var helpQuery = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\?{1,2}$`)

// runMagics runs a cell on h, handling magics on its first line.
func runMagics(ctx context.Context, h magicHost, code string) Result {
	trimmed := strings.TrimSpace(code)
	if m := helpQuery.FindStringSubmatch(trimmed); m != nil {
		return docResult(h, m[1])
	}
	// The first non-blank line decides; the others keep their line numbers.
	lines := strings.Split(code, "\n")
	first := 0
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	if first == len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[first]), "%") {
		return h.execute(ctx, code)
	}
	fields := strings.Fields(lines[first])
	rest := strings.Join(append(make([]string, first+1), lines[first+1:]...), "\n")
	switch fields[0] {
	case "%help":
		h.write(helpText)
		return Result{}
	case "%doc":
		if len(fields) != 2 {
			return Result{Err: magicError("%doc takes one name, as in %doc fmt.Println")}
		}
		return docResult(h, fields[1])
	case "%time", "%%time":
		start := time.Now()
		r := h.execute(ctx, rest)
		h.flush()
		h.write(fmt.Sprintf("wall time: %v\n", roundDuration(time.Since(start))))
		return r
	case "%reset":
		if err := h.reset(); err != nil {
			return Result{Err: &Error{Name: "ResetFailed", Value: err.Error()}}
		}
		if strings.TrimSpace(rest) != "" {
			return h.execute(ctx, rest)
		}
		return Result{}
	}
	return Result{Err: magicError(fmt.Sprintf("unknown magic %s; %%help lists the magics", fields[0]))}
}

func magicError(msg string) *Error {
	return &Error{Name: "MagicError", Value: "interp: " + msg, Traceback: []string{"interp: " + msg}}
}

// roundDuration keeps three significant digits.
func roundDuration(d time.Duration) time.Duration {
	for r := time.Duration(1); r < time.Hour; r *= 10 {
		if d < 1000*r {
			return d.Round(r)
		}
	}
	return d.Round(time.Second)
}

// docResult is the pager answer for NAME? and %doc NAME.
func docResult(h magicHost, name string) Result {
	b, ok := h.doc(name)
	if !ok {
		b = display.Bundle{Data: map[string]any{display.MIMEText: "no documentation found for " + name}, Metadata: map[string]any{}}
	}
	return Result{Pager: &b}
}

// IsComplete answers is_complete_request for a cell: a magic line is
// complete, %time's is as complete as the code it times, and Go code is
// answered by rewrite.IsComplete. It needs no session, so a supervisor
// answers it without asking its worker.
func IsComplete(code string) (status, indent string) {
	trimmed := strings.TrimSpace(code)
	if first, rest, _ := strings.Cut(trimmed, "\n"); strings.HasPrefix(first, "%time") || strings.HasPrefix(first, "%%time") {
		if strings.TrimSpace(rest) == "" {
			return "complete", ""
		}
		return IsComplete(rest) // the code %time runs
	}
	if trimmed == "" || strings.HasPrefix(trimmed, "%") || helpQuery.MatchString(trimmed) {
		return "complete", ""
	}
	return rewrite.IsComplete(code)
}

// IsComplete says whether code is ready to run. See Engine.
func (s *Session) IsComplete(code string) (status, indent string) {
	return IsComplete(code)
}
