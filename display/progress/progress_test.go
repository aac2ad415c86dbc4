package progress

import (
	"strings"
	"testing"
	"time"

	"github.com/gobayes/gobayes/ppl/infer"
)

// TestProgressHeader drives the progress table with a fake clock: the
// header counts time while chains run, then says done (or interrupted)
// with the run's total time, which no longer moves.
func TestProgressHeader(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	running := infer.ChainProgress{Chain: 0, Iteration: 50, Total: 100}
	done := infer.ChainProgress{Chain: 0, Iteration: 100, Total: 100, Done: true}
	stopped := infer.ChainProgress{Chain: 1, Iteration: 70, Total: 100, Done: true}
	done1 := done
	done1.Chain = 1
	cases := []struct {
		name    string
		reports [][]infer.ChainProgress // one report a second
		finish  *bool                   // finish(interrupted) after the reports
		want    string                  // header, read 10 s after the last step
	}{
		{"running", [][]infer.ChainProgress{{running, running}}, nil, "m: sampling, 11.0 s"},
		{"one chain left", [][]infer.ChainProgress{{running}, {done, running}}, nil, "m: sampling, 12.0 s"},
		{"all done", [][]infer.ChainProgress{{running}, {done, done1}}, nil, "m: done in 2.0 s"},
		{"a chain stopped", [][]infer.ChainProgress{{running}, {done, stopped}}, nil, "m: interrupted after 2.0 s: the draws made so far are kept"},
		{"interrupt before any report", nil, boolPtr(true), "m: interrupted after 0.0 s: the draws made so far are kept"},
		{"run returned", [][]infer.ChainProgress{{running}}, boolPtr(false), "m: done in 1.0 s"},
	}
	for _, c := range cases {
		now := t0
		tab := newAt("m", func() time.Time { return now })
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

// TestStepSizeColumn: the step sizes share one form, three significant
// digits for the smallest (issue 25: "1" beside "1.02", "0.117" beside
// "0.0688"), in text and HTML.
func TestStepSizeColumn(t *testing.T) {
	cases := []struct {
		steps []float64
		want  []string
	}{
		{[]float64{1.02, 1}, []string{"1.02", "1.00"}},
		{[]float64{0.117, 0.0688, 0.2}, []string{"0.1170", "0.0688", "0.2000"}},
		{[]float64{0.494, 0.452}, []string{"0.494", "0.452"}},
		{[]float64{0, 0.5}, []string{"0.000", "0.500"}}, // before adaptation sets one
		{[]float64{3e-7, 0.5}, []string{"3.00e-07", "5.00e-01"}},
	}
	for _, c := range cases {
		tab := newAt("m", time.Now)
		var ps []infer.ChainProgress
		for i, s := range c.steps {
			ps = append(ps, infer.ChainProgress{Chain: i, Iteration: 10, Total: 100, StepSize: s})
		}
		tab.Update(ps)
		lines := strings.Split(tab.String(), "\n")
		h := tab.HTML()
		for i, want := range c.want {
			f := strings.Fields(lines[2+i])
			if got := f[len(f)-1]; got != want {
				t.Errorf("step sizes %v: row %d shows %q, want %q", c.steps, i, got, want)
			}
			if !strings.Contains(h, `<td style="text-align:right">`+want+"</td></tr>") {
				t.Errorf("step sizes %v: HTML lacks %q: %s", c.steps, want, h)
			}
		}
	}
}
