package widgets_test

import (
	"fmt"

	"github.com/gobayes/gobayes/widgets"
)

// Outside a kernel the widget has no front-end, but its value and handlers
// work the same: a cell reads Value, and OnChange runs when the value
// changes (here from Go; in a notebook, when the student moves the slider).
func ExampleFloatSlider() {
	scale := widgets.FloatSlider("prior scale", 0.1, 10, 1)
	scale.OnChange(func(v float64) { fmt.Printf("redraw with scale %.1f\n", v) })
	scale.SetValue(2.5)
	scale.SetValue(50) // beyond the slider: kept at its maximum
	fmt.Println(scale.Value())
	// Output:
	// redraw with scale 2.5
	// redraw with scale 10.0
	// 10
}

func ExampleDropdown() {
	family := widgets.Dropdown("family", "Normal", "StudentT")
	family.SetValue("Cauchy") // not an option: ignored
	fmt.Println(family.Value())
	family.SetValue("StudentT")
	fmt.Println(family.Value())
	// Output:
	// Normal
	// StudentT
}
