package kernel

import (
	"strings"
	"testing"
)

// TestHelpLinksNameGobayes: kernel_info_reply's help_links lead to the
// project (issue 25 item 7).
func TestHelpLinksNameGobayes(t *testing.T) {
	h := newHarness(t)
	h.k.Handle(Shell, 0, h.request(t, "kernel_info_request", map[string]any{}))
	r := messagesOf(summarize(t, h.rec, h.signer), "kernel_info_reply")
	if len(r) != 1 {
		t.Fatalf("%d kernel_info_reply, want 1", len(r))
	}
	links, _ := r[0].Content["help_links"].([]any)
	for _, l := range links {
		if m, _ := l.(map[string]any); m["text"] == "gobayes" && strings.HasPrefix(m["url"].(string), "https://github.com/gobayes/gobayes") {
			return
		}
	}
	t.Errorf("help_links %v has no gobayes entry", links)
}
