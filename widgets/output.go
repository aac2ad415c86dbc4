package widgets

import (
	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
)

// OutputArea is an area that shows what code run by Capture prints and
// displays (the front-end's Output widget).
type OutputArea struct{ m *model }

// Output makes an empty output area. Show it, then Capture into it.
func Output() *OutputArea {
	return &OutputArea{m: newModel("Output", "OutputModel", "OutputView", map[string]any{"msg_id": ""},
		func(key string, v any, _ map[string]any) (any, bool) { return v, key != "msg_id" })}
}

// Capture runs f with its output (printed text, displays, clear_output)
// going to the area instead of the cell. It sets the area's msg_id to the
// request being served — the running cell's execute_request, or the
// comm_msg whose handler runs — so that the front-end routes every message
// with that parent to the area, and clears it after f.
func (o *OutputArea) Capture(f func()) {
	id := comm.Request()
	if id == "" || o.m.get("msg_id") != "" {
		f() // outside a kernel, or already capturing: nothing to route
		return
	}
	o.m.set(map[string]any{"msg_id": id})
	defer o.m.set(map[string]any{"msg_id": ""})
	f()
}

// Clear empties the area; with wait it empties when new output arrives,
// so a redrawn figure replaces the old one without flicker.
func (o *OutputArea) Clear(wait bool) { o.Capture(func() { display.Clear(wait) }) }

// ID is the widget's model id.
func (o *OutputArea) ID() string { return o.m.ID() }

// Close removes the area.
func (o *OutputArea) Close() { o.m.Close() }

// Bundle shows the area.
func (o *OutputArea) Bundle() display.Bundle { return o.m.bundle() }

func (o *OutputArea) String() string { return "Output()" }
