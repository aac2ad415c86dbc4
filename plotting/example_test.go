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
	// plotting: Trace: unknown variable "sigma" of model fixture; the posterior records mu, tau, theta — pass one of those, or a column such as "theta[3]"
}

func ExampleDist() {
	describe(Dist([]float64{1, 2, 2, 3, 3, 3, 4, 4, 5}, "score", Median()))
	// Output:
	// Distribution of score (9 values)
	//   legend: 94% HDI
	//   legend: median
	//   panel (0,0) "score\nmedian 3, 94% HDI [1, 5]": bars[probability] band[94% HDI] rule[median]
}
