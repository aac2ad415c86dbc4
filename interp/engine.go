package interp

import (
	"context"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
)

// Engine is what the kernel needs of an interpreter session. Session (in
// process) and supervisor.Supervised (a session in a child process that may
// crash and be restarted) both implement it, so the kernel never knows
// which it drives.
//
// Positions (cursor, Start, End) count Unicode code points, as the Jupyter
// protocol (5.2 and later) does.
type Engine interface {
	// Execute runs one cell. Output produced while it runs is delivered
	// through ev as it happens. Cancelling ctx interrupts the cell.
	Execute(ctx context.Context, code string, ev Events) Result
	// Evaluate computes one expression for user_expressions, after a cell.
	Evaluate(ctx context.Context, expr string) (display.Bundle, *Error)
	Complete(code string, cursor int) Completion
	// Inspect returns documentation for the name at cursor; found is false
	// when there is nothing to show. detail is the protocol's detail_level.
	Inspect(code string, cursor int, detail int) (b display.Bundle, found bool)
	// IsComplete answers "complete", "incomplete" (with indent) or "invalid".
	IsComplete(code string) (status, indent string)
	// Comm delivers a message the client sent on a comm (comm_open,
	// comm_msg, comm_close) to the session, whose handlers run as a cell
	// does: what they print and publish goes to ev. It fails for an unknown
	// target or comm id, or a handler that panicked.
	Comm(ctx context.Context, m comm.Message, ev Events) *Error
	// CommInfo lists the session's open comms whose target is target (""
	// for all): comm id → target name.
	CommInfo(target string) map[string]string
	// Reset drops every variable and import (the %reset magic, a restart).
	Reset() error
	Close() error
}

// Events receives what a running cell produces, in order.
type Events interface {
	// Stream is text written to "stdout" or "stderr".
	Stream(name, text string)
	// Display publishes a bundle now (display_data); with update true it
	// replaces the bundle last shown under the same non-empty id
	// (update_display_data).
	Display(b display.Bundle, id string, update bool)
	// Clear clears the cell's output (clear_output); wait delays the
	// clearing until new output arrives.
	Clear(wait bool)
}

// CommEvents is Events that also reach the client's comms. The kernel's
// Events implement it; a cell run with Events that do not cannot show
// widgets.
type CommEvents interface {
	Events
	// Comm sends a comm message (comm_open, comm_msg, comm_close) to the
	// client.
	Comm(m comm.Message)
	// MsgID is the msg_id of the client's request these events answer (the
	// execute_request or comm_msg): the parent of what is published, which
	// an Output widget captures by.
	MsgID() string
}

// Result is the outcome of a cell.
type Result struct {
	// Value is the rendered value of the cell's final expression, nil when
	// the cell has none.
	Value *display.Bundle
	// Pager is text for the pager payload (NAME?, %doc NAME), "" for none.
	Pager *display.Bundle
	// Err is non-nil when the cell failed.
	Err *Error
}

// Error is a failed cell, in the protocol's terms. Traceback lines name the
// cell's own line numbers.
type Error struct {
	Name      string   // ename, e.g. "CompileError", "panic", "InterpreterCrashed"
	Value     string   // evalue: one line saying what went wrong
	Traceback []string // shown to the user, may carry ANSI colour
}

func (e *Error) Error() string { return e.Name + ": " + e.Value }

// Completion is the answer to complete_request.
type Completion struct {
	Matches    []string
	Start, End int
}
