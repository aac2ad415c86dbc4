package supervisor

import (
	"context"
	"errors"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp"
)

// The supervisor and its worker talk in JSON lines over two pipes the
// worker inherits as file descriptors 3 (requests) and 4 (replies), so that
// a cell writing to standard output cannot corrupt the protocol.
const (
	workerRequestFD = 3
	workerReplyFD   = 4
)

// Operations a wireRequest asks for.
const (
	opExecute    = "execute"
	opEvaluate   = "evaluate"
	opComplete   = "complete"
	opInspect    = "inspect"
	opIsComplete = "is_complete"
	opReset      = "reset"
	opInterrupt  = "interrupt"
	opInput      = "input" // the answer to a replyInput
	opComm       = "comm"  // a client's comm message for the session's handlers
	opCommInfo   = "comm_info"
)

// wireRequest is one request from the supervisor.
type wireRequest struct {
	ID     int64  `json:"id"`
	Op     string `json:"op"`
	Code   string `json:"code,omitempty"`
	Cursor int    `json:"cursor,omitempty"`
	Detail int    `json:"detail,omitempty"`
	// execute, comm: the msg_id of the client's request (comm.Request in
	// the worker)
	MsgID string        `json:"msg_id,omitempty"`
	Comm  *comm.Message `json:"comm,omitempty"` // comm

	// input: the line typed, or why there is none
	Input    string `json:"input,omitempty"`
	InputErr string `json:"input_error,omitempty"`
}

// inputNotAllowed is wireRequest.InputErr for interp.ErrNoInput;
// inputInterrupted for a wait that the cell's interruption ended.
const (
	inputNotAllowed  = "not allowed"
	inputInterrupted = "interrupted"
)

// inputError is the error a wireRequest's InputErr stands for.
func inputError(code string) error {
	switch code {
	case "":
		return nil
	case inputNotAllowed:
		return interp.ErrNoInput
	case inputInterrupted:
		return context.Canceled
	}
	return errors.New(code)
}

// inputErrorCode is err as a wireRequest's InputErr.
func inputErrorCode(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, interp.ErrNoInput):
		return inputNotAllowed
	case errors.Is(err, context.Canceled):
		return inputInterrupted
	}
	return err.Error()
}

// Kinds of wireReply: events of a running cell, then one "done".
const (
	replyStream  = "stream"
	replyDisplay = "display"
	replyClear   = "clear"
	replyInput   = "input" // the cell reads standard input: ask the client
	replyComm    = "comm"  // a comm message for the client
	replyDone    = "done"
)

// wireReply is an event of a request or its final answer.
type wireReply struct {
	ID   int64  `json:"id"`
	Kind string `json:"kind"`

	// stream; input (Text is the prompt)
	Name     string `json:"name,omitempty"`
	Text     string `json:"text,omitempty"`
	Password bool   `json:"password,omitempty"`
	// display, clear
	Bundle    *display.Bundle `json:"bundle,omitempty"`
	DisplayID string          `json:"display_id,omitempty"`
	Update    bool            `json:"update,omitempty"`
	Wait      bool            `json:"wait,omitempty"`
	// comm
	Comm *comm.Message `json:"comm,omitempty"`

	// done
	Result     *interp.Result     `json:"result,omitempty"`
	Err        *interp.Error      `json:"error,omitempty"`
	Completion *interp.Completion `json:"completion,omitempty"`
	Found      bool               `json:"found,omitempty"`
	Status     string             `json:"status,omitempty"`
	Indent     string             `json:"indent,omitempty"`
	Comms      map[string]string  `json:"comms,omitempty"` // comm_info
}
