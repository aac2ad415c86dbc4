package plotting

import (
	"fmt"
)

// describe prints a figure's title, legend and panels with their
// elements, the text a test or a screen reader can check.
func describe(f *Figure) {
	if f.Err() != nil {
		fmt.Println("error:", f.Err())
		return
	}
	fmt.Println(f.Title())
	for _, e := range f.Legend() {
		fmt.Printf("  legend: %s\n", e.Label)
	}
	for _, p := range f.Panels() {
		fmt.Printf("  panel (%d,%d) %q:", p.Row, p.Col, p.Title)
		for _, e := range p.Elements {
			fmt.Printf(" %s[%s]", e.Kind, e.Label)
		}
		fmt.Println()
	}
}

func ExampleTrace() {
	fit := fixture() // 4 chains × 200 draws, 3 divergent
	describe(Trace(fit, "mu", Chains(1, 2)))
	// Output:
	// Trace of mu
	//   legend: chain 1
	//   legend: chain 2
	//   legend: divergent (2)
	//   panel (0,0) "mu": line[chain 1] line[chain 2] ticks[divergent]
	//   panel (0,1) "mu": line[chain 1] line[chain 2] ticks[divergent]
}

func ExamplePosterior() {
	describe(Posterior(fixture(), "tau", Ref(1), Prob(0.9)))
	// Output:
	// Posterior of tau
	//   legend: 90% HDI
	//   legend: mean
	//   legend: reference
	//   panel (0,0) "tau\nmean 1.49, 90% HDI [0.0655, 3.12]\n53.4% < 1 < 46.6%": band[90% HDI] line[density] rule[mean] rule[reference]
}

func ExampleTrace_unknownVariable() {
	fig := Trace(fixture(), "sigma")
	fmt.Println(fig) // a notebook shows this text
	// Output:
	// plotting: Trace: unknown variable "sigma" of model fixture; the posterior records mu, tau, theta — pass one of those, or a column such as "theta[2]"
}

func ExampleDist() {
	describe(Dist([]float64{1, 2, 2, 3, 3, 3, 4, 4, 5}, "score", Median()))
	// Output:
	// Distribution of score (9 values)
	//   legend: 94% HDI
	//   legend: median
	//   panel (0,0) "score\nmedian 3, 94% HDI [1, 5]": bars[probability] band[94% HDI] rule[median]
}

// One call at the top of a notebook sets every later figure: larger, with
// larger text, for a projector. A figure's own Size still wins.
func ExampleSetDefaults() {
	prev := SetDefaults(Defaults{Width: 1000, FontScale: 1.4})
	defer SetDefaults(prev)
	xs := []float64{1, 2, 2, 3, 4}
	w, h, dpi := Dist(xs).Size()
	fmt.Printf("%d×%d CSS px, PNG at %d DPI: %d×%d pixels\n", w, h, dpi, w*dpi/96, h*dpi/96)
	w, h, _ = Dist(xs, Size(640, 480)).Size()
	fmt.Printf("with Size(640, 480): %d×%d\n", w, h)
	// Output:
	// 750×450 CSS px, PNG at 192 DPI: 1500×900 pixels
	// with Size(640, 480): 640×480
}
