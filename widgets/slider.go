package widgets

import (
	"fmt"
	"math"

	"github.com/gobayes/gobayes/display"
)

// sliderWidth is a slider's width beside its description: most of a
// projected notebook's width, so that the track is long enough to aim at.
const sliderWidth = "60%"

// Float is a slider over real numbers (the front-end's FloatSlider).
type Float struct{ m *model }

// FloatSlider makes a slider from min to max, at value, labelled
// description, in 100 steps. Show it as a cell's value or with display.Show.
func FloatSlider(description string, min, max, value float64) *Float {
	if max < min {
		min, max = max, min
	}
	value = clampFloat(value, min, max)
	step := (max - min) / 100
	if step <= 0 {
		step = 0.1
	}
	s := &Float{}
	s.m = newControl("FloatSlider", "FloatSliderModel", "FloatSliderView", description, sliderWidth, map[string]any{
		"min": min, "max": max, "step": step, "value": value,
		"orientation": "horizontal", "readout": true, "readout_format": ".2f",
		"continuous_update": true, "disabled": false, "_range": false, "slider_color": nil,
	}, s.accept)
	return s
}

func clampFloat(v, min, max float64) float64 { return math.Max(min, math.Min(max, v)) }

// accept takes a number within the bounds for value (a number outside is
// clamped), and any other key as sent.
func (s *Float) accept(key string, v any, state map[string]any) (any, bool) {
	if key != "value" {
		return v, true
	}
	f, ok := v.(float64)
	if !ok || math.IsNaN(f) {
		return nil, false
	}
	min, _ := state["min"].(float64)
	max, _ := state["max"].(float64)
	return clampFloat(f, min, max), true
}

// Value is the slider's position.
func (s *Float) Value() float64 { f, _ := s.m.get("value").(float64); return f }

// SetValue moves the slider (within its bounds) and runs its handlers.
func (s *Float) SetValue(v float64) {
	min, _ := s.m.get("min").(float64)
	max, _ := s.m.get("max").(float64)
	s.m.set(map[string]any{"value": clampFloat(v, min, max)})
}

// SetStep sets the slider's step.
func (s *Float) SetStep(step float64) { s.m.set(map[string]any{"step": step}) }

// OnChange runs f with the new value whenever the slider moves.
func (s *Float) OnChange(f func(v float64)) { s.m.onAnyChange(func() { f(s.Value()) }) }

// ID is the widget's model id.
func (s *Float) ID() string { return s.m.ID() }

// Close removes the slider.
func (s *Float) Close() { s.m.Close() }

func (s *Float) onAnyChange(f func()) { s.m.onAnyChange(f) }

// Bundle shows the slider.
func (s *Float) Bundle() display.Bundle { return s.m.bundle() }

func (s *Float) String() string {
	return fmt.Sprintf("FloatSlider(%q, value=%g)", s.m.description, s.Value())
}

// Int is a slider over integers (the front-end's IntSlider).
type Int struct{ m *model }

// IntSlider makes a slider from min to max in steps of 1, at value,
// labelled description.
func IntSlider(description string, min, max, value int) *Int {
	if max < min {
		min, max = max, min
	}
	value = clampInt(value, min, max)
	s := &Int{}
	s.m = newControl("IntSlider", "IntSliderModel", "IntSliderView", description, sliderWidth, map[string]any{
		"min": min, "max": max, "step": 1, "value": value,
		"orientation": "horizontal", "readout": true, "readout_format": "d",
		"continuous_update": true, "disabled": false, "_range": false,
	}, s.accept)
	return s
}

func clampInt(v, min, max int) int {
	if v < min {
		return min
	}
	if v > max {
		return max
	}
	return v
}

// accept takes a whole number for value (clamped to the bounds).
func (s *Int) accept(key string, v any, state map[string]any) (any, bool) {
	if key != "value" {
		return v, true
	}
	f, ok := v.(float64)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return nil, false
	}
	min, _ := state["min"].(int)
	max, _ := state["max"].(int)
	return clampInt(int(f), min, max), true
}

// Value is the slider's position.
func (s *Int) Value() int { n, _ := s.m.get("value").(int); return n }

// SetValue moves the slider (within its bounds) and runs its handlers.
func (s *Int) SetValue(v int) {
	min, _ := s.m.get("min").(int)
	max, _ := s.m.get("max").(int)
	s.m.set(map[string]any{"value": clampInt(v, min, max)})
}

// OnChange runs f with the new value whenever the slider moves.
func (s *Int) OnChange(f func(v int)) { s.m.onAnyChange(func() { f(s.Value()) }) }

// ID is the widget's model id.
func (s *Int) ID() string { return s.m.ID() }

// Close removes the slider.
func (s *Int) Close() { s.m.Close() }

func (s *Int) onAnyChange(f func()) { s.m.onAnyChange(f) }

// Bundle shows the slider.
func (s *Int) Bundle() display.Bundle { return s.m.bundle() }

func (s *Int) String() string {
	return fmt.Sprintf("IntSlider(%q, value=%d)", s.m.description, s.Value())
}
