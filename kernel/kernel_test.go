package kernel

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fixedOrigin is an Origin with a frozen clock and counted ids, so that the
// frames a kernel sends are the same on every run.
func fixedOrigin(session string) Origin {
	var n atomic.Int64 // shell and control make headers concurrently
	return Origin{
		Session: session, Username: "test",
		Now:   func() time.Time { return time.Date(2026, 11, 22, 2, 0, 0, 123456000, time.UTC) },
		NewID: func() string { return fmt.Sprintf("%s-%04d", session, n.Add(1)) },
	}
}

// sent is one message a kernel sent, as frames.
type sent struct {
	ch     Channel
	frames [][]byte
}

// recorder is a Sink that keeps what is sent.
type recorder struct {
	mu   sync.Mutex
	msgs []sent
}

func (r *recorder) Send(ch Channel, frames [][]byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, sent{ch, frames})
	return nil
}

func (r *recorder) all() []sent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]sent(nil), r.msgs...)
}

// decoded returns the messages sent so far, verified with s.
func (r *recorder) decoded(t *testing.T, s *Signer) []Message {
	t.Helper()
	var out []Message
	for _, m := range r.all() {
		d, err := Decode(m.frames, s)
		if err != nil {
			t.Fatalf("kernel sent a message that does not decode: %v", err)
		}
		out = append(out, d)
	}
	return out
}

const testKey = "a0b1c2d3-test-key"

type harness struct {
	k      *Kernel
	rec    *recorder
	eng    *scriptEngine
	client Origin
	signer *Signer
	logbuf *bytes.Buffer
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	eng := &scriptEngine{}
	rec := &recorder{}
	var logbuf bytes.Buffer
	k, err := New(Config{
		Engine: eng, Scheme: "hmac-sha256", Key: testKey, Origin: fixedOrigin("kernel"),
		Version: "0.0.0-test", GoVersion: "1.26.0", Log: log.New(&logbuf, "", 0), AbortGrace: -1,
	}, rec)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := NewSigner("hmac-sha256", testKey)
	return &harness{k: k, rec: rec, eng: eng, client: fixedOrigin("client"), signer: s, logbuf: &logbuf}
}

// request returns the signed frames of a client request, routed from the
// client identity "peer".
func (h *harness) request(t *testing.T, msgType string, content any) [][]byte {
	t.Helper()
	return h.frames(t, msgType, nil, content)
}

// frames returns the signed frames of a client message with the given
// parent (nil: none), routed from the client identity "peer".
func (h *harness) frames(t *testing.T, msgType string, parent *Message, content any) [][]byte {
	t.Helper()
	m, err := h.client.Message(msgType, parent, content)
	if err != nil {
		t.Fatal(err)
	}
	m.Identities = [][]byte{[]byte("peer")}
	frames, err := m.Encode(h.signer)
	if err != nil {
		t.Fatal(err)
	}
	return frames
}

// summary is the part of a sent message that tests compare.
type summary struct {
	Channel string
	Type    string
	Parent  string
	Content map[string]any
}

func summarize(t *testing.T, rec *recorder, s *Signer) []summary {
	t.Helper()
	var out []summary
	for i, m := range rec.decoded(t, s) {
		var parent Header
		json.Unmarshal(m.Parent, &parent)
		var content map[string]any
		if err := json.Unmarshal(m.Content, &content); err != nil {
			t.Fatalf("message %d content: %v", i, err)
		}
		out = append(out, summary{rec.all()[i].ch.String(), m.Header.MsgType, parent.MsgID, content})
	}
	return out
}

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./kernel -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("frames differ from %s (run go test ./kernel -update after checking the change)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// frameText renders sent frames one per line, for golden files.
func frameText(msgs []sent) []byte {
	var b bytes.Buffer
	for _, m := range msgs {
		fmt.Fprintf(&b, "== %s\n", m.ch)
		for _, f := range m.frames {
			fmt.Fprintf(&b, "%s\n", f)
		}
	}
	return b.Bytes()
}

// TestGoldenFrames pins the exact frames of a short session: kernel_info,
// a cell that prints, displays and has a value, a failing cell, complete,
// inspect and is_complete.
func TestGoldenFrames(t *testing.T) {
	h := newHarness(t)
	h.k.PublishStarting()
	reqs := []struct {
		msgType string
		content any
	}{
		{"kernel_info_request", map[string]any{}},
		{"execute_request", map[string]any{"code": "print hello\nhtml <b>x</b>\nvalue 42", "silent": false, "store_history": true, "user_expressions": map[string]any{"e": "x"}, "allow_stdin": false, "stop_on_error": true}},
		{"execute_request", map[string]any{"code": "fail boom", "silent": false, "store_history": true, "stop_on_error": false}},
		{"complete_request", map[string]any{"code": "fmt.Print", "cursor_pos": 9}},
		{"inspect_request", map[string]any{"code": "fmt.Println", "cursor_pos": 5, "detail_level": 0}},
		{"is_complete_request", map[string]any{"code": "func f() {"}},
	}
	for _, r := range reqs {
		h.k.Handle(Shell, 0, h.request(t, r.msgType, r.content))
	}
	golden(t, "session.golden", frameText(h.rec.all()))
}

func TestBusyIdleAroundEveryRequest(t *testing.T) {
	for _, tc := range []struct {
		ch      Channel
		msgType string
		reply   string
	}{
		{Shell, "kernel_info_request", "kernel_info_reply"},
		{Control, "kernel_info_request", "kernel_info_reply"},
		{Shell, "complete_request", "complete_reply"},
		{Shell, "history_request", "history_reply"},
		{Shell, "comm_info_request", "comm_info_reply"},
		{Control, "interrupt_request", "interrupt_reply"},
	} {
		t.Run(tc.ch.String()+"/"+tc.msgType, func(t *testing.T) {
			h := newHarness(t)
			h.k.Handle(tc.ch, 0, h.request(t, tc.msgType, map[string]any{"hist_access_type": "tail", "n": 1}))
			got := summarize(t, h.rec, h.signer)
			if len(got) != 3 {
				t.Fatalf("sent %d messages, want 3 (busy, reply, idle): %+v", len(got), got)
			}
			want := []struct{ ch, typ, state string }{
				{"iopub", "status", "busy"}, {tc.ch.String(), tc.reply, ""}, {"iopub", "status", "idle"},
			}
			for i, w := range want {
				g := got[i]
				if g.Channel != w.ch || g.Type != w.typ || (w.state != "" && g.Content["execution_state"] != w.state) {
					t.Errorf("message %d = %s %s %v, want %s %s %s", i, g.Channel, g.Type, g.Content, w.ch, w.typ, w.state)
				}
				if g.Parent != "client-0001" {
					t.Errorf("message %d has parent %q, want the request client-0001", i, g.Parent)
				}
			}
		})
	}
}

func TestBadSignatureIsDroppedNotExecuted(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tamper func([][]byte) [][]byte
	}{
		{"wrong signature", func(f [][]byte) [][]byte { f[2] = bytes.Repeat([]byte("0"), 64); return f }},
		{"missing signature", func(f [][]byte) [][]byte { f[2] = []byte{}; return f }},
		{"content changed after signing", func(f [][]byte) [][]byte {
			f[6] = []byte(`{"code":"print evil","silent":false}`)
			return f
		}},
		{"no delimiter", func(f [][]byte) [][]byte { return append(f[:1:1], f[2:]...) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			frames := h.request(t, "execute_request", map[string]any{"code": "print hi", "silent": false})
			h.k.Handle(Shell, 0, tc.tamper(frames))
			if n := len(h.rec.all()); n != 0 {
				t.Errorf("kernel sent %d messages for a message that does not verify, want none", n)
			}
			if h.k.executionCount != 0 {
				t.Errorf("execution count is %d, want 0: the message must not be executed", h.k.executionCount)
			}
			if !strings.Contains(h.logbuf.String(), "dropped") {
				t.Errorf("log %q does not say the message was dropped", h.logbuf.String())
			}
		})
	}
}

func TestEmptyKeyMeansNoSigning(t *testing.T) {
	eng := &scriptEngine{}
	rec := &recorder{}
	k, err := New(Config{Engine: eng, Origin: fixedOrigin("kernel")}, rec)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := fixedOrigin("client").Message("kernel_info_request", nil, map[string]any{})
	none, _ := NewSigner("", "")
	frames, _ := m.Encode(none)
	k.Handle(Shell, 0, frames)
	msgs := rec.all()
	if len(msgs) != 3 {
		t.Fatalf("sent %d messages, want 3", len(msgs))
	}
	for _, s := range msgs {
		d := 0
		for i, f := range s.frames {
			if string(f) == delimiter {
				d = i
			}
		}
		if sig := s.frames[d+1]; len(sig) != 0 {
			t.Errorf("with an empty key the signature frame is %q, want empty", sig)
		}
	}
}

// messagesOf returns the summaries of one type.
func messagesOf(all []summary, typ string) []summary {
	var out []summary
	for _, s := range all {
		if s.Type == typ {
			out = append(out, s)
		}
	}
	return out
}

func TestExecute(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content map[string]any
		// wantTypes are the messages between busy and idle, in order.
		wantTypes []string
		status    string
		count     float64
	}{
		{"output in order", map[string]any{"code": "print a\neprint b\nupdate p 10%\nupdate p 20%\nclear\nvalue v", "silent": false},
			[]string{"execute_input", "stream", "stream", "display_data", "update_display_data", "clear_output", "execute_result", "execute_reply"}, "ok", 1},
		{"silent publishes nothing and counts nothing", map[string]any{"code": "print a\nvalue v", "silent": true},
			[]string{"execute_reply"}, "ok", 0},
		{"store_history false does not count", map[string]any{"code": "value v", "silent": false, "store_history": false},
			[]string{"execute_input", "execute_result", "execute_reply"}, "ok", 0},
		{"error", map[string]any{"code": "fail bad", "silent": false},
			[]string{"execute_input", "error", "execute_reply"}, "error", 1},
		{"pager", map[string]any{"code": "page docs", "silent": false},
			[]string{"execute_input", "execute_reply"}, "ok", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.k.Handle(Shell, 0, h.request(t, "execute_request", tc.content))
			all := summarize(t, h.rec, h.signer)
			var types []string
			for _, s := range all[1 : len(all)-1] {
				types = append(types, s.Type)
			}
			if strings.Join(types, " ") != strings.Join(tc.wantTypes, " ") {
				t.Fatalf("messages %v, want %v", types, tc.wantTypes)
			}
			reply := messagesOf(all, "execute_reply")[0]
			if reply.Content["status"] != tc.status || reply.Content["execution_count"] != tc.count {
				t.Errorf("reply %v, want status %s execution_count %v", reply.Content, tc.status, tc.count)
			}
		})
	}
}

func TestExecuteContents(t *testing.T) {
	h := newHarness(t)
	h.k.Handle(Shell, 0, h.request(t, "execute_request", map[string]any{
		"code": "update p 10%\nupdate p 20%\npage the docs", "silent": false,
		"user_expressions": map[string]any{"good": "x", "broken": "bad"},
	}))
	all := summarize(t, h.rec, h.signer)
	disp := messagesOf(all, "display_data")[0]
	upd := messagesOf(all, "update_display_data")[0]
	for _, m := range []summary{disp, upd} {
		tr, _ := m.Content["transient"].(map[string]any)
		if tr["display_id"] != "p" {
			t.Errorf("%s transient %v, want display_id p", m.Type, m.Content["transient"])
		}
	}
	if upd.Content["data"].(map[string]any)["text/plain"] != "20%" {
		t.Errorf("update carries %v, want 20%%", upd.Content["data"])
	}
	reply := messagesOf(all, "execute_reply")[0].Content
	payload := reply["payload"].([]any)
	if len(payload) != 1 {
		t.Fatalf("payload %v, want one page", payload)
	}
	page := payload[0].(map[string]any)
	if page["source"] != "page" || page["data"].(map[string]any)["text/plain"] != "the docs" {
		t.Errorf("payload %v, want source page with text/plain \"the docs\"", page)
	}
	ue := reply["user_expressions"].(map[string]any)
	if g := ue["good"].(map[string]any); g["status"] != "ok" || g["data"].(map[string]any)["text/plain"] != "<x>" {
		t.Errorf("user expression good = %v, want ok <x>", g)
	}
	if b := ue["broken"].(map[string]any); b["status"] != "error" || b["ename"] != "CompileError" {
		t.Errorf("user expression broken = %v, want error CompileError", b)
	}
}

// TestStopOnErrorAbortsQueued checks ipykernel's behaviour: after a failing
// cell with stop_on_error, execute requests already queued are answered
// "aborted" without running; requests arriving later run.
func TestStopOnErrorAbortsQueued(t *testing.T) {
	for _, tc := range []struct {
		stopOnError bool
		want        []string // statuses of the four replies
	}{
		{true, []string{"error", "aborted", "aborted", "ok"}},
		{false, []string{"error", "ok", "ok", "ok"}},
	} {
		t.Run(fmt.Sprint("stop_on_error=", tc.stopOnError), func(t *testing.T) {
			h := newHarness(t)
			h.k.Enqueue(h.request(t, "execute_request", map[string]any{"code": "fail first", "stop_on_error": tc.stopOnError}))
			h.k.Enqueue(h.request(t, "execute_request", map[string]any{"code": "print queued1"}))
			h.k.Enqueue(h.request(t, "execute_request", map[string]any{"code": "print queued2"}))
			h.k.drainShell()
			h.k.Enqueue(h.request(t, "execute_request", map[string]any{"code": "print later"}))
			h.k.drainShell()
			var got []string
			for _, r := range messagesOf(summarize(t, h.rec, h.signer), "execute_reply") {
				got = append(got, r.Content["status"].(string))
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("reply statuses %v, want %v", got, tc.want)
			}
			// An aborted reply carries no execution_count, as ipykernel's:
			// Notebook would number the cell that never ran (In [2]:)
			// and show it with no output, as if it had printed nothing.
			for _, r := range messagesOf(summarize(t, h.rec, h.signer), "execute_reply") {
				if _, has := r.Content["execution_count"]; has && r.Content["status"] == "aborted" {
					t.Errorf("an aborted reply has an execution_count: %v", r.Content)
				}
			}
			if tc.stopOnError {
				for _, s := range messagesOf(summarize(t, h.rec, h.signer), "stream") {
					if strings.Contains(s.Content["text"].(string), "queued") {
						t.Errorf("aborted cell ran: %v", s.Content)
					}
				}
			}
		})
	}
}

// TestLateOutputIsPublished: what a cell's goroutines print or display
// after the cell has ended (the engine hands it to the latest cell's
// events) is published with that cell's request as parent, as ipykernel
// does; it was dropped.
func TestLateOutputIsPublished(t *testing.T) {
	h := newHarness(t)
	h.k.Enqueue(h.request(t, "execute_request", map[string]any{"code": "print in the cell"}))
	h.k.drainShell()
	h.eng.last.Stream("stdout", "after the cell\n")
	h.eng.last.Display(*text("a late figure"), "late", false)
	all := summarize(t, h.rec, h.signer)
	reply := messagesOf(all, "execute_reply")
	if len(reply) != 1 {
		t.Fatalf("%d execute replies", len(reply))
	}
	var late []string
	for _, s := range all {
		if s.Type == "stream" && s.Content["text"] == "after the cell\n" || s.Type == "display_data" {
			late = append(late, s.Type)
			if s.Parent != reply[0].Parent {
				t.Errorf("late %s parented by %q, the cell's request is %q", s.Type, s.Parent, reply[0].Parent)
			}
		}
	}
	if len(late) != 2 {
		t.Errorf("late output published: %v, want the stream and the display", late)
	}
}

// drainShell handles every queued shell request, for tests.
func (k *Kernel) drainShell() {
	for {
		k.queueMu.Lock()
		if len(k.queue) == 0 {
			k.queueMu.Unlock()
			return
		}
		next := k.queue[0]
		k.queue = k.queue[1:]
		k.queueMu.Unlock()
		k.dispatch(Shell, next.seq, &next.req)
	}
}

// TestInterruptOnControlWhileCellRuns sends interrupt_request on control
// while a cell blocks on shell: control must be answered and the cell
// cancelled.
func TestInterruptOnControlWhileCellRuns(t *testing.T) {
	h := newHarness(t)
	h.eng.started = make(chan struct{})
	done := make(chan struct{})
	go func() {
		h.k.Handle(Shell, 0, h.request(t, "execute_request", map[string]any{"code": "block"}))
		close(done)
	}()
	<-h.eng.started
	h.k.Handle(Control, 0, h.request(t, "interrupt_request", map[string]any{}))
	<-done
	all := summarize(t, h.rec, h.signer)
	if len(messagesOf(all, "interrupt_reply")) != 1 {
		t.Errorf("no interrupt_reply in %v", all)
	}
	reply := messagesOf(all, "execute_reply")
	if len(reply) != 1 || reply[0].Content["ename"] != "Interrupted" {
		t.Errorf("execute_reply %v, want one error Interrupted", reply)
	}
}

func TestShutdown(t *testing.T) {
	for _, restart := range []bool{false, true} {
		for _, ch := range []Channel{Shell, Control} {
			t.Run(fmt.Sprintf("%s/restart=%v", ch, restart), func(t *testing.T) {
				h := newHarness(t)
				h.k.Handle(ch, 0, h.request(t, "shutdown_request", map[string]any{"restart": restart}))
				select {
				case <-h.k.Stopped():
				default:
					t.Fatal("kernel did not stop after shutdown_request")
				}
				all := summarize(t, h.rec, h.signer)
				replies := messagesOf(all, "shutdown_reply")
				if len(replies) != 2 || replies[0].Channel != ch.String() || replies[1].Channel != "iopub" {
					t.Fatalf("shutdown_reply sent as %v, want on %s and iopub", replies, ch)
				}
				if replies[0].Content["restart"] != restart || h.k.RestartRequested() != restart {
					t.Errorf("reply restart %v, RestartRequested %v, want %v", replies[0].Content["restart"], h.k.RestartRequested(), restart)
				}
				wantResets := 0
				if restart {
					wantResets = 1
				}
				if h.eng.resets != wantResets {
					t.Errorf("engine reset %d times, want %d", h.eng.resets, wantResets)
				}
			})
		}
	}
}

func TestCommOpenIsClosed(t *testing.T) {
	h := newHarness(t)
	h.k.Handle(Shell, 0, h.request(t, "comm_open", map[string]any{"comm_id": "c1", "target_name": "jupyter.widget", "data": map[string]any{}}))
	closes := messagesOf(summarize(t, h.rec, h.signer), "comm_close")
	if len(closes) != 1 || closes[0].Content["comm_id"] != "c1" || closes[0].Channel != "iopub" {
		t.Errorf("comm_close %v, want one on iopub for c1", closes)
	}
}

// A comm the interpreter serves: opened, listed by comm_info, its messages
// handled with their output and replies parented by the comm_msg; bad
// input (unknown ids, content that is not a comm message) is dropped and
// the kernel goes on.
func TestCommRouting(t *testing.T) {
	h := newHarness(t)
	h.k.Handle(Shell, 0, h.request(t, "comm_open", map[string]any{"comm_id": "c1", "target_name": "test.echo", "data": map[string]any{}}))
	h.k.Handle(Shell, 0, h.request(t, "comm_msg", map[string]any{"comm_id": "nobody", "data": map[string]any{"say": "lost"}}))
	h.k.Handle(Shell, 0, h.request(t, "comm_msg", map[string]any{"comm_id": "c1", "data": "not an object"}))
	h.k.Handle(Shell, 0, h.request(t, "comm_info_request", map[string]any{"target_name": "test.echo"}))
	msg := h.request(t, "comm_msg", map[string]any{"comm_id": "c1", "data": map[string]any{"say": "hello"}})
	h.k.Handle(Shell, 0, msg)
	h.k.Handle(Control, 0, h.request(t, "comm_info_request", map[string]any{}))
	all := summarize(t, h.rec, h.signer)
	if closes := messagesOf(all, "comm_close"); len(closes) != 0 {
		t.Errorf("comm_close %v: the echo target serves c1", closes)
	}
	infos := messagesOf(all, "comm_info_reply")
	want := map[string]any{"c1": map[string]any{"target_name": "test.echo"}}
	if len(infos) != 2 || !reflect.DeepEqual(infos[0].Content["comms"], want) || !reflect.DeepEqual(infos[1].Content["comms"], want) {
		t.Errorf("comm_info_reply %v, want comms %v twice", infos, want)
	}
	streams := messagesOf(all, "stream")
	if len(streams) != 1 || streams[0].Content["text"] != "hello\n" {
		t.Errorf("streams %v, want the handler's hello only", streams)
	}
	replies := messagesOf(all, "comm_msg")
	req, _ := Decode(msg, h.signer)
	if len(replies) != 1 || replies[0].Channel != "iopub" ||
		!reflect.DeepEqual(replies[0].Content["data"], map[string]any{"said": "hello", "parent": req.Header.MsgID}) {
		t.Errorf("comm_msg from the kernel %v, want the echo with parent %s", replies, req.Header.MsgID)
	}
}

func TestIsCompleteReply(t *testing.T) {
	for _, tc := range []struct {
		code, status, indent string
	}{
		{"x := 1", "complete", ""},
		{"func f() {", "incomplete", "\t"},
	} {
		h := newHarness(t)
		h.k.Handle(Shell, 0, h.request(t, "is_complete_request", map[string]any{"code": tc.code}))
		r := messagesOf(summarize(t, h.rec, h.signer), "is_complete_reply")[0].Content
		indent, _ := r["indent"].(string)
		if r["status"] != tc.status || indent != tc.indent {
			t.Errorf("is_complete(%q) = %v, want %s %q", tc.code, r, tc.status, tc.indent)
		}
	}
}

// waitingRecorder is a recorder that counts how often the kernel waited
// for an iopub subscriber.
type waitingRecorder struct {
	recorder
	waits int
}

func (w *waitingRecorder) WaitSubscriber(time.Duration) bool { w.waits++; return true }

func TestOnlyTheFirstRequestWaitsForIOPub(t *testing.T) {
	h := newHarness(t)
	w := &waitingRecorder{}
	h.k.sink = w
	for i := 0; i < 3; i++ {
		h.k.Handle(Shell, 0, h.request(t, "kernel_info_request", map[string]any{}))
	}
	if w.waits != 1 {
		t.Errorf("waited for a subscriber %d times, want once (the first request)", w.waits)
	}
	if n := len(w.all()); n != 9 {
		t.Errorf("sent %d messages, want 9 (busy, reply, idle three times)", n)
	}
}
