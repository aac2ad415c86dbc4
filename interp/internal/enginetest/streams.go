package enginetest

import (
	"context"
	"testing"
	"time"

	"github.com/gobayes/gobayes/interp"
)

// StreamsWhileRunning checks that output reaches the client while the cell
// still runs, not when it ends.
func StreamsWhileRunning(t *testing.T, eng interp.Engine) {
	rec := &Recorder{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan interp.Result)
	go func() {
		done <- eng.Execute(ctx, "import \"fmt\"\nimport \"time\"\nfmt.Println(\"first\")\ntime.Sleep(time.Hour)", rec)
	}()
	seen := false
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if rec.Joined() == "stdout:first\n" {
			seen = true
			break
		}
	}
	cancel()
	r := <-done
	if !seen {
		t.Errorf("output %q did not arrive while the cell ran", rec.Joined())
	}
	if r.Err == nil || r.Err.Name != "Interrupted" {
		t.Errorf("%+v, want Interrupted", r.Err)
	}
}
