package widgets

import (
	"encoding/json"
	"reflect"
	"sort"
	"sync"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
)

// The names the widget front-end of Notebook 6 in Debian
// (jupyter-nbextension-jupyter-js-widgets 6.0.0, jupyter-js-widgets 2.1.4)
// knows: its comm targets, the module its models and views live in, and the
// semver range of that module this package speaks.
const (
	CommTarget    = "jupyter.widget"
	VersionTarget = "jupyter.widget.version"
	Module        = "jupyter-js-widgets"
	ModuleVersion = "~2.1.4"
	// ViewMIME is the MIME type of a widget's view in a display bundle:
	// {"model_id": ..., "version_major": 1, "version_minor": 0}, the view
	// spec of the widget state schema this front-end writes.
	ViewMIME = "application/vnd.jupyter.widget-view+json"
)

// Control is a widget whose value the student changes: a slider or a
// dropdown. Interact redraws when any of its controls changes.
type Control interface {
	// ID is the widget's model id (its comm's id).
	ID() string
	onAnyChange(f func())
}

// model is the state and the comm every widget has. Its state is the
// flat JSON object the front-end's model holds (protocol version 1: the
// comm_open data is the state itself, updates are {"method": "update",
// "state": {...}}, the front-end's changes arrive as {"method": "backbone",
// "sync_data": {...}}).
type model struct {
	c    *comm.Comm
	name string // the Go constructor, for text/plain

	mu    sync.Mutex
	state map[string]any
	// accept checks a key the front-end changed and returns the value to
	// keep (state is the current state, read under the lock); ok false rejects the change, which is then sent back corrected.
	accept  func(key string, v any, state map[string]any) (keep any, ok bool)
	changed []func() // run after the front-end or Go changed "value"

	// A control shows in a row (see shownRow): its description, the width of
	// the control in the row ("" keeps its own), and the models of the
	// row once shown, closed with the control.
	description string
	width       string
	rowOnce     sync.Once
	row         *model
	parts       []*model
}

// newModel opens the widget's comm with its full state.
func newModel(name, modelName, viewName string, state map[string]any, accept func(string, any, map[string]any) (any, bool)) *model {
	full := map[string]any{
		"_model_module": Module, "_model_module_version": ModuleVersion, "_model_name": modelName,
		"_view_module": Module, "_view_module_version": ModuleVersion, "_view_name": viewName,
		"_dom_classes": []any{}, "msg_throttle": 1,
	}
	for k, v := range state {
		full[k] = v
	}
	m := &model{name: name, state: full, accept: accept}
	// Protocol 1's comm data is the state itself. Clients that read
	// protocol 2's {"state", "buffer_paths"} instead (nbclient 0.7 fails a
	// notebook with a KeyError without them) find those too; the 2.1.4
	// front-end keeps them as two attributes no view reads.
	data := copyState(full)
	data["state"] = copyState(full)
	data["buffer_paths"] = []any{}
	m.c = comm.Open(CommTarget, data)
	m.c.OnMsg(m.fromClient)
	return m
}

func copyState(s map[string]any) map[string]any {
	out := make(map[string]any, len(s))
	for k, v := range s {
		out[k] = v
	}
	return out
}

// ID is the widget's model id.
func (m *model) ID() string { return m.c.ID() }

func (m *model) onAnyChange(f func()) {
	m.mu.Lock()
	m.changed = append(m.changed, f)
	m.mu.Unlock()
}

func (m *model) get(key string) any {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state[key]
}

// set changes keys from Go and sends them to the front-end; a change of
// "value" runs the change handlers.
func (m *model) set(kv map[string]any) {
	m.mu.Lock()
	valueChanged := false
	for k, v := range kv {
		if k == "value" && !reflect.DeepEqual(m.state[k], v) {
			valueChanged = true
		}
		m.state[k] = v
	}
	m.mu.Unlock()
	m.c.Send(map[string]any{"method": "update", "state": copyState(kv)})
	if valueChanged {
		m.runChanged()
	}
}

func (m *model) runChanged() {
	m.mu.Lock()
	fs := append([]func(){}, m.changed...)
	m.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// fromClient handles the front-end's messages on the widget's comm.
func (m *model) fromClient(data map[string]any) {
	switch data["method"] {
	case "backbone":
		if sync, ok := data["sync_data"].(map[string]any); ok {
			m.sync(sync)
		}
	case "request_state":
		m.mu.Lock()
		s := copyState(m.state)
		m.mu.Unlock()
		m.c.Send(map[string]any{"method": "update", "state": s})
	}
}

// sync applies the front-end's changes. An accepted change is not echoed
// (the front-end already shows it); a rejected one is answered with an
// update carrying the value kept, so the view snaps back.
func (m *model) sync(changes map[string]any) {
	keys := make([]string, 0, len(changes))
	for k := range changes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fix := map[string]any{}
	valueChanged := false
	m.mu.Lock()
	for _, k := range keys {
		if len(k) > 0 && k[0] == '_' {
			continue // the model's identity is not the front-end's to change
		}
		v, ok := changes[k], true
		if m.accept != nil {
			v, ok = m.accept(k, v, m.state)
		}
		if !ok {
			fix[k] = m.state[k]
			continue
		}
		if k == "value" && !reflect.DeepEqual(m.state[k], v) {
			valueChanged = true
		}
		if !sameJSON(v, changes[k]) {
			fix[k] = v // kept, but not as sent (clamped): tell the view
		}
		m.state[k] = v
	}
	m.mu.Unlock()
	if len(fix) > 0 {
		m.c.Send(map[string]any{"method": "update", "state": fix})
	}
	if valueChanged {
		m.runChanged()
	}
}

// newControl is newModel for a control labelled description: the
// description is shown beside it in a row (see shownRow), not as the model's
// own, and width is the control's width in that row ("" keeps the
// front-end's).
func newControl(name, modelName, viewName, description, width string, state map[string]any, accept func(string, any, map[string]any) (any, bool)) *model {
	state["description"] = ""
	m := newModel(name, modelName, viewName, state, accept)
	m.description, m.width = description, width
	return m
}

// ref is how another model's state names this one.
func (m *model) ref() string { return "IPY_MODEL_" + m.ID() }

// shownRow is the row a control shows as: an HBox of its description (an
// HTMLMath, so that HTML and $math$ in it render as they would in the
// control's own description) and the control, the row's items centred.
// jupyter-js-widgets 2.1.4, the front-end of Debian's Notebook 6, cuts a
// control's own description at 148 px ("scale of tau's half-C…"), has no
// style description_width (ipywidgets 7's), and draws a slider 300 px
// wide, its track about 100 px: a description of its own in the row is
// never cut, and a Layout gives the control its width. The row's models
// are made when the control is first shown, each before a state names it.
func (m *model) shownRow() *model {
	m.rowOnce.Do(func() {
		if m.width != "" {
			lay := newModel("Layout", "LayoutModel", "LayoutView", map[string]any{"width": m.width}, nil)
			m.parts = append(m.parts, lay)
			m.set(map[string]any{"layout": lay.ref()})
		}
		label := newModel("HTMLMath", "HTMLMathModel", "HTMLMathView", map[string]any{
			"value": m.description, "description": "", "placeholder": "", "disabled": false,
		}, nil)
		align := newModel("Layout", "LayoutModel", "LayoutView", map[string]any{"align_items": "center"}, nil)
		m.row = newModel("HBox", "HBoxModel", "HBoxView", map[string]any{
			"children": []any{label.ref(), m.ref()}, "box_style": "", "layout": align.ref(),
		}, nil)
		m.parts = append(m.parts, label, align, m.row)
	})
	return m.row
}

// bundle shows the widget — a control as its row (see shownRow): Notebook
// 6's widget manager (jupyter-js-widgets 2.x) draws a view when the comm
// says {"method": "display"}, in the widget area of the cell whose request
// is the message's parent; the bundle's MIME type is for front-ends and
// files that render views from it. Its text/plain is empty, as Notebook 6
// would print it under the widget.
func (m *model) bundle() display.Bundle {
	if m.description != "" {
		return m.shownRow().bundle()
	}
	m.c.Send(map[string]any{"method": "display"})
	return display.Bundle{
		Data: map[string]any{
			ViewMIME:         map[string]any{"model_id": m.ID(), "version_major": 1, "version_minor": 0},
			display.MIMEText: "",
		},
		Metadata: map[string]any{},
	}
}

// sameJSON reports whether a and b are the same on the wire (an int 7
// kept for the float64 7 that JSON decoded).
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// Close closes the widget's comm, and its row's: its views go away.
func (m *model) Close() {
	m.c.Close()
	for _, p := range m.parts {
		p.Close()
	}
}
