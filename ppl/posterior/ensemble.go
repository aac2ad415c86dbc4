package posterior

import (
	"fmt"
	"html"
	"strings"
)

// Ensemble is the streaming summary of every chain of a lockstep run (the
// posterior's Chains hold the few kept ones): the mean and standard
// deviation of each coordinate of the unconstrained position over all
// draws of all chains, accumulated as the run goes (Welford), in memory
// that grows with the number of chains, not of draws.
type Ensemble struct {
	Chains, Draws int
	// Names are the coordinates: a parameter's own name (Stan style,
	// "theta[2]") where it is unconstrained, else the name with
	// "(unconstrained)", e.g. the log of a positive scale.
	Names    []string
	Mean, SD []float64
}

// String renders the ensemble as a text table.
func (e *Ensemble) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", e.caption())
	w := len("coordinate")
	for _, n := range e.Names {
		w = max(w, len(n))
	}
	fmt.Fprintf(&b, "%-*s  %10s  %10s\n", w, "coordinate", "mean", "sd")
	for i, n := range e.Names {
		fmt.Fprintf(&b, "%-*s  %10.4g  %10.4g\n", w, n, e.Mean[i], e.SD[i])
	}
	return b.String()
}

// HTML renders the ensemble as an HTML table (its notebook display).
func (e *Ensemble) HTML() string {
	var b strings.Builder
	b.WriteString(`<table style="font-variant-numeric: tabular-nums"><caption style="text-align:left">`)
	b.WriteString(html.EscapeString(e.caption()))
	b.WriteString("</caption><thead><tr><th></th><th>mean</th><th>sd</th></tr></thead><tbody>")
	for i, n := range e.Names {
		fmt.Fprintf(&b, `<tr><th style="text-align:left">%s</th><td style="text-align:right">%.4g</td><td style="text-align:right">%.4g</td></tr>`,
			html.EscapeString(n), e.Mean[i], e.SD[i])
	}
	b.WriteString("</tbody></table>")
	return b.String()
}

func (e *Ensemble) caption() string {
	return fmt.Sprintf("all %d chains × %d draws (streaming moments, unconstrained scale)", e.Chains, e.Draws)
}
