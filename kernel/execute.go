package kernel

import (
	"context"
	"sync"
	"time"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp"
)

type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    *bool             `json:"store_history"` // default true
	UserExpressions map[string]string `json:"user_expressions"`
	AllowStdin      bool              `json:"allow_stdin"`
	StopOnError     *bool             `json:"stop_on_error"` // default true
}

// execute runs a cell: execute_input, then whatever the cell publishes as it
// runs, then execute_result or error, then the reply.
func (k *Kernel) execute(ch Channel, req *Message) {
	var r executeRequest
	if !k.decode(ch, req, &r) {
		return
	}
	storeHistory := !r.Silent && (r.StoreHistory == nil || *r.StoreHistory)
	stopOnError := r.StopOnError == nil || *r.StopOnError
	if storeHistory {
		k.executionCount++
	}
	count := k.executionCount
	if !r.Silent {
		k.publish("execute_input", req, map[string]any{"code": r.Code, "execution_count": count})
	}

	ctx, end := k.startCell()
	ev := &cellEvents{k: k, req: req, silent: r.Silent, allowStdin: r.AllowStdin}
	res := k.engine.Execute(ctx, r.Code, ev)
	ev.close()
	end()

	var output *string
	if res.Err != nil {
		e := res.Err
		tb := e.Traceback
		if tb == nil {
			tb = []string{}
		}
		if !r.Silent {
			k.publish("error", req, map[string]any{"ename": e.Name, "evalue": e.Value, "traceback": tb})
		}
		if stopOnError {
			if k.cfg.AbortGrace > 0 {
				time.Sleep(k.cfg.AbortGrace)
			}
			k.abortQueued()
		}
		k.reply(ch, req, "execute_reply", map[string]any{
			"status": "error", "execution_count": count,
			"ename": e.Name, "evalue": e.Value, "traceback": tb,
			"payload": []any{}, "user_expressions": map[string]any{},
		})
	} else {
		if res.Value != nil && !r.Silent {
			data, meta := bundleMaps(*res.Value)
			k.publish("execute_result", req, map[string]any{"execution_count": count, "data": data, "metadata": meta})
			if s, ok := data["text/plain"].(string); ok {
				output = &s
			}
		}
		payload := []any{}
		if res.Pager != nil {
			data, _ := bundleMaps(*res.Pager)
			payload = append(payload, map[string]any{"source": "page", "data": data, "start": 0})
		}
		k.reply(ch, req, "execute_reply", map[string]any{
			"status": "ok", "execution_count": count,
			"payload": payload, "user_expressions": k.userExpressions(r.UserExpressions),
		})
	}
	if storeHistory {
		k.history.Add(count, r.Code, output)
	}
}

// userExpressions evaluates the expressions a client asked for after a
// successful cell, each to a bundle or an error.
func (k *Kernel) userExpressions(exprs map[string]string) map[string]any {
	out := make(map[string]any, len(exprs))
	for name, expr := range exprs {
		ctx, end := k.startCell()
		b, err := k.engine.Evaluate(ctx, expr)
		end()
		if err != nil {
			tb := err.Traceback
			if tb == nil {
				tb = []string{}
			}
			out[name] = map[string]any{"status": "error", "ename": err.Name, "evalue": err.Value, "traceback": tb}
			continue
		}
		data, meta := bundleMaps(b)
		out[name] = map[string]any{"status": "ok", "data": data, "metadata": meta}
	}
	return out
}

// cellEvents publishes what a cell produces, with the execute request as
// parent: while it runs, and afterwards what its goroutines print or show
// (the engine hands those to the latest cell's events only, so they go to
// the latest request, as ipykernel sends a thread's output). Only input
// is refused once the cell has ended.
type cellEvents struct {
	k          *Kernel
	req        *Message
	silent     bool
	allowStdin bool // the client answers input_request

	mu    sync.Mutex
	ended bool
}

var (
	_ interp.InputEvents = (*cellEvents)(nil)
	_ interp.CommEvents  = (*cellEvents)(nil)
)

func (e *cellEvents) close() {
	e.mu.Lock()
	e.ended = true
	e.mu.Unlock()
}

// emit publishes unless the request is silent. The lock keeps the events
// of one cell in the order they happened.
func (e *cellEvents) emit(msgType string, content any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.silent {
		return
	}
	e.k.publish(msgType, e.req, content)
}

// emitComm is emit for comm messages, which a silent request sends too:
// a widget's model must reach the client whatever shows it.
func (e *cellEvents) emitComm(msgType string, content any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.k.publish(msgType, e.req, content)
}

func (e *cellEvents) Stream(name, text string) {
	if name != "stderr" {
		name = "stdout"
	}
	if text == "" {
		return
	}
	e.emit("stream", map[string]any{"name": name, "text": text})
}

func (e *cellEvents) Display(b display.Bundle, id string, update bool) {
	data, meta := bundleMaps(b)
	content := map[string]any{"data": data, "metadata": meta, "transient": map[string]any{}}
	if id != "" {
		content["transient"] = map[string]any{"display_id": id}
	}
	msgType := "display_data"
	if update && id != "" {
		msgType = "update_display_data"
	}
	e.emit(msgType, content)
}

func (e *cellEvents) Clear(wait bool) {
	e.emit("clear_output", map[string]any{"wait": wait})
}

// Comm publishes a comm message of the interpreter's (a widget's
// comm_open, its state updates) on iopub.
func (e *cellEvents) Comm(m comm.Message) {
	data := m.Data
	if data == nil {
		data = map[string]any{}
	}
	content := map[string]any{"comm_id": m.CommID, "data": data}
	if m.Type == comm.TypeOpen {
		content["target_name"] = m.TargetName
		content["metadata"] = map[string]any{}
	}
	switch m.Type {
	case comm.TypeOpen, comm.TypeMsg, comm.TypeClose:
		e.emitComm(m.Type, content)
	}
}

// MsgID is the id of the request whose events these are.
func (e *cellEvents) MsgID() string { return e.req.Header.MsgID }

// Input asks the client for a line of text on the stdin channel, when the
// execute request allowed it.
func (e *cellEvents) Input(ctx context.Context, prompt string, password bool) (string, error) {
	e.mu.Lock()
	ended := e.ended
	e.mu.Unlock()
	if !e.allowStdin || ended {
		return "", interp.ErrNoInput
	}
	return e.k.requestInput(ctx, e.req, prompt, password)
}
