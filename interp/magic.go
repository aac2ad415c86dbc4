package interp

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/gobayes/gobayes/display"
)

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

// executeMagic runs a cell, handling magics on its first line.
func (s *Session) executeMagic(ctx context.Context, code string) Result {
	trimmed := strings.TrimSpace(code)
	if m := helpQuery.FindStringSubmatch(trimmed); m != nil {
		return s.docResult(m[1])
	}
	// The first non-blank line decides; the others keep their line numbers.
	lines := strings.Split(code, "\n")
	first := 0
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	if first == len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[first]), "%") {
		return s.execute(ctx, code)
	}
	fields := strings.Fields(lines[first])
	rest := strings.Join(append(make([]string, first+1), lines[first+1:]...), "\n")
	switch fields[0] {
	case "%help":
		s.out.write("stdout", []byte(helpText))
		return Result{}
	case "%doc":
		if len(fields) != 2 {
			return Result{Err: magicError("%doc takes one name, as in %doc fmt.Println")}
		}
		return s.docResult(fields[1])
	case "%time", "%%time":
		start := time.Now()
		r := s.execute(ctx, rest)
		s.out.flush()
		s.out.write("stdout", []byte(fmt.Sprintf("wall time: %v\n", roundDuration(time.Since(start)))))
		return r
	case "%reset":
		if err := s.reset(); err != nil {
			return Result{Err: &Error{Name: "ResetFailed", Value: err.Error()}}
		}
		if strings.TrimSpace(rest) != "" {
			return s.execute(ctx, rest)
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
func (s *Session) docResult(name string) Result {
	b, ok := s.inspectName(name, 1)
	if !ok {
		b = display.Bundle{Data: map[string]any{display.MIMEText: "no documentation found for " + name}, Metadata: map[string]any{}}
	}
	return Result{Pager: &b}
}
