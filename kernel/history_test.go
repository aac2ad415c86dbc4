package kernel

import (
	"fmt"
	"testing"
)

func TestGlobMatch(t *testing.T) {
	// Expected values follow SQLite's GLOB operator (sqlite3: SELECT s GLOB p),
	// which IPython's history search uses.
	for _, tc := range []struct {
		pattern, s string
		want       bool
	}{
		{"*", "", true},
		{"*", "anything", true},
		{"1?2*", "1+2", true},
		{"1?2*", "1+23", true},
		{"1?2*", "12", false},
		{"fmt.*", "fmt.Println(1)", true},
		{"*Println*", "fmt.Println(1)", true},
		{"*println*", "fmt.Println(1)", false}, // case-sensitive
		{"a/*", "a/b/c", true},                 // * crosses slashes, unlike path.Match
		{"[abc]x", "bx", true},
		{"[abc]x", "dx", false},
		{"[^abc]x", "dx", true},
		{"[^abc]x", "ax", false},
		{"[a-c]", "b", true},
		{"[a-c]", "d", false},
		{"[]]", "]", true},
		{"x", "xy", false},
		{"xy", "x", false},
		{"*.go", "main.go", true},
		{"日?", "日本", true},
	} {
		if got := globMatch([]rune(tc.pattern), []rune(tc.s)); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tc.pattern, tc.s, got, tc.want)
		}
	}
}

func TestHistory(t *testing.T) {
	var h History
	out := "2"
	cells := []string{"1+1", "x := 3", "1+1", "fmt.Println(x)", "1+1"}
	for i, c := range cells {
		var o *string
		if c == "1+1" {
			o = &out
		}
		h.Add(i+1, c, o)
	}
	lines := func(es []HistoryEntry) string {
		s := ""
		for _, e := range es {
			s += fmt.Sprint(e.Line, " ")
		}
		return s
	}
	for _, tc := range []struct {
		name string
		got  []HistoryEntry
		want string
	}{
		{"tail 2", h.Tail(2), "4 5 "},
		{"tail more than stored", h.Tail(10), "1 2 3 4 5 "},
		{"tail 0", h.Tail(0), ""},
		{"range 2..4", h.Range(1, 2, 4), "2 3 "},
		{"range to end", h.Range(0, 4, 0), "4 5 "},
		{"range other session", h.Range(7, 1, 5), ""},
		{"search all", h.Search("1?1", 0, false), "1 3 5 "},
		{"search unique keeps latest", h.Search("1?1", 0, true), "5 "},
		{"search last n", h.Search("*", 2, false), "4 5 "},
		{"search unique all", h.Search("*", 0, true), "2 4 5 "},
		{"search none", h.Search("nothing", 0, false), ""},
	} {
		if got := lines(tc.got); got != tc.want {
			t.Errorf("%s: lines %q, want %q", tc.name, got, tc.want)
		}
	}
	if e := h.Tail(1)[0]; e.Output == nil || *e.Output != "2" {
		t.Errorf("last cell output %v, want 2", e.Output)
	}
}

func TestHistoryRequest(t *testing.T) {
	h := newHarness(t)
	for _, code := range []string{"value 1", "value 2", "print x"} {
		h.k.Handle(Shell, 0, h.request(t, "execute_request", map[string]any{"code": code}))
	}
	h.rec.msgs = nil
	h.k.Handle(Shell, 0, h.request(t, "history_request", map[string]any{
		"hist_access_type": "tail", "n": 2, "output": true, "raw": true,
	}))
	r := messagesOf(summarize(t, h.rec, h.signer), "history_reply")[0].Content
	got := fmt.Sprint(r["history"])
	// [session line [input output]]; JSON numbers decode as float64.
	want := "[[1 2 [value 2 2]] [1 3 [print x <nil>]]]"
	if got != want {
		t.Errorf("history %s, want %s", got, want)
	}
}
