package kernel

import (
	"context"
	"strings"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp"
)

// scriptEngine is the small stand-in for the interpreter that dispatch tests
// need: each cell is a list of commands, one a line, so that a test says
// exactly which events a cell produces. The real interpreter is exercised
// by the client tests in tests/jupyter.
//
//	print TEXT        stream TEXT+"\n" to stdout
//	eprint TEXT       stream to stderr
//	html TEXT         display_data text/html
//	update ID TEXT    display with id ID (update when ID was shown before)
//	clear             clear_output(wait=true)
//	fail TEXT         end the cell with an error
//	block             wait until the cell is interrupted, then fail
//	value TEXT        the cell's value is TEXT
//	page TEXT         pager payload
//	input PROMPT      ask for a line of input; print "got LINE" on stdout,
//	                  or the error on stderr (an interrupt fails the cell)
type scriptEngine struct {
	started  chan struct{} // receives when a "block" cell starts
	resets   int
	shown    map[string]bool
	executed int               // cells run
	comms    map[string]string // open comms of target test.echo
	last     interp.Events     // the latest cell's, for output after it ends
}

var _ interp.Engine = (*scriptEngine)(nil)

func text(s string) *display.Bundle {
	return &display.Bundle{Data: map[string]any{"text/plain": s}, Metadata: map[string]any{}}
}

func (e *scriptEngine) Execute(ctx context.Context, code string, ev interp.Events) interp.Result {
	e.executed++
	e.last = ev
	var res interp.Result
	for i, line := range strings.Split(code, "\n") {
		cmd, arg, _ := strings.Cut(line, " ")
		switch cmd {
		case "print":
			ev.Stream("stdout", arg+"\n")
		case "eprint":
			ev.Stream("stderr", arg+"\n")
		case "html":
			ev.Display(display.Bundle{Data: map[string]any{"text/html": arg, "text/plain": "html"}}, "", false)
		case "update":
			id, t, _ := strings.Cut(arg, " ")
			if e.shown == nil {
				e.shown = map[string]bool{}
			}
			ev.Display(*text(t), id, e.shown[id])
			e.shown[id] = true
		case "clear":
			ev.Clear(true)
		case "fail":
			res.Err = &interp.Error{Name: "CellError", Value: arg, Traceback: []string{"cell line " + string(rune('1'+i)) + ": " + arg}}
			return res
		case "block":
			if e.started != nil {
				e.started <- struct{}{}
			}
			<-ctx.Done()
			res.Err = &interp.Error{Name: "Interrupted", Value: "the cell was interrupted", Traceback: []string{}}
			return res
		case "value":
			res.Value = text(arg)
		case "page":
			res.Pager = text(arg)
		case "input":
			in, ok := ev.(interp.InputEvents)
			if !ok {
				ev.Stream("stderr", "the kernel's events cannot ask for input\n")
				continue
			}
			line, err := in.Input(ctx, arg, false)
			switch {
			case err != nil && ctx.Err() != nil:
				res.Err = &interp.Error{Name: "Interrupted", Value: "interrupted while waiting for input", Traceback: []string{}}
				return res
			case err != nil:
				ev.Stream("stderr", err.Error()+"\n")
			default:
				ev.Stream("stdout", "got "+line+"\n")
			}
		}
	}
	return res
}

func (e *scriptEngine) Evaluate(ctx context.Context, expr string) (display.Bundle, *interp.Error) {
	if expr == "bad" {
		return display.Bundle{}, &interp.Error{Name: "CompileError", Value: "undefined: bad"}
	}
	return *text("<" + expr + ">"), nil
}

func (e *scriptEngine) Complete(code string, cursor int) interp.Completion {
	return interp.Completion{Matches: []string{"Println", "Printf"}, Start: cursor - 5, End: cursor}
}

func (e *scriptEngine) Inspect(code string, cursor, detail int) (display.Bundle, bool) {
	if code == "" {
		return display.Bundle{}, false
	}
	return *text("doc of " + code), true
}

func (e *scriptEngine) IsComplete(code string) (string, string) {
	if strings.HasSuffix(code, "{") {
		return "incomplete", "\t"
	}
	return "complete", ""
}

// Comm serves the target "test.echo": a comm_msg {"say": TEXT} prints TEXT
// and sends {"said": TEXT} back on the comm. Other targets and comm ids
// fail.
func (e *scriptEngine) Comm(ctx context.Context, m comm.Message, ev interp.Events) *interp.Error {
	switch {
	case m.Type == comm.TypeOpen && m.TargetName == "test.echo":
		if e.comms == nil {
			e.comms = map[string]string{}
		}
		e.comms[m.CommID] = m.TargetName
		return nil
	case e.comms[m.CommID] == "":
		return &interp.Error{Name: "CommError", Value: "no comm " + m.CommID}
	case m.Type == comm.TypeClose:
		delete(e.comms, m.CommID)
		return nil
	}
	say, _ := m.Data["say"].(string)
	ev.Stream("stdout", say+"\n")
	if ce, ok := ev.(interp.CommEvents); ok {
		ce.Comm(comm.Message{Type: comm.TypeMsg, CommID: m.CommID, Data: map[string]any{"said": say, "parent": ce.MsgID()}})
	}
	return nil
}

func (e *scriptEngine) CommInfo(target string) map[string]string {
	out := map[string]string{}
	for id, t := range e.comms {
		if target == "" || t == target {
			out[id] = t
		}
	}
	return out
}

func (e *scriptEngine) Reset() error { e.resets++; return nil }
func (e *scriptEngine) Close() error { return nil }
