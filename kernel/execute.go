package kernel

import (
	"context"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"

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
		k.publish("execute_input", req, executeInputContent(r.Code, count))
	}

	var res interp.Result
	if len(r.Code) > k.cfg.MaxCell {
		res.Err = cellTooLarge(len(r.Code), k.cfg.MaxCell)
		storeHistory = false
	} else {
		ctx, end := k.startCell()
		ev := &cellEvents{k: k, req: req, silent: r.Silent, allowStdin: r.AllowStdin, limit: k.cfg.OutputLimit}
		res = k.engine.Execute(ctx, r.Code, ev)
		ev.close()
		end()
	}

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
		if res.Pager == nil && len(r.UserExpressions) == 0 {
			k.reply(ch, req, "execute_reply", executeReplyOK(count))
		} else {
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
	}
	if storeHistory {
		k.history.Add(count, r.Code, output)
	}
}

// DefaultMaxCell is Config.MaxCell's default: far more source than a
// person types or pastes, less than would make the kernel's memory
// depend on what is sent to it.
const DefaultMaxCell = 16 << 20

// cellTooLarge is the error of a cell whose source is over the limit.
func cellTooLarge(size, limit int) *interp.Error {
	msg := fmt.Sprintf("the cell's source is %s, more than the kernel runs (%s); it was not run and variables are kept. Read large data from a file (os.ReadFile, encoding/csv) instead of pasting it into a cell",
		interp.FormatBytes(uint64(size)), interp.FormatBytes(uint64(limit)))
	return &interp.Error{Name: "CellTooLarge", Value: msg, Traceback: []string{"\x1b[0;31mCellTooLarge: " + msg + "\x1b[0m"}}
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
	allowStdin bool  // the client answers input_request
	limit      int64 // Config.OutputLimit

	mu    sync.Mutex
	ended bool
	shown int64 // bytes of output counted against limit since the cell began or cleared
	cut   bool  // the limit was reached: output is dropped until a clear
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

// room is how many of n more bytes of output may be shown; counted says
// whether they add to what the client keeps (an update replaces what it
// updates, so it only has to fit by itself). notice is true the first
// time the limit cuts: the caller publishes what room let through, then
// the notice. Called with e.mu held.
func (e *cellEvents) room(n int64, counted bool) (allowed int64, notice bool) {
	if e.limit < 0 {
		return n, false
	}
	if e.cut {
		return 0, false
	}
	used := e.shown
	if !counted {
		used = 0
	}
	if used+n <= e.limit {
		if counted {
			e.shown += n
		}
		return n, false
	}
	e.cut = true
	allowed = e.limit - used
	if counted {
		e.shown = e.limit
	}
	return allowed, true
}

// outputCutNotice is the stderr text shown where a cell's output is cut.
func outputCutNotice(limit int64) string {
	return fmt.Sprintf("\n[gobayes] this cell's output passed the kernel's output limit of %s; the rest is not shown (the cell goes on running). "+
		"Print a summary, or write large output to a file; to raise the limit set %s in the kernelspec's env (gobayes install --output-limit 64MiB).\n",
		interp.FormatBytes(uint64(limit)), interp.OutputLimitEnv)
}

// publishCut publishes the output-limit notice. Called with e.mu held.
func (e *cellEvents) publishCut() {
	e.k.publish("stream", e.req, map[string]any{"name": "stderr", "text": outputCutNotice(e.limit)})
}

func (e *cellEvents) Stream(name, text string) {
	if name != "stderr" {
		name = "stdout"
	}
	if text == "" {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.silent {
		return
	}
	n, notice := e.room(int64(len(text)), true)
	if n < int64(len(text)) {
		// Cut where a character begins, so the text stays valid UTF-8.
		i := int(n)
		for i > 0 && !utf8.RuneStart(text[i]) {
			i--
		}
		text = text[:i]
	}
	if text != "" {
		e.k.publish("stream", e.req, map[string]any{"name": name, "text": text})
	}
	if notice {
		e.publishCut()
	}
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
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.silent {
		return
	}
	size := interp.BundleSize(display.Bundle{Data: data})
	if n, notice := e.room(size, msgType == "display_data"); n < size {
		if notice {
			e.publishCut()
		}
		return
	}
	e.k.publish(msgType, e.req, content)
}

// Clear publishes clear_output; what the client shows starts anew, so
// the output limit's count does too.
func (e *cellEvents) Clear(wait bool) {
	e.mu.Lock()
	e.shown, e.cut = 0, false
	e.mu.Unlock()
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
