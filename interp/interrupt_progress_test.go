package interp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gobayes/gobayes/interp/internal/enginetest"
)

// TestInterruptedSampleTable: interrupting a cell that samples leaves its
// progress table saying "interrupted" (it stayed on "sampling": the cell
// ended before the sampler's last word), and the cell's error says what
// was kept, in red like every error.
func TestInterruptedSampleTable(t *testing.T) {
	s := newTestSession(t)
	rec := &enginetest.Recorder{}
	s.Execute(context.Background(), "import \"github.com/gobayes/gobayes/ppl\"", rec)
	ctx, cancel := context.WithCancel(context.Background())
	rec = &enginetest.Recorder{}
	// Interrupt once the progress table shows (sampling has begun), not
	// after a fixed time: on a loaded machine building the model took
	// longer than the 1.5 s this test waited, and the cell was interrupted
	// before it sampled.
	live := rec
	go func() {
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline) && !strings.Contains(live.Joined(), "display:"); time.Sleep(10 * time.Millisecond) {
		}
		time.Sleep(200 * time.Millisecond) // an iteration takes tens of milliseconds
		cancel()
	}()
	res := s.Execute(ctx, "y := make([]float64, 3000000)\nm := ppl.NewModel(\"long\")\nmu := m.Normal(\"mu\", 0, 1)\nm.Normal(\"y\", mu, 1).Observe(y)\nfit := m.Sample(ppl.Warmup(5000000), ppl.Draws(10), ppl.Chains(2))", rec)
	// What the notebook saw: the kernel closes a cell's output when the
	// cell ends, so later updates are lost.
	joined := rec.Joined()
	if res.Err == nil || res.Err.Name != "Interrupted" || !strings.Contains(res.Err.Value, "fit := ppl.LastRun()") ||
		!strings.HasPrefix(res.Err.Traceback[0], "\x1b[0;31m") {
		t.Fatalf("cell result %+v", res.Err)
	}
	events := strings.Split(joined, "|")
	last := ""
	for _, e := range events {
		if strings.HasPrefix(e, "display:") {
			last = e
		}
	}
	if !strings.Contains(last, "long: interrupted after") {
		t.Errorf("the table's last state is %q, want interrupted", last)
	}
	// The draws made so far, as the message says.
	rec = &enginetest.Recorder{}
	res = s.Execute(context.Background(), "fit := ppl.LastRun()\nfit.Interrupted && fit.Model == \"long\"", rec)
	if res.Err != nil || res.Value == nil || res.Value.Data["text/plain"] != "true" {
		t.Errorf("ppl.LastRun() after the interrupt: %+v %v", res.Value, res.Err)
	}
}
