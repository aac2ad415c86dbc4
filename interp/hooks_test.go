package interp

import (
	"strings"
	"sync"
	"testing"

	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/ppl/infer"
)

// progressRecorder is a display.Publisher that keeps what it is sent.
type progressRecorder struct {
	mu      sync.Mutex
	bundles []display.Bundle
	ids     []string
	updates []bool
}

func (r *progressRecorder) Display(b display.Bundle, id string, update bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.bundles, r.ids, r.updates = append(r.bundles, b), append(r.ids, id), append(r.updates, update)
}
func (r *progressRecorder) Clear(bool)            {}
func (r *progressRecorder) Stream(string, string) {}

// TestLiveProgress runs Sample as in a notebook (through the hooks a
// Session gives its ppl.Session) and checks the progress table: one
// display id, shown then updated, ending with every chain done.
func TestLiveProgress(t *testing.T) {
	rec := &progressRecorder{}
	s := &Session{out: &output{}, live: &runCounter{}}
	s.out.setEvents(rec)
	m := ppl.NewSession(cellHooks{s}).Adopt(ppl.NewModel("conjugate"))
	mu := m.Normal("mu", 0, 10)
	m.Normal("y", mu, 1).Observe([]float64{1.2, 0.4, 2.2, 1.9, 0.8})
	m.Sample(ppl.Seed(1), ppl.Chains(3), ppl.Warmup(200), ppl.Draws(200))
	rec.mu.Lock()
	defer rec.mu.Unlock()
	n := len(rec.bundles)
	if n == 0 {
		t.Fatal("no progress display")
	}
	for i, id := range rec.ids {
		if id == "" || id != rec.ids[0] {
			t.Fatalf("display %d has id %q, want the handle's id %q every time", i, id, rec.ids[0])
		}
		if rec.updates[i] != (i > 0) {
			t.Errorf("display %d: update = %v", i, rec.updates[i])
		}
	}
	last := rec.bundles[n-1]
	html, _ := last.Data["text/html"].(string)
	text, _ := last.Data["text/plain"].(string)
	if strings.Count(html, "<tr><td>") != 3 || strings.Count(html, ">done<") != 3 || !strings.Contains(html, "400 / 400") {
		t.Errorf("final progress HTML: %s", html)
	}
	if !strings.Contains(text, "conjugate: done in ") {
		t.Errorf("final progress text: %s", text)
	}
}

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
		tab := newProgressTable("m")
		var ps []infer.ChainProgress
		for i, s := range c.steps {
			ps = append(ps, infer.ChainProgress{Chain: i, Iteration: 10, Total: 100, StepSize: s})
		}
		tab.Update(progressRows(ps))
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
