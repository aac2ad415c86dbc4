package interp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/interp/internal/enginetest"
)

// TestSessionsKeepTheirRuns: two sessions in one process (two notebooks
// of one kernel process) each see their own last run, and each run's
// live progress table shows in the output of the cell that sampled, not
// in the other session's. With ppl's process-wide hooks and LastRun, the
// second session's ppl.LastRun() was the first one's run when only the
// first had sampled.
func TestSessionsKeepTheirRuns(t *testing.T) {
	a, b := newTestSession(t), newTestSession(t)
	ctx := context.Background()
	recA, recB := &enginetest.Recorder{}, &enginetest.Recorder{}
	a.Execute(ctx, "import \"github.com/gobayes/gobayes/ppl\"", &enginetest.Recorder{})
	b.Execute(ctx, "import \"github.com/gobayes/gobayes/ppl\"", &enginetest.Recorder{})
	res := a.Execute(ctx, "m := ppl.NewModel(\"in_a\")\nmu := m.Normal(\"mu\", 0, 1)\nm.Normal(\"y\", mu, 1).Observe([]float64{1, 2})\nfit := m.Sample(ppl.Warmup(50), ppl.Draws(20), ppl.Chains(1), ppl.Seed(1))", recA)
	if res.Err != nil {
		t.Fatalf("sampling in session a: %v", res.Err)
	}
	res = b.Execute(ctx, "ppl.LastRun() == nil", recB)
	if res.Err != nil || res.Value == nil || res.Value.Data["text/plain"] != "true" {
		t.Errorf("session b's ppl.LastRun() == nil after only a sampled: %+v %v", res.Value, res.Err)
	}
	res = a.Execute(ctx, "ppl.LastRun().Model", &enginetest.Recorder{})
	if res.Err != nil || res.Value == nil || !strings.Contains(res.Value.Data["text/plain"].(string), "in_a") {
		t.Errorf("session a's ppl.LastRun().Model: %+v %v", res.Value, res.Err)
	}
	if !strings.Contains(recA.Joined(), "in_a: done") {
		t.Errorf("session a's sampling cell showed no finished progress table: %q", recA.Joined())
	}
	if strings.Contains(recB.Joined(), "in_a") {
		t.Errorf("session b's cell showed session a's run: %q", recB.Joined())
	}
	// A model made in b and redefined in one cell run is refused as a
	// cell's mistake: b's hooks tell its cell runs apart.
	res = b.Execute(ctx, "m := ppl.NewModel(\"in_b\")\nm.Normal(\"x\", 0, 1)\nm.Normal(\"x\", 0, 2)", &enginetest.Recorder{})
	if res.Err == nil || !strings.Contains(res.Err.Value, "in one run of the cell") {
		t.Errorf("session b: a name defined twice in one cell: %+v", res.Err)
	}
}
