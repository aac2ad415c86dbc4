package enginetest

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/interp"
)

// commRecorder is a Recorder that also takes comm messages, as the
// kernel's Events do, answering a request with id msgID.
type commRecorder struct {
	Recorder
	msgID string
	mu    sync.Mutex
	comms []comm.Message
}

func (r *commRecorder) Comm(m comm.Message) {
	r.mu.Lock()
	r.comms = append(r.comms, m)
	r.mu.Unlock()
}

func (r *commRecorder) MsgID() string { return r.msgID }

// WidgetRoundTrip checks a widget's life through an engine: a cell makes
// a slider (comm_open to jupyter.widget, then the display message), the
// client moves it (a comm_msg the engine hands to the widget, whose Go
// handler runs and prints, its output going to the comm_msg's events),
// CommInfo lists it, a later cell reads the new value, and messages for
// unknown comms fail without harming the session.
func WidgetRoundTrip(t *testing.T, eng interp.Engine) {
	ctx := context.Background()
	cell := &commRecorder{msgID: "exec-1"}
	r := eng.Execute(ctx, `import "fmt"
import "github.com/gobayes/gobayes/widgets"
s := widgets.FloatSlider("prior scale", 0.1, 10, 1)
s.OnChange(func(v float64) { fmt.Println("scale now", v) })
s`, cell)
	if r.Err != nil {
		t.Fatalf("cell: %v", r.Err)
	}
	// The slider's model first; it shows in a row (its label beside it,
	// the widgets package's shownRow), whose display message comes last.
	last := len(cell.comms) - 1
	if len(cell.comms) < 2 || cell.comms[0].Type != comm.TypeOpen || cell.comms[0].TargetName != "jupyter.widget" ||
		cell.comms[0].Data["_model_name"] != "FloatSliderModel" || cell.comms[last].Data["method"] != "display" {
		t.Fatalf("the cell sent %+v, want comm_open of a FloatSliderModel first and a display last", cell.comms)
	}
	id := cell.comms[0].CommID
	if info := eng.CommInfo("jupyter.widget"); info[id] != "jupyter.widget" {
		t.Errorf("CommInfo = %v, want %s", info, id)
	}
	moved := &commRecorder{msgID: "comm-1"}
	if err := eng.Comm(ctx, comm.Message{Type: comm.TypeMsg, CommID: id,
		Data: map[string]any{"method": "backbone", "sync_data": map[string]any{"value": 2.5}}}, moved); err != nil {
		t.Fatalf("Comm: %v", err)
	}
	if got := moved.Joined(); got != "stdout:scale now 2.5\n" {
		t.Errorf("the handler printed %q, want scale now 2.5", got)
	}
	bad := &commRecorder{msgID: "comm-2"}
	if err := eng.Comm(ctx, comm.Message{Type: comm.TypeMsg, CommID: "no-such-comm", Data: map[string]any{}}, bad); err == nil || !strings.Contains(err.Value, "no-such-comm") {
		t.Errorf("a message to an unknown comm gave %v, want an error naming it", err)
	}
	if err := eng.Comm(ctx, comm.Message{Type: comm.TypeOpen, CommID: "x", TargetName: "no.such.target"}, bad); err == nil {
		t.Errorf("comm_open to an unknown target succeeded")
	}
	RunSteps(t, eng, []Step{{Cell: "fmt.Println(s.Value())", Events: "stdout:2.5\n"}})
}
