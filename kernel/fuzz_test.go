package kernel

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// fuzzFrames are signed frames of each kind of request a client sends,
// the seeds of the fuzz targets.
func fuzzFrames(t testing.TB, h *harness) [][][]byte {
	var out [][][]byte
	for _, c := range []struct {
		typ     string
		content any
	}{
		{"kernel_info_request", map[string]any{}},
		{"execute_request", map[string]any{"code": "print hi", "silent": false, "store_history": true, "user_expressions": map[string]any{}, "allow_stdin": false}},
		{"complete_request", map[string]any{"code": "fm", "cursor_pos": 2}},
		{"inspect_request", map[string]any{"code": "x", "cursor_pos": 1, "detail_level": 0}},
		{"is_complete_request", map[string]any{"code": "if x {"}},
		{"history_request", map[string]any{"hist_access_type": "tail", "n": 3}},
		{"comm_info_request", map[string]any{}},
		{"interrupt_request", map[string]any{}},
	} {
		m, err := h.client.Message(c.typ, nil, c.content)
		if err != nil {
			t.Fatal(err)
		}
		m.Identities = [][]byte{[]byte("peer")}
		f, err := m.Encode(h.signer)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

// joinFrames and splitFrames carry a message's frames through the fuzzer
// as one byte string.
func joinFrames(f [][]byte) []byte { return bytes.Join(f, []byte{0xff, 0x00, 0xff}) }

func splitFrames(b []byte) [][]byte { return bytes.Split(b, []byte{0xff, 0x00, 0xff}) }

// FuzzDecode: any frames decode or are refused with an error, never a
// panic; what decodes encodes back to frames that decode to the same
// header and content.
func FuzzDecode(f *testing.F) {
	h := newHarness(f)
	for _, fr := range fuzzFrames(f, h) {
		f.Add(joinFrames(fr))
	}
	f.Add([]byte("<IDS|MSG>"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(splitFrames(b), h.signer)
		if err != nil {
			return
		}
		frames, err := m.Encode(h.signer)
		if err != nil {
			return // content that is not JSON cannot be re-encoded as such
		}
		m2, err := Decode(frames, h.signer)
		if err != nil || m2.Header != m.Header || !bytes.Equal(orEmpty(m2.Content), orEmpty(m.Content)) {
			t.Fatalf("round trip: %v\n%+v\n%+v", err, m.Header, m2.Header)
		}
	})
}

// FuzzHandle: signed messages of any type with any content (malformed
// JSON, wrong types, huge or unknown) reach the dispatcher, which answers
// or drops them and never panics or runs code for anything but an
// execute_request; the kernel keeps serving afterwards.
func FuzzHandle(f *testing.F) {
	h := newHarness(f)
	for _, fr := range fuzzFrames(f, h) {
		m, err := Decode(fr, h.signer)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(m.Header.MsgType, []byte(m.Content))
	}
	f.Add("execute_request", []byte(`{"code": 5}`))
	f.Add("execute_request", []byte(`{"code": "print a", "user_expressions": {"x": 3}}`))
	f.Add("complete_request", []byte(`{"code": "abc", "cursor_pos": 99}`))
	f.Add("inspect_request", []byte(`{"code": "", "cursor_pos": -4}`))
	f.Add("history_request", []byte(`{"hist_access_type": "range", "start": -1, "stop": 1e12}`))
	f.Add("comm_msg", []byte(`{"comm_id": null, "data": [1, 2]}`))
	f.Add("no_such_request", []byte(`{`))
	f.Fuzz(func(t *testing.T, typ string, content []byte) {
		if bytes.Contains(content, []byte("block")) || bytes.Contains(content, []byte("input")) {
			return // the stand-in engine's commands that wait for an interrupt or a reply
		}
		m, err := h.client.Message(typ, nil, json.RawMessage(`{}`))
		if err != nil {
			return
		}
		m.Content = content
		m.Identities = [][]byte{[]byte("peer")}
		frames, err := m.Encode(h.signer)
		if err != nil {
			return
		}
		before := h.eng.executed
		h.k.Handle(Shell, 0, frames)
		if h.eng.executed != before && typ != "execute_request" {
			t.Fatalf("a %q message ran a cell", typ)
		}
		if strings.Contains(h.logbuf.String(), "panic") {
			t.Fatalf("a handler panicked on %q %q:\n%s", typ, content, h.logbuf.String())
		}
	})
}
