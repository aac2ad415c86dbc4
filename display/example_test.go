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
