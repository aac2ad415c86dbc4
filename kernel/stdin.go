package kernel

import (
	"context"
	"encoding/json"
	"fmt"
)

// inputWait is an input_request waiting for its input_reply.
type inputWait struct {
	id    string      // msg_id of the input_request
	reply chan string // receives the value typed
}

// requestInput sends an input_request to the client that sent req (an
// execute_request, whose identities route it) and waits for the
// input_reply, or until ctx ends (the cell was interrupted) or the kernel
// shuts down. One request waits at a time: cells run one at a time, and
// the interpreter asks for one line at a time.
func (k *Kernel) requestInput(ctx context.Context, req *Message, prompt string, password bool) (string, error) {
	m, err := k.origin.Message("input_request", req, map[string]any{"prompt": prompt, "password": password})
	if err != nil {
		return "", err
	}
	w := &inputWait{id: m.Header.MsgID, reply: make(chan string, 1)}
	k.mu.Lock()
	k.input = w
	k.mu.Unlock()
	defer func() {
		k.mu.Lock()
		if k.input == w {
			k.input = nil
		}
		k.mu.Unlock()
	}()
	k.send(Stdin, m)
	select {
	case v := <-w.reply:
		return v, nil
	case <-ctx.Done():
		return "", ctx.Err()
	case <-k.stop:
		return "", fmt.Errorf("kernel: shutting down while the cell waited for input")
	}
}

// HandleStdin takes a message received on the stdin channel: the
// input_reply to the input_request waiting. A reply whose parent is
// another request (a cell interrupted while the person typed) and any
// other message are dropped and logged. jupyter_client's input() sends no
// parent header; such a reply answers the request waiting.
func (k *Kernel) HandleStdin(frames [][]byte) {
	m, ok := k.receive(Stdin, frames)
	if !ok {
		return
	}
	if m.Header.MsgType != "input_reply" {
		k.log.Printf("kernel: on stdin: message type %q is not supported; ignored", m.Header.MsgType)
		return
	}
	var parent struct {
		MsgID string `json:"msg_id"`
	}
	_ = json.Unmarshal(m.Parent, &parent)
	var content struct {
		Value string `json:"value"`
	}
	if !k.decode(Stdin, &m, &content) {
		return
	}
	k.mu.Lock()
	w := k.input
	if w != nil && (parent.MsgID == "" || parent.MsgID == w.id) {
		k.input = nil
	} else {
		w = nil
	}
	k.mu.Unlock()
	if w == nil {
		k.log.Printf("kernel: input_reply (parent %q) arrived when no input_request waits for it, perhaps after an interrupt; dropped", parent.MsgID)
		return
	}
	w.reply <- content.Value
}
