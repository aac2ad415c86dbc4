package display_test

import (
	"fmt"

	"github.com/gobayes/gobayes/display"
)

type temperature float64

func (t temperature) HTML() string   { return fmt.Sprintf("<b>%.1f °C</b>", float64(t)) }
func (t temperature) String() string { return fmt.Sprintf("%.1f °C", float64(t)) }

// Render gives the bundle the kernel shows for a cell's final value.
func ExampleRender() {
	b := display.Render(temperature(21.5))
	fmt.Println(b.Data["text/html"])
	fmt.Println(b.Data["text/plain"])
	// Output:
	// <b>21.5 °C</b>
	// 21.5 °C
}

// Outside a notebook, display calls print the text form.
func ExampleHTML() {
	display.HTML("<p>Hello, <i>world</i></p>")
	display.Show(temperature(3))
	// Output:
	// Hello, world
	// 3.0 °C
}

// A handle keeps one display that later calls replace; outside a notebook
// each update prints its text form.
func ExampleNewHandle() {
	h := display.NewHandle()
	for _, done := range []int{0, 50, 100} {
		h.Update(fmt.Sprintf("sampling: %d%%", done))
	}
	// Output:
	// "sampling: 0%"
	// "sampling: 50%"
	// "sampling: 100%"
}

// JSON shows a value as a JSON tree in the notebook, indented JSON as text.
func ExampleJSON() {
	display.JSON(map[string]float64{"mu": 1.5})
	// Output:
	// {
	//   "mu": 1.5
	// }
}
