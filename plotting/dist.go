package plotting

import "fmt"

// Dist draws the distribution of any slice of numbers as Posterior draws
// a variable: a kernel density (or Histogram()), the HDI (Prob), the mean
// (or Median()), and optionally a reference value (Ref) and a ROPE. The
// first of Labels (or a string argument) names the numbers.
//
//	plotting.Dist(draws, plotting.Labels("y_rep mean"), plotting.Ref(0))
func Dist(xs []float64, args ...any) *Figure {
	names, set, err := parseArgs("Dist", args)
	if err != nil {
		return errorFigure("Dist", err)
	}
	if len(finiteSorted(xs)) == 0 {
		return errorFigure("Dist", fmt.Errorf("plotting: Dist got %d numbers and none is finite; pass a non-empty []float64 of finite values", len(xs)))
	}
	name := "x"
	if len(set.Labels) > 0 {
		name = set.Labels[0]
	} else if len(names) > 0 {
		name = names[0]
	}
	f := newFigure("Dist", set, 1, 1, 600, 360)
	pn := f.panel(0, 0, name, name, "density")
	distPanel(f, pn, xs, name, set, 0)
	f.title = set.Title
	if f.title == "" {
		f.title = fmt.Sprintf("Distribution of %s (%d values)", name, len(xs))
	}
	return f
}
