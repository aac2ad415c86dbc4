package widgets

import (
	"fmt"

	"github.com/gobayes/gobayes/display"
)

// Choice is a dropdown of labels (the front-end's Dropdown).
type Choice struct {
	m       *model
	options []string
}

// Dropdown makes a dropdown labelled description offering options, the
// first selected. With no options it offers nothing and its value is "".
func Dropdown(description string, options ...string) *Choice {
	d := &Choice{options: append([]string{}, options...)}
	value := ""
	if len(options) > 0 {
		value = options[0]
	}
	labels := make([]any, len(options))
	for i, o := range options {
		labels[i] = o
	}
	d.m = newControl("Dropdown", "DropdownModel", "DropdownView", description, "", map[string]any{
		"_options_labels": labels, "value": value,
		"disabled": false,
	}, d.accept)
	return d
}

// accept takes one of the options for value.
func (d *Choice) accept(key string, v any, _ map[string]any) (any, bool) {
	if key != "value" {
		return v, true
	}
	s, ok := v.(string)
	if !ok || !d.has(s) {
		return nil, false
	}
	return s, true
}

func (d *Choice) has(s string) bool {
	for _, o := range d.options {
		if o == s {
			return true
		}
	}
	return false
}

// Value is the selected option.
func (d *Choice) Value() string { s, _ := d.m.get("value").(string); return s }

// SetValue selects an option and runs the handlers; a value that is not
// one of the options is ignored.
func (d *Choice) SetValue(v string) {
	if d.has(v) {
		d.m.set(map[string]any{"value": v})
	}
}

// OnChange runs f with the new selection whenever it changes.
func (d *Choice) OnChange(f func(v string)) { d.m.onAnyChange(func() { f(d.Value()) }) }

// ID is the widget's model id.
func (d *Choice) ID() string { return d.m.ID() }

// Close removes the dropdown.
func (d *Choice) Close() { d.m.Close() }

func (d *Choice) onAnyChange(f func()) { d.m.onAnyChange(f) }

// Bundle shows the dropdown.
func (d *Choice) Bundle() display.Bundle { return d.m.bundle() }

func (d *Choice) String() string {
	return fmt.Sprintf("Dropdown(%q, value=%q)", d.m.description, d.Value())
}
