package widgets

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
)

// recorder is a comm.Sender and a display.Publisher keeping what was sent,
// as JSON, the way the kernel puts it on the wire.
type recorder struct {
	sent []string
	ids  map[string]int // display ids of images, numbered as first seen
}

func (r *recorder) SendComm(m comm.Message) {
	b, _ := json.Marshal(m)
	r.sent = append(r.sent, string(b))
}
func (r *recorder) Display(b display.Bundle, id string, update bool) {
	if _, ok := b.Data[display.MIMEPNG]; ok {
		// An image: whether it went out as an updatable display, and
		// which, by the order of its id.
		if r.ids == nil {
			r.ids = map[string]int{}
		}
		if _, seen := r.ids[id]; !seen && id != "" {
			r.ids[id] = len(r.ids) + 1
		}
		r.sent = append(r.sent, fmt.Sprintf("image %d update=%v", r.ids[id], update))
		return
	}
	r.sent = append(r.sent, "display")
}
func (r *recorder) Clear(wait bool) { r.sent = append(r.sent, "clear") }

func (r *recorder) take() []string { s := r.sent; r.sent = nil; return s }

// fresh gives a test ids "w1", "w2", … and a recorder, with the request
// "req1" being served.
func fresh(t *testing.T) *recorder {
	t.Helper()
	comm.Reset()
	n := 0
	prevID := comm.SetIDSource(func() string { n++; return "w" + strconv.Itoa(n) })
	r := &recorder{}
	prevSender := comm.SetSender(r)
	prevPub := display.SetPublisher(r)
	prevReq := comm.SetRequest("req1")
	t.Cleanup(func() {
		comm.SetSender(prevSender)
		comm.SetIDSource(prevID)
		display.SetPublisher(prevPub)
		comm.SetRequest(prevReq)
		comm.Reset()
	})
	return r
}

// client delivers a message from the front-end on comm id.
func client(t *testing.T, id, data string) {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal([]byte(data), &d); err != nil {
		t.Fatal(err)
	}
	if err := comm.Deliver(comm.Message{Type: comm.TypeMsg, CommID: id, Data: d}); err != nil {
		t.Fatal(err)
	}
}

// The state keys ipywidgets 6.0.0 sends for each model (FloatSlider().get_state()
// and so on with Debian's python3-ipywidgets 6.0.0-11), less "layout" and
// "style": those are references to separate models the views treat as optional.
var ipywidgets6Keys = map[string][]string{
	"FloatSliderModel": {"_dom_classes", "_model_module", "_model_module_version", "_model_name", "_range", "_view_module", "_view_module_version", "_view_name", "continuous_update", "description", "disabled", "max", "min", "msg_throttle", "orientation", "readout", "readout_format", "slider_color", "step", "value"},
	"IntSliderModel":   {"_dom_classes", "_model_module", "_model_module_version", "_model_name", "_range", "_view_module", "_view_module_version", "_view_name", "continuous_update", "description", "disabled", "max", "min", "msg_throttle", "orientation", "readout", "readout_format", "step", "value"},
	"DropdownModel":    {"_dom_classes", "_model_module", "_model_module_version", "_model_name", "_options_labels", "_view_module", "_view_module_version", "_view_name", "description", "disabled", "msg_throttle", "value"},
	"OutputModel":      {"_dom_classes", "_model_module", "_model_module_version", "_model_name", "_view_module", "_view_module_version", "_view_name", "msg_id", "msg_throttle"},
}

func TestCommOpenState(t *testing.T) {
	r := fresh(t)
	FloatSlider("prior scale", 0.1, 10, 1)
	IntSlider("n", 0, 100, 10)
	Dropdown("family", "Normal", "StudentT")
	Output()
	sent := r.take()
	if len(sent) != 4 {
		t.Fatalf("sent %d messages, want 4 comm_open: %q", len(sent), sent)
	}
	for _, s := range sent {
		var m struct {
			Type, CommID, TargetName string
			Data                     map[string]any
		}
		var raw map[string]any
		json.Unmarshal([]byte(s), &raw)
		m.Type, m.TargetName = raw["type"].(string), raw["target_name"].(string)
		m.Data = raw["data"].(map[string]any)
		if m.Type != "comm_open" || m.TargetName != "jupyter.widget" {
			t.Errorf("%s: want comm_open to jupyter.widget", s)
		}
		name, _ := m.Data["_model_name"].(string)
		var keys []string
		for k := range m.Data {
			if k != "state" && k != "buffer_paths" {
				keys = append(keys, k)
			}
		}
		if nested, _ := m.Data["state"].(map[string]any); len(nested) != len(keys) || m.Data["buffer_paths"] == nil {
			t.Errorf("%s: data.state has %d keys, want the %d of the state, and buffer_paths []", name, len(nested), len(keys))
		}
		sort.Strings(keys)
		if !reflect.DeepEqual(keys, ipywidgets6Keys[name]) {
			t.Errorf("%s state keys\n%q\nwant\n%q", name, keys, ipywidgets6Keys[name])
		}
		for _, k := range []string{"_model_module", "_view_module"} {
			if m.Data[k] != "jupyter-js-widgets" {
				t.Errorf("%s %s = %v", name, k, m.Data[k])
			}
		}
		for _, k := range []string{"_model_module_version", "_view_module_version"} {
			if m.Data[k] != "~2.1.4" {
				t.Errorf("%s %s = %v", name, k, m.Data[k])
			}
		}
	}
	var first struct {
		Data map[string]json.RawMessage
	}
	json.Unmarshal([]byte(sent[0]), &first)
	// The description is shown beside the slider, not as its own (see
	// TestControlRow).
	if got, want := string(first.Data["state"]), `{"_dom_classes":[],"_model_module":"jupyter-js-widgets","_model_module_version":"~2.1.4","_model_name":"FloatSliderModel","_range":false,"_view_module":"jupyter-js-widgets","_view_module_version":"~2.1.4","_view_name":"FloatSliderView","continuous_update":true,"description":"","disabled":false,"max":10,"min":0.1,"msg_throttle":1,"orientation":"horizontal","readout":true,"readout_format":".2f","slider_color":null,"step":0.099,"value":1}`; got != want {
		t.Errorf("FloatSlider state\n%s\nwant\n%s", got, want)
	}
}

// The front-end's changes (protocol 1: "backbone" with sync_data): an
// accepted change is applied and not echoed; a rejected or clamped one is
// answered with the value kept.
func TestSync(t *testing.T) {
	tests := []struct {
		name      string
		sync      string
		wantValue float64
		wantSent  []string
		wantCalls int
	}{
		{"accepted", `{"method":"backbone","sync_data":{"value":2.5}}`, 2.5, nil, 1},
		{"same value", `{"method":"backbone","sync_data":{"value":1}}`, 1, nil, 0},
		{"clamped", `{"method":"backbone","sync_data":{"value":50}}`, 10,
			[]string{`{"type":"comm_msg","comm_id":"w1","data":{"method":"update","state":{"value":10}}}`}, 1},
		{"not a number", `{"method":"backbone","sync_data":{"value":"big"}}`, 1,
			[]string{`{"type":"comm_msg","comm_id":"w1","data":{"method":"update","state":{"value":1}}}`}, 0},
		{"model name kept", `{"method":"backbone","sync_data":{"_model_name":"X"}}`, 1, nil, 0},
		{"no sync_data", `{"method":"backbone"}`, 1, nil, 0},
		{"unknown method", `{"method":"frobnicate"}`, 1, nil, 0},
		{"custom", `{"method":"custom","content":{}}`, 1, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := fresh(t)
			s := FloatSlider("scale", 0.1, 10, 1)
			calls := 0
			s.OnChange(func(v float64) { calls++ })
			r.take()
			client(t, s.ID(), tt.sync)
			if got := s.Value(); got != tt.wantValue {
				t.Errorf("Value = %g, want %g", got, tt.wantValue)
			}
			if got := r.take(); !reflect.DeepEqual(got, tt.wantSent) {
				t.Errorf("sent %q, want %q", got, tt.wantSent)
			}
			if calls != tt.wantCalls {
				t.Errorf("OnChange ran %d times, want %d", calls, tt.wantCalls)
			}
		})
	}
}

func TestIntAndDropdownSync(t *testing.T) {
	r := fresh(t)
	n := IntSlider("n", 0, 10, 3)
	d := Dropdown("family", "Normal", "StudentT")
	var got []string
	n.OnChange(func(v int) { got = append(got, "n="+strconv.Itoa(v)) })
	d.OnChange(func(v string) { got = append(got, "family="+v) })
	r.take()
	client(t, n.ID(), `{"method":"backbone","sync_data":{"value":7}}`)
	client(t, n.ID(), `{"method":"backbone","sync_data":{"value":7.5}}`)
	client(t, d.ID(), `{"method":"backbone","sync_data":{"value":"StudentT"}}`)
	client(t, d.ID(), `{"method":"backbone","sync_data":{"value":"Cauchy"}}`)
	if n.Value() != 7 || d.Value() != "StudentT" {
		t.Errorf("values %d %q, want 7 StudentT", n.Value(), d.Value())
	}
	if want := []string{"n=7", "family=StudentT"}; !reflect.DeepEqual(got, want) {
		t.Errorf("handlers %q, want %q", got, want)
	}
	want := []string{
		`{"type":"comm_msg","comm_id":"w1","data":{"method":"update","state":{"value":7}}}`,
		`{"type":"comm_msg","comm_id":"w2","data":{"method":"update","state":{"value":"StudentT"}}}`,
	}
	if sent := r.take(); !reflect.DeepEqual(sent, want) {
		t.Errorf("sent %q, want the corrections %q", sent, want)
	}
}

func TestSetValueAndRequestState(t *testing.T) {
	r := fresh(t)
	s := FloatSlider("scale", 0, 1, 0.5)
	calls := 0
	s.OnChange(func(float64) { calls++ })
	r.take()
	s.SetValue(2)
	client(t, s.ID(), `{"method":"request_state"}`)
	sent := r.take()
	if len(sent) != 2 || sent[0] != `{"type":"comm_msg","comm_id":"w1","data":{"method":"update","state":{"value":1}}}` {
		t.Fatalf("sent %q", sent)
	}
	var m struct {
		Data struct{ State map[string]any }
	}
	json.Unmarshal([]byte(sent[1]), &m)
	if m.Data.State["_model_name"] != "FloatSliderModel" || m.Data.State["value"] != 1.0 {
		t.Errorf("request_state answered %s", sent[1])
	}
	if calls != 1 {
		t.Errorf("OnChange ran %d times after SetValue, want 1", calls)
	}
}

func TestDisplay(t *testing.T) {
	r := fresh(t)
	s := Output() // a control shows as a row: TestControlRow
	r.take()
	b, err := display.RenderStrict(s)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{ViewMIME: map[string]any{"model_id": "w1", "version_major": 1, "version_minor": 0}, "text/plain": ""}
	if !reflect.DeepEqual(b.Data, want) {
		t.Errorf("bundle %v, want %v", b.Data, want)
	}
	if sent := r.take(); !reflect.DeepEqual(sent, []string{`{"type":"comm_msg","comm_id":"w1","data":{"method":"display"}}`}) {
		t.Errorf("sent %q, want the display message", sent)
	}
}

// Capture routes output by the Output widget's msg_id: set to the request
// being served around the func, cleared after.
func TestOutputCapture(t *testing.T) {
	r := fresh(t)
	out := Output()
	r.take()
	out.Capture(func() { display.HTML("<b>x</b>") })
	want := []string{
		`{"type":"comm_msg","comm_id":"w1","data":{"method":"update","state":{"msg_id":"req1"}}}`,
		"display",
		`{"type":"comm_msg","comm_id":"w1","data":{"method":"update","state":{"msg_id":""}}}`,
	}
	if sent := r.take(); !reflect.DeepEqual(sent, want) {
		t.Errorf("sent %q, want %q", sent, want)
	}
	comm.SetRequest("")
	out.Capture(func() { display.HTML("y") })
	if sent := r.take(); !reflect.DeepEqual(sent, []string{"display"}) {
		t.Errorf("outside a request, sent %q, want the display only", sent)
	}
}

func TestInteract(t *testing.T) {
	r := fresh(t)
	s := FloatSlider("scale", 0, 10, 1)
	runs := []float64{}
	Interact(func() { runs = append(runs, s.Value()) }, s)
	out := outputID(r.take())
	comm.SetRequest("req2")
	client(t, s.ID(), `{"method":"backbone","sync_data":{"value":3}}`)
	if !reflect.DeepEqual(runs, []float64{1, 3}) {
		t.Errorf("f saw %v, want [1 3]", runs)
	}
	want := []string{
		`{"type":"comm_msg","comm_id":"` + out + `","data":{"method":"update","state":{"msg_id":"req2"}}}`,
		"clear",
		`{"type":"comm_msg","comm_id":"` + out + `","data":{"method":"update","state":{"msg_id":""}}}`,
	}
	if sent := r.take(); !reflect.DeepEqual(sent, want) {
		t.Errorf("sent %q, want %q", sent, want)
	}
}

func TestVersionComm(t *testing.T) {
	r := fresh(t)
	if err := comm.Deliver(comm.Message{Type: comm.TypeOpen, CommID: "v1", TargetName: VersionTarget}); err != nil {
		t.Fatal(err)
	}
	if sent := r.take(); !reflect.DeepEqual(sent, []string{`{"type":"comm_msg","comm_id":"v1","data":{"version":"~2.1.4"}}`}) {
		t.Errorf("sent %q", sent)
	}
	client(t, "v1", `{"validated":true,"frontend_version":"2.1.4"}`)
	if v, ok := FrontendVersion(); v != "2.1.4" || !ok {
		t.Errorf("FrontendVersion = %q %v", v, ok)
	}
}

// TestControlRow: a control shows as a row of its description, in full,
// and the control with no description of its own, 60% of the row wide.
// jupyter-js-widgets 2.1.4 cuts a control's own description at 148 px
// ("scale of tau's half-C…") and draws a slider 300 px wide; its slider
// style has no description_width.
func TestControlRow(t *testing.T) {
	r := fresh(t)
	s := FloatSlider("scale of tau's half-Cauchy prior", 0.1, 10, 1)
	var open struct{ Data map[string]any }
	json.Unmarshal([]byte(r.take()[0]), &open)
	if d := open.Data["description"]; d != "" {
		t.Errorf("the slider's own description is %q, want none (the row shows it)", d)
	}
	b, err := display.RenderStrict(s)
	if err != nil {
		t.Fatal(err)
	}
	state := map[string]map[string]any{} // comm id → state opened with
	var updates []string
	var shown string
	for _, m := range r.take() {
		var msg struct {
			Type   string
			CommID string `json:"comm_id"`
			Data   map[string]any
		}
		json.Unmarshal([]byte(m), &msg)
		switch msg.Type {
		case "comm_open":
			state[msg.CommID] = msg.Data
		case "comm_msg":
			if msg.Data["method"] == "display" {
				shown = msg.CommID
			} else {
				updates = append(updates, m)
			}
		}
	}
	model := func(ref any) map[string]any {
		id, _ := ref.(string)
		if len(id) < 10 || id[:10] != "IPY_MODEL_" {
			t.Fatalf("%v is not a model reference", ref)
		}
		st := state[id[10:]]
		if st == nil {
			t.Fatalf("%s was not opened before it was referenced", id)
		}
		return st
	}
	box := state[shown]
	if box["_model_name"] != "HBoxModel" {
		t.Fatalf("shown: %v, want an HBox", box)
	}
	if b.Data[ViewMIME].(map[string]any)["model_id"] != shown {
		t.Errorf("bundle shows %v, want the row %s", b.Data[ViewMIME], shown)
	}
	children, _ := box["children"].([]any)
	if len(children) != 2 {
		t.Fatalf("row children %v, want the description and the slider", children)
	}
	label := model(children[0])
	if label["_model_name"] != "HTMLMathModel" || label["value"] != "scale of tau's half-Cauchy prior" {
		t.Errorf("row's first child %v, want an HTMLMath of the description", label)
	}
	if children[1] != "IPY_MODEL_"+s.ID() {
		t.Errorf("row's second child %v, want the slider %s", children[1], s.ID())
	}
	if align := model(box["layout"]); align["align_items"] != "center" {
		t.Errorf("row layout %v, want align_items center", align)
	}
	var layoutRef any
	for _, u := range updates {
		var m struct {
			CommID string `json:"comm_id"`
			Data   struct{ State map[string]any }
		}
		json.Unmarshal([]byte(u), &m)
		if m.CommID == s.ID() && m.Data.State["layout"] != nil {
			layoutRef = m.Data.State["layout"]
		}
	}
	if lay := model(layoutRef); lay["_model_name"] != "LayoutModel" || lay["width"] != "60%" {
		t.Errorf("slider layout %v, want a LayoutModel with width 60%%", lay)
	}
	// Shown again: the same row, nothing opened anew.
	display.RenderStrict(s)
	if sent := r.take(); len(sent) != 1 || !strings.Contains(sent[0], `"comm_id":"`+shown+`"`) {
		t.Errorf("second display sent %q, want one display of the row", sent)
	}
	if got := s.String(); got != `FloatSlider("scale of tau's half-Cauchy prior", value=1)` {
		t.Errorf("String() = %s", got)
	}
}

// TestInteractStaticFigure: a figure the func shows goes to the cell as
// an ordinary display, updated in place at every change, so the notebook
// saves the latest one and shows it without a kernel; text and other
// output stay in the Output widget.
func TestInteractStaticFigure(t *testing.T) {
	r := fresh(t)
	s := FloatSlider("scale", 0, 10, 1)
	png := []byte("\x89PNG\r\n\x1a\n") // enough for a bundle; not decoded
	Interact(func() {
		display.HTML("<p>scale</p>")
		display.PNG(png)
	}, s)
	sent := r.take()
	out := outputID(sent)
	want := []string{
		`{"type":"comm_msg","comm_id":"%OUT%","data":{"method":"update","state":{"msg_id":"req1"}}}`,
		"clear",
		"display",
		`{"type":"comm_msg","comm_id":"%OUT%","data":{"method":"update","state":{"msg_id":""}}}`,
	}
	for i := range want {
		want[i] = strings.ReplaceAll(want[i], "%OUT%", out)
	}
	want = append(want, "image 1 update=false")
	if got := sent[len(sent)-5:]; !reflect.DeepEqual(got, want) {
		t.Errorf("first run sent\n%q\nwant (the figure after the Output widget's capture)\n%q", got, want)
	}
	comm.SetRequest("req2")
	client(t, s.ID(), `{"method":"backbone","sync_data":{"value":3}}`)
	for i := range want[:4] {
		want[i] = strings.ReplaceAll(want[i], "req1", "req2")
	}
	want[4] = "image 1 update=true"
	if got := r.take(); !reflect.DeepEqual(got, want) {
		t.Errorf("after a change sent\n%q\nwant the same figure display updated\n%q", got, want)
	}
}

// outputID is the comm id of the Output widget opened among sent.
func outputID(sent []string) string {
	for _, m := range sent {
		var raw struct {
			Type   string
			CommID string `json:"comm_id"`
			Data   map[string]any
		}
		json.Unmarshal([]byte(m), &raw)
		if raw.Type == "comm_open" && raw.Data["_model_name"] == "OutputModel" {
			return raw.CommID
		}
	}
	return ""
}
