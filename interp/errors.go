package interp

import (
	"errors"
	"fmt"
	"go/scanner"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gobayes/gobayes/interp/rewrite"
	"github.com/gobayes/gobayes/interp/symbols"
)

// yaegiPos matches a position yaegi puts in an error ("_.go:3:5: " or
// "3:5: "): the line counts the wrapper line rewrite's sources begin with.
var yaegiPos = regexp.MustCompile(`(?:_\.go:)?(\d+):(\d+): `)

// cellPos converts a line reported by yaegi for a run's source into the
// cell's own line.
func cellLine(yaegiLine int) int { return yaegiLine - 1 }

// compileError turns a yaegi compile error into a cell error whose
// positions are "cell:LINE:COL" and whose traceback quotes the line.
func compileError(cell string, err error) *Error {
	var msgs []string
	var list scanner.ErrorList
	if errors.As(err, &list) {
		nlines := strings.Count(cell, "\n") + 1
		for _, e := range list {
			line, col, msg := cellLine(e.Pos.Line), e.Pos.Column, e.Msg
			if line > nlines {
				// The error is in yaegi's closing wrapper: the cell ended early.
				line = nlines
				col = len(cell) - (strings.LastIndex(cell, "\n") + 1) + 1
				msg = strings.Replace(msg, "found '}'", "found the end of the cell", 1)
			}
			msgs = append(msgs, fmt.Sprintf("cell:%d:%d: %s", line, col, msg))
		}
	} else {
		for _, line := range strings.Split(strings.TrimSpace(err.Error()), "\n") {
			msgs = append(msgs, mapPositions(line))
		}
	}
	if m := missingPackage.FindStringSubmatch(strings.Join(msgs, "\n")); m != nil {
		msgs = []string{fmt.Sprintf("%s: package %q is not available in the interpreter; cells can import the standard library (as of Go 1.22) and %s", m[1], m[2], importableHint())}
	}
	for i := range msgs {
		msgs[i] = withHint(msgs[i])
	}
	if len(msgs) == 0 {
		msgs = []string{err.Error()}
	}
	tb := []string{}
	for _, m := range msgs {
		tb = append(tb, "\x1b[0;31m"+m+"\x1b[0m")
		if line, col, ok := firstPos(m); ok {
			tb = append(tb, quoteLine(cell, line, col)...)
		}
	}
	return &Error{Name: "CompileError", Value: msgs[0], Traceback: tb}
}

// missingPackage matches yaegi's error for an import it has no symbols for.
var missingPackage = regexp.MustCompile(`^(cell:\d+:\d+): import "([^"]+)" error: unable to find source`)

// importableHint names the compiled packages a cell can import besides
// the standard library.
func importableHint() string {
	var paths []string
	for key := range symbols.Symbols {
		paths = append(paths, path.Dir(key))
	}
	sort.Strings(paths)
	return strings.Join(paths, ", ")
}

// hints add what to write instead to yaegi errors about Go features it
// lacks. Each maps a pattern of the message to advice.
var hints = []struct {
	re   *regexp.Regexp
	hint string
}{
	{regexp.MustCompile(`undefined: (min|max)$`), "the min and max builtins (Go 1.21) are not available in the interpreter; use math.Min and math.Max, or compare"},
	{regexp.MustCompile(`undefined: clear$`), "the clear builtin (Go 1.21) is not available in the interpreter; assign a new map or slice, or delete keys in a loop"},
	{regexp.MustCompile(`undefined selector: (slices|maps|cmp)\.`), "the generic functions of slices, maps and cmp are not available in the interpreter; use package sort (sort.Ints, sort.Float64s, sort.Slice) or a loop"},
	{regexp.MustCompile(`cannot use type func`), "if this calls a generic function, write its type arguments explicitly (F[int, string](...)): the interpreter cannot infer several type parameters"},
}

func withHint(msg string) string {
	for _, h := range hints {
		if h.re.MatchString(msg) {
			return msg + " (" + h.hint + ")"
		}
	}
	return msg
}

// mapPositions rewrites every yaegi position in msg to a cell position.
func mapPositions(msg string) string {
	return yaegiPos.ReplaceAllStringFunc(msg, func(m string) string {
		sub := yaegiPos.FindStringSubmatch(m)
		line, _ := strconv.Atoi(sub[1])
		return fmt.Sprintf("cell:%d:%s: ", cellLine(line), sub[2])
	})
}

var cellPosRE = regexp.MustCompile(`cell:(\d+):(\d+)`)

func firstPos(msg string) (line, col int, ok bool) {
	m := cellPosRE.FindStringSubmatch(msg)
	if m == nil {
		return 0, 0, false
	}
	line, _ = strconv.Atoi(m[1])
	col, _ = strconv.Atoi(m[2])
	return line, col, true
}

// quoteLine shows a cell line with a caret under the column.
func quoteLine(cell string, line, col int) []string {
	lines := strings.Split(cell, "\n")
	if line < 1 || line > len(lines) {
		return nil
	}
	text := lines[line-1]
	caret := ""
	if col >= 1 && col <= len(text)+1 {
		// Keep tabs so the caret lines up under tab-indented code.
		var pad strings.Builder
		for _, c := range text[:col-1] {
			if c == '\t' {
				pad.WriteByte('\t')
			} else {
				pad.WriteByte(' ')
			}
		}
		caret = pad.String() + "^"
	}
	prefix := fmt.Sprintf("%5d | ", line)
	out := []string{prefix + text}
	if caret != "" {
		out = append(out, strings.Repeat(" ", len(prefix)-2)+"| "+caret)
	}
	return out
}

// panicError describes a panic in a cell: the statement it happened in
// (line, col) and the cell functions yaegi reported while it unwound
// (innermost first).
func panicError(cell string, value any, frames []panicFrame, line, col int) *Error {
	msg := fmt.Sprint(value)
	if err, ok := value.(error); ok {
		msg = err.Error()
	}
	e := &Error{Name: "panic", Value: fmt.Sprintf("%s (cell:%d:%d)", msg, line, col)}
	e.Traceback = append(e.Traceback, "\x1b[0;31mpanic: "+msg+"\x1b[0m")
	for _, f := range frames {
		if f.Func == "main" || cellLine(f.Line) < 1 {
			continue // the top level: its statement is shown below
		}
		fn := strings.TrimPrefix(f.Func, "main.")
		e.Traceback = append(e.Traceback, fmt.Sprintf("  in %s at cell:%d:%d", fn, cellLine(f.Line), f.Col))
		e.Traceback = append(e.Traceback, quoteLine(cell, cellLine(f.Line), f.Col)...)
	}
	e.Traceback = append(e.Traceback, fmt.Sprintf("  in the cell at cell:%d:%d", line, col))
	e.Traceback = append(e.Traceback, quoteLine(cell, line, col)...)
	return e
}

// unsupportedError is the cell's error for syntax the interpreter cannot
// run (see rewrite.CheckSupported).
func unsupportedError(cell string, u *rewrite.Unsupported) *Error {
	msg := u.Error()
	return &Error{Name: "UnsupportedSyntax", Value: msg, Traceback: append([]string{"\x1b[0;31m" + msg + "\x1b[0m"}, quoteLine(cell, u.Line, u.Col)...)}
}
