package kernel

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// awaitInputRequest waits until the kernel has sent an input_request and
// returns it.
func (h *harness) awaitInputRequest(t *testing.T) Message {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		for _, m := range h.rec.all() {
			if m.ch != Stdin {
				continue
			}
			d, err := Decode(m.frames, h.signer)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
	}
	t.Fatal("the kernel sent no input_request")
	return Message{}
}

// inputReply returns the frames of a client's input_reply to parent (nil:
// no parent header, as jupyter_client's KernelClient.input sends).
func (h *harness) inputReply(t *testing.T, parent *Message, value string) [][]byte {
	t.Helper()
	return h.frames(t, "input_reply", parent, map[string]any{"value": value})
}

// startCell runs an execute_request in the background; the returned
// channel is closed when the kernel has answered it.
func (h *harness) startCell(t *testing.T, content map[string]any) chan struct{} {
	done := make(chan struct{})
	frames := h.request(t, "execute_request", content)
	go func() {
		h.k.Handle(Shell, 0, frames)
		close(done)
	}()
	return done
}

func streams(all []summary, name string) string {
	var b strings.Builder
	for _, s := range messagesOf(all, "stream") {
		if s.Content["name"] == name {
			b.WriteString(s.Content["text"].(string))
		}
	}
	return b.String()
}

// TestInputRequestFrames pins the input_request of protocol 5.3: on the
// stdin channel, routed to the identity of the execute_request, with it as
// parent, carrying prompt and password.
func TestInputRequestFrames(t *testing.T) {
	h := newHarness(t)
	done := h.startCell(t, map[string]any{"code": "input name? ", "allow_stdin": true})
	req := h.awaitInputRequest(t)
	if string(req.Identities[0]) != "peer" {
		t.Errorf("input_request routed to %q, want the client's identity peer", req.Identities)
	}
	var parent Header
	json.Unmarshal(req.Parent, &parent)
	if req.Header.MsgType != "input_request" || parent.MsgID != "client-0001" || parent.MsgType != "execute_request" {
		t.Errorf("sent %s with parent %s %s, want input_request whose parent is the execute_request client-0001", req.Header.MsgType, parent.MsgType, parent.MsgID)
	}
	h.k.HandleStdin(h.inputReply(t, &req, "Ada"))
	<-done
	var frames []sent
	for _, m := range h.rec.all() {
		if m.ch == Stdin {
			frames = append(frames, m)
		}
	}
	golden(t, "input_request.golden", frameText(frames))
	if got := streams(summarize(t, h.rec, h.signer), "stdout"); got != "got Ada\n" {
		t.Errorf("the cell printed %q, want the line typed, \"got Ada\"", got)
	}
}

func TestInputReplies(t *testing.T) {
	for _, tc := range []struct {
		name string
		// reply sends the client's answers to the input_request req.
		reply  func(h *harness, t *testing.T, req Message)
		stdout string
		logHas string // in the kernel's log, "" for nothing
	}{
		{"reply with parent", func(h *harness, t *testing.T, req Message) {
			h.k.HandleStdin(h.inputReply(t, &req, "typed"))
		}, "got typed\n", ""},
		{"reply without parent (jupyter_client)", func(h *harness, t *testing.T, req Message) {
			h.k.HandleStdin(h.inputReply(t, nil, "typed"))
		}, "got typed\n", ""},
		{"reply to another request is dropped", func(h *harness, t *testing.T, req Message) {
			other := req
			other.raw = nil
			other.Header.MsgID = "stale-request"
			h.k.HandleStdin(h.inputReply(t, &other, "stale"))
			h.k.HandleStdin(h.inputReply(t, &req, "fresh"))
		}, "got fresh\n", "stale-request"},
		{"empty line", func(h *harness, t *testing.T, req Message) {
			h.k.HandleStdin(h.inputReply(t, &req, ""))
		}, "got \n", ""},
		{"bad signature is dropped", func(h *harness, t *testing.T, req Message) {
			f := h.inputReply(t, &req, "forged")
			f[2] = []byte(strings.Repeat("0", 64))
			h.k.HandleStdin(f)
			h.k.HandleStdin(h.inputReply(t, &req, "signed"))
		}, "got signed\n", "signature"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			done := h.startCell(t, map[string]any{"code": "input ?", "allow_stdin": true})
			tc.reply(h, t, h.awaitInputRequest(t))
			<-done
			all := summarize(t, h.rec, h.signer)
			if got := streams(all, "stdout"); got != tc.stdout {
				t.Errorf("stdout %q, want %q", got, tc.stdout)
			}
			if r := messagesOf(all, "execute_reply"); len(r) != 1 || r[0].Content["status"] != "ok" {
				t.Errorf("execute_reply %v, want one ok", r)
			}
			if tc.logHas == "" && h.logbuf.Len() > 0 || !strings.Contains(h.logbuf.String(), tc.logHas) {
				t.Errorf("log %q, want it to contain %q", h.logbuf.String(), tc.logHas)
			}
		})
	}
}

// With allow_stdin false (nbclient, nbconvert) no input_request is sent
// and the engine's request fails at once with interp.ErrNoInput.
func TestInputNotAllowed(t *testing.T) {
	h := newHarness(t)
	h.k.Handle(Shell, 0, h.request(t, "execute_request", map[string]any{"code": "input never shown", "allow_stdin": false}))
	all := summarize(t, h.rec, h.signer)
	for _, s := range all {
		if s.Channel == "stdin" {
			t.Errorf("sent %s on stdin although allow_stdin is false", s.Type)
		}
	}
	if got := streams(all, "stderr"); !strings.Contains(got, "does not allow input") {
		t.Errorf("stderr %q, want the engine's ErrNoInput", got)
	}
}

// An interrupt while the cell waits for input ends the cell; a reply that
// comes afterwards is dropped, not given to the next cell.
func TestInterruptWhileWaitingForInput(t *testing.T) {
	h := newHarness(t)
	done := h.startCell(t, map[string]any{"code": "input first?", "allow_stdin": true, "stop_on_error": false})
	req := h.awaitInputRequest(t)
	h.k.Handle(Control, 0, h.request(t, "interrupt_request", map[string]any{}))
	<-done
	all := summarize(t, h.rec, h.signer)
	if r := messagesOf(all, "execute_reply"); len(r) != 1 || r[0].Content["ename"] != "Interrupted" {
		t.Fatalf("execute_reply %v, want one error Interrupted", r)
	}
	h.k.HandleStdin(h.inputReply(t, &req, "too late"))
	if !strings.Contains(h.logbuf.String(), "no input_request waits") {
		t.Errorf("log %q, want the late input_reply dropped", h.logbuf.String())
	}
	h.rec.msgs = nil
	done = h.startCell(t, map[string]any{"code": "input second?", "allow_stdin": true})
	next := h.awaitInputRequest(t)
	h.k.HandleStdin(h.inputReply(t, &next, "on time"))
	<-done
	if got := streams(summarize(t, h.rec, h.signer), "stdout"); got != "got on time\n" {
		t.Errorf("the next cell read %q, want \"got on time\"", got)
	}
}
