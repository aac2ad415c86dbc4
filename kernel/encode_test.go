package kernel

import (
	"testing"
)

// TestHandEncodersMatchJSON: the hand-written encoders give the bytes
// marshal gives the same values, for strings that need escaping too
// (quotes, backslashes, control characters, U+2028, bytes that are not
// UTF-8, HTML that marshal leaves alone).
func TestHandEncodersMatchJSON(t *testing.T) {
	strs := []string{"", "plain", `say "hi"`, `back\slash`, "line\nbreak\ttab\r\b\f", "\x00\x1f",
		"é ü 日本", "sep\u2028\u2029", "bad \xff\xfe utf8", "<b>&amp;</b>", "fmt.Println(1)\n1+1"}
	for _, s := range strs {
		want, err := marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
		h := Header{MsgID: s, Session: "sess-" + s, Username: s + "u", Date: "2026-11-28T00:00:00.000000Z", MsgType: s, Version: "5.3"}
		want, _ = marshal(h)
		if got := h.appendJSON(nil); string(got) != string(want) {
			t.Errorf("header with %q: %s, want %s", s, got, want)
		}
		for _, count := range []int{0, 7, 123456} {
			want, _ = marshal(map[string]any{"code": s, "execution_count": count})
			if got := executeInputContent(s, count); string(got) != string(want) {
				t.Errorf("execute_input(%q, %d) = %s, want %s", s, count, got, want)
			}
			want, _ = marshal(map[string]any{"status": "ok", "execution_count": count,
				"payload": []any{}, "user_expressions": map[string]any{}})
			if got := executeReplyOK(count); string(got) != string(want) {
				t.Errorf("execute_reply(%d) = %s, want %s", count, got, want)
			}
		}
	}
	for state, got := range statusContent {
		want, _ := marshal(map[string]string{"execution_state": state})
		if string(got) != string(want) {
			t.Errorf("status %s = %s, want %s", state, got, want)
		}
	}
}
