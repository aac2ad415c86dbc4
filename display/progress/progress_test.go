package progress

import (
	"strings"
	"testing"
	"time"
)

// TestProgressHeader drives the progress table with a fake clock: the
// header counts time while chains run, then says done (or interrupted)
// with the run's total time, which no longer moves.
func TestProgressHeader(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	running := Row{Chain: 0, Iteration: 50, Total: 100}
	done := Row{Chain: 0, Iteration: 100, Total: 100, Done: true}
	stopped := Row{Chain: 1, Iteration: 70, Total: 100, Done: true}
	done1 := done
	done1.Chain = 1
	cases := []struct {
		name    string
		reports [][]Row // one report a second
		finish  *bool   // finish(interrupted) after the reports
		want    string  // header, read 10 s after the last step
	}{
		{"running", [][]Row{{running, running}}, nil, "m: sampling, 11.0 s"},
		{"one chain left", [][]Row{{running}, {done, running}}, nil, "m: sampling, 12.0 s"},
		{"all done", [][]Row{{running}, {done, done1}}, nil, "m: done in 2.0 s"},
		{"a chain stopped", [][]Row{{running}, {done, stopped}}, nil, "m: interrupted after 2.0 s: the draws made so far are kept"},
		{"interrupt before any report", nil, boolPtr(true), "m: interrupted after 0.0 s: the draws made so far are kept"},
		{"run returned", [][]Row{{running}}, boolPtr(false), "m: done in 1.0 s"},
	}
	for _, c := range cases {
		now := t0
		tab := newAt("m", nil, func() time.Time { return now })
		for _, r := range c.reports {
			now = now.Add(time.Second)
			tab.Update(r)
		}
		if c.finish != nil {
			tab.Finish(*c.finish)
		}
		now = now.Add(10 * time.Second)
		text := tab.String()
		if got, _, _ := strings.Cut(text, "\n"); got != c.want {
			t.Errorf("%s: header %q, want %q", c.name, got, c.want)
		}
		if !strings.Contains(tab.HTML(), strings.TrimPrefix(c.want, "m: ")) {
			t.Errorf("%s: HTML lacks %q: %s", c.name, c.want, tab.HTML())
		}
	}
}

func boolPtr(b bool) *bool { return &b }
