package kernel

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestOutputLimitCutsWithNotice: a cell that prints more than the output
// limit reaches the client up to the limit, then one notice; the next cell
// has a limit of its own, and clear_output starts the count again.
func TestOutputLimitCutsWithNotice(t *testing.T) {
	h := newHarness(t)
	h.k.cfg.OutputLimit = 100
	line := "print " + strings.Repeat("é", 9) // 19 bytes with its newline
	h.k.Handle(Shell, 0, h.request(t, "execute_request", map[string]any{"code": strings.Repeat(line+"\n", 30) + "html <b>big</b>"}))
	all := summarize(t, h.rec, h.signer)
	out := streams(all, "stdout")
	if len(out) > 100 || len(out) < 95 {
		t.Errorf("stdout got %d bytes, want the first 100 bytes or a character less", len(out))
	}
	if !utf8.ValidString(out) {
		t.Errorf("the cut stdout is not valid UTF-8: %q", out[len(out)-4:])
	}
	if n := len(messagesOf(all, "display_data")); n != 0 {
		t.Errorf("%d display_data after the limit, want none", n)
	}
	notice := streams(all, "stderr")
	if strings.Count(notice, "output limit of 100 bytes") != 1 || !strings.Contains(notice, "GOBAYES_OUTPUT_LIMIT") {
		t.Errorf("stderr %q, want one notice naming the limit and GOBAYES_OUTPUT_LIMIT", notice)
	}
	if r := messagesOf(all, "execute_reply")[0]; r.Content["status"] != "ok" {
		t.Errorf("reply %v, want ok: the cell goes on running", r.Content)
	}

	h.rec.msgs = nil
	h.k.Handle(Shell, 0, h.request(t, "execute_request", map[string]any{"code": strings.Repeat(line+"\n", 5) + "clear\n" + strings.Repeat(line+"\n", 5)}))
	all = summarize(t, h.rec, h.signer)
	if out := streams(all, "stdout"); len(out) != 10*19 {
		t.Errorf("next cell with a clear: stdout %d bytes, want all %d", len(out), 10*19)
	}
	if s := streams(all, "stderr"); s != "" {
		t.Errorf("next cell: stderr %q, want no notice", s)
	}
}

// TestCellTooLarge: a cell's source over Config.MaxCell is answered with
// an error, is not run, not counted and not kept in history.
func TestCellTooLarge(t *testing.T) {
	h := newHarness(t)
	h.k.cfg.MaxCell = 64
	h.k.Handle(Shell, 0, h.request(t, "execute_request", map[string]any{"code": "value " + strings.Repeat("x", 100)}))
	all := summarize(t, h.rec, h.signer)
	r := messagesOf(all, "execute_reply")[0].Content
	if r["status"] != "error" || r["ename"] != "CellTooLarge" || !strings.Contains(r["evalue"].(string), "106 bytes") {
		t.Errorf("reply %v, want error CellTooLarge naming the size", r)
	}
	if len(messagesOf(all, "error")) != 1 {
		t.Errorf("no error published on iopub")
	}
	if h.eng.executed != 0 {
		t.Errorf("the engine ran the cell")
	}
	if len(h.k.history.Tail(10)) != 0 {
		t.Errorf("the refused cell is in history")
	}
}

// TestHistoryIsBounded: the history keeps the latest cells within its
// limit, the latest always, and cuts long outputs.
func TestHistoryIsBounded(t *testing.T) {
	h := History{Limit: 100}
	for i := 1; i <= 10; i++ {
		h.Add(i, strings.Repeat("x", 30), nil)
	}
	got := h.Tail(100)
	if len(got) != 3 || got[0].Line != 8 || h.size != 90 {
		t.Errorf("kept %d cells from line %d (%d bytes), want lines 8–10 (90 bytes)", len(got), got[0].Line, h.size)
	}
	h.Add(11, strings.Repeat("y", 500), nil)
	if got := h.Tail(100); len(got) != 1 || got[0].Line != 11 {
		t.Errorf("after a cell larger than the limit: %d cells, want only it", len(got))
	}
	long := strings.Repeat("z", historyOutputMax+10)
	h.Add(12, "v", &long)
	if o := *h.Tail(1)[0].Output; len(o) > historyOutputMax+len("…") || !strings.HasSuffix(o, "…") {
		t.Errorf("a long output is kept with %d bytes, want it cut to %d and marked", len(o), historyOutputMax)
	}
}

// TestLargeRequestIsRefused: a request other than an execute whose
// content is over the limit gets an error reply and reaches no handler.
func TestLargeRequestIsRefused(t *testing.T) {
	h := newHarness(t)
	h.k.cfg.MaxCell = 64
	code := strings.Repeat("x", requestSlack+100)
	h.k.Handle(Shell, 0, h.request(t, "complete_request", map[string]any{"code": code, "cursor_pos": 3}))
	all := summarize(t, h.rec, h.signer)
	r := messagesOf(all, "complete_reply")
	if len(r) != 1 || r[0].Content["status"] != "error" || r[0].Content["ename"] != "RequestTooLarge" {
		t.Fatalf("replies %v, want one complete_reply with error RequestTooLarge", r)
	}
	if _, ok := r[0].Content["matches"]; ok {
		t.Errorf("the completer ran: %v", r[0].Content)
	}
}
