package kernel

import (
	"bytes"
	"context"
	"encoding/binary"
	"log"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestReplayIsDropped sends the same signed frames twice, on shell (by
// Handle and by Enqueue), control and stdin (issue 26 item 4): the second
// copy is dropped with a log line and runs nothing.
func TestReplayIsDropped(t *testing.T) {
	t.Run("shell", func(t *testing.T) {
		h := newHarness(t)
		frames := h.request(t, "execute_request", map[string]any{"code": "print once", "silent": false})
		h.k.Handle(Shell, 0, frames)
		h.k.Handle(Shell, 0, frames)
		h.k.Enqueue(frames)
		h.k.drainShell()
		if h.eng.executed != 1 {
			t.Errorf("the cell ran %d times, want 1", h.eng.executed)
		}
		if n := len(messagesOf(summarize(t, h.rec, h.signer), "execute_reply")); n != 1 {
			t.Errorf("%d execute_reply sent, want 1", n)
		}
		if !strings.Contains(h.logbuf.String(), "replay") {
			t.Errorf("the log does not say a replay was dropped:\n%s", h.logbuf.String())
		}
	})
	t.Run("control", func(t *testing.T) {
		h := newHarness(t)
		frames := h.request(t, "shutdown_request", map[string]any{"restart": true})
		h.k.Handle(Control, 0, frames)
		h.k.Handle(Control, 0, frames)
		if h.eng.resets != 1 {
			t.Errorf("the interpreter was reset %d times, want 1", h.eng.resets)
		}
	})
	t.Run("across channels", func(t *testing.T) {
		h := newHarness(t)
		frames := h.request(t, "kernel_info_request", map[string]any{})
		h.k.Handle(Shell, 0, frames)
		h.k.Handle(Control, 0, frames)
		if n := len(messagesOf(summarize(t, h.rec, h.signer), "kernel_info_reply")); n != 1 {
			t.Errorf("%d kernel_info_reply sent, want 1", n)
		}
	})
}

// TestReplayWindow: the guard remembers the last replayWindow signatures
// and forgets older ones, so its memory is bounded.
func TestReplayWindow(t *testing.T) {
	var g replayGuard
	sig := func(i int) []byte {
		var b [32]byte
		b[0], b[1], b[2] = byte(i), byte(i>>8), byte(i>>16)
		return b[:]
	}
	for i := 0; i < replayWindow; i++ {
		if !g.first(sig(i)) {
			t.Fatalf("signature %d was reported seen on its first arrival", i)
		}
	}
	if g.first(sig(0)) || g.first(sig(replayWindow-1)) {
		t.Fatalf("a signature within the window was accepted twice")
	}
	g.first(sig(replayWindow)) // pushes out signature 0
	if !g.first(sig(0)) {
		t.Errorf("signature 0, out of the window, is still refused")
	}
	if g.len() > replayWindow {
		t.Errorf("the guard holds %d signatures, over %d", g.len(), replayWindow)
	}
}

// TestReplayGuardAgainstSet drives the guard through several windows of
// random digests, with repeats from inside and outside the window, and
// compares every answer with a plain set of the last replayWindow digests:
// the table's deletion by back-shifting must keep every remembered digest
// reachable, and forget exactly those pushed out.
func TestReplayGuardAgainstSet(t *testing.T) {
	var g replayGuard
	rng := rand.New(rand.NewPCG(7, 9))
	var order []uint64
	set := map[uint64]int{}
	sig := func(d uint64) []byte {
		var b [32]byte
		binary.LittleEndian.PutUint64(b[:8], d)
		return b[:]
	}
	for step := 0; step < 3*replayWindow; step++ {
		var d uint64
		switch r := rng.IntN(10); {
		case r == 0 && len(order) > 0: // a repeat, perhaps out of the window
			d = order[rng.IntN(len(order))]
		case r == 1: // digests that differ in their high bits only
			d = uint64(rng.IntN(64))<<58 | 5
		default:
			d = rng.Uint64() | 1
		}
		want := set[d] == 0
		if got := g.first(sig(d)); got != want {
			t.Fatalf("step %d: first(%#x) = %v, the set says %v", step, d, got, want)
		}
		if want {
			order = append(order, d)
			set[d]++
			if len(order) > replayWindow {
				old := order[len(order)-replayWindow-1]
				set[old]--
			}
		}
	}
	if g.len() != replayWindow {
		t.Errorf("the guard holds %d signatures, want %d", g.len(), replayWindow)
	}
}

// TestWronglyTypedFieldsGetErrorReply sends signed requests whose fields
// have the wrong type (issue 26 item 5): each gets an error reply naming
// the field, and no cell runs.
func TestWronglyTypedFieldsGetErrorReply(t *testing.T) {
	for _, tc := range []struct {
		ch           Channel
		typ, content string
		reply, field string
	}{
		{Shell, "execute_request", `{"code": 5}`, "execute_reply", "code"},
		{Shell, "execute_request", `{"code": "print a", "silent": "yes"}`, "execute_reply", "silent"},
		{Shell, "execute_request", `{"code": "print a", "user_expressions": {"x": 3}}`, "execute_reply", "user_expressions"},
		{Shell, "complete_request", `{"code": "fm", "cursor_pos": 9223372036854775808}`, "complete_reply", "cursor_pos"},
		{Shell, "inspect_request", `{"code": "x", "cursor_pos": "1"}`, "inspect_reply", "cursor_pos"},
		{Shell, "is_complete_request", `{"code": ["x"]}`, "is_complete_reply", "code"},
		{Shell, "history_request", `{"hist_access_type": "tail", "n": "3"}`, "history_reply", "n"},
		{Shell, "comm_info_request", `{"target_name": 1}`, "comm_info_reply", "target_name"},
		{Shell, "execute_request", `{"code": "print a"`, "execute_reply", "JSON"},
		{Control, "shutdown_request", `{"restart": "yes"}`, "shutdown_reply", "restart"},
	} {
		t.Run(tc.typ+" "+tc.content, func(t *testing.T) {
			h := newHarness(t)
			m, err := h.client.Message(tc.typ, nil, map[string]any{})
			if err != nil {
				t.Fatal(err)
			}
			m.Content = []byte(tc.content)
			m.Identities = [][]byte{[]byte("peer")}
			frames, err := m.Encode(h.signer)
			if err != nil {
				t.Fatal(err)
			}
			h.k.Handle(tc.ch, 0, frames)
			replies := messagesOf(summarize(t, h.rec, h.signer), tc.reply)
			if len(replies) != 1 {
				t.Fatalf("%d %s sent, want 1; log:\n%s", len(replies), tc.reply, h.logbuf.String())
			}
			c := replies[0].Content
			if c["status"] != "error" || c["ename"] == nil || c["traceback"] == nil {
				t.Errorf("reply %v, want status error with ename, evalue, traceback", c)
			}
			if ev, _ := c["evalue"].(string); !strings.Contains(ev, tc.field) {
				t.Errorf("evalue %q does not name %q", ev, tc.field)
			}
			if tc.reply == "execute_reply" && c["execution_count"] == nil {
				t.Errorf("execute_reply %v has no execution_count", c)
			}
			if h.eng.executed != 0 || h.eng.resets != 0 {
				t.Errorf("a request with a wrongly typed field ran (%d cells, %d resets)", h.eng.executed, h.eng.resets)
			}
			select {
			case <-h.k.Stopped():
				t.Errorf("a shutdown_request with a wrongly typed field stopped the kernel")
			default:
			}
		})
	}
}

// TestEmptyKeyWarns: a kernel served with an empty key says at start that
// messages are not authenticated (issue 26 item 6), as jupyter_client does.
func TestEmptyKeyWarns(t *testing.T) {
	for _, key := range []string{"", testKey} {
		p := freePorts(t, 5)
		info := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: p[0], ControlPort: p[1],
			IOPubPort: p[2], StdinPort: p[3], HBPort: p[4], SignatureScheme: "hmac-sha256", Key: key}
		var lb syncBuffer
		k, err := New(Config{Engine: &scriptEngine{}, Scheme: info.SignatureScheme, Key: key, Log: log.New(&lb, "", 0)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		k.Serve(ctx, info)
		warned := strings.Contains(lb.String(), "not authenticated")
		if warned != (key == "") {
			t.Errorf("key %q: warned %v, want %v; log:\n%s", key, warned, key == "", lb.String())
		}
	}
}

// TestUppercaseSignatureIsRefused: a signature is the lowercase hex digest,
// compared exactly (issue 26 item 6).
func TestUppercaseSignatureIsRefused(t *testing.T) {
	h := newHarness(t)
	frames := h.request(t, "execute_request", map[string]any{"code": "print hi", "silent": false})
	d := 0
	for i, f := range frames {
		if string(f) == delimiter {
			d = i
		}
	}
	frames[d+1] = bytes.ToUpper(frames[d+1])
	h.k.Handle(Shell, 0, frames)
	if h.eng.executed != 0 || len(h.rec.all()) != 0 {
		t.Errorf("a message signed in uppercase hex ran (%d cells, %d messages sent)", h.eng.executed, len(h.rec.all()))
	}
}

// TestInvalidUTF8IsNotEchoed: a signed request whose header is not UTF-8
// is dropped with a log line (issue 26 item 6): a reply would echo the
// header, as its parent, into every client's JSON decoder.
func TestInvalidUTF8IsNotEchoed(t *testing.T) {
	h := newHarness(t)
	m, _ := h.client.Message("kernel_info_request", nil, map[string]any{})
	m.Header.Username = "bad\xff\xfe"
	m.Identities = [][]byte{[]byte("peer")}
	frames, err := m.Encode(h.signer)
	if err != nil {
		t.Fatal(err)
	}
	d := 0
	for i, f := range frames {
		if string(f) == delimiter {
			d = i
		}
	}
	// json.Marshal wrote the bad bytes as U+FFFD: put them back, and sign.
	frames[d+2] = bytes.ReplaceAll(frames[d+2], []byte(`\ufffd\ufffd`), []byte("\xff\xfe"))
	frames[d+1] = []byte(h.signer.Sign(frames[d+2 : d+6]...))
	if utf8.Valid(frames[d+2]) {
		t.Fatal("the test's header is valid UTF-8")
	}
	h.k.Handle(Shell, 0, frames)
	for _, s := range h.rec.all() {
		for _, f := range s.frames {
			if !utf8.Valid(f) {
				t.Errorf("the kernel sent a frame that is not UTF-8: %q", f)
			}
		}
	}
	if len(h.rec.all()) != 0 {
		t.Errorf("the kernel answered a request whose header is not UTF-8 (%d messages)", len(h.rec.all()))
	}
	if !strings.Contains(h.logbuf.String(), "UTF-8") {
		t.Errorf("the log does not say why the request was dropped:\n%s", h.logbuf.String())
	}
}
