package diag

import (
	"fmt"
	"html"
	"math"
	"slices"
	"strings"
)

// Comparison ranks models by their estimated elpd, as ArviZ's compare
// does: the best first, each with its difference from the best and the
// standard error of that difference, and stacking weights.
type Comparison struct {
	Method string // "PSIS-LOO" or "WAIC", shared by every model
	Rows   []ComparisonRow
}

// ComparisonRow is one model of a Comparison.
type ComparisonRow struct {
	Name string
	Rank int // 0 for the best
	// ELPD, SE and P are the model's estimate, its standard error and its
	// effective number of parameters.
	ELPD, SE, P float64
	// Diff is the best model's elpd minus this one's (0 for the best), DSE
	// the standard error of that difference, from the pointwise
	// differences: sqrt(n·var(elpd_best,i - elpd_i)).
	Diff, DSE float64
	// Weight is the model's stacking weight (Yao et al. 2018): the
	// weights on the simplex that maximise the leave-one-out log score of
	// the models' mixture, Σ_i log Σ_k w_k p_k(y_i | y_-i).
	Weight float64
	// BadK counts observations with Pareto k above 0.7 (LOO): there the
	// estimate is unreliable.
	BadK int
}

// Compare compares models by their checks (all LOO or all WAIC, over the
// same observations), named by names in the same order.
func Compare(names []string, checks []*ModelCheck) (*Comparison, error) {
	if len(names) != len(checks) || len(checks) < 2 {
		return nil, fmt.Errorf("diag: compare needs 2 or more models, each with a name (got %d names, %d checks)", len(names), len(checks))
	}
	n := len(checks[0].Pointwise)
	for k, c := range checks {
		if c.Method != checks[0].Method {
			return nil, fmt.Errorf("diag: %s is %s and %s is %s: compare estimates of one kind", names[0], checks[0].Method, names[k], c.Method)
		}
		if len(c.Pointwise) != n {
			return nil, fmt.Errorf("diag: %s has %d observations and %s %d: compare models of the same data", names[0], n, names[k], len(c.Pointwise))
		}
	}
	cmp := &Comparison{Method: checks[0].Method}
	weights := stackingWeights(checks)
	for k, c := range checks {
		r := ComparisonRow{Name: names[k], ELPD: c.ELPD, SE: c.SE, P: c.P, Weight: weights[k]}
		for _, v := range c.ParetoK {
			if v > 0.7 {
				r.BadK++
			}
		}
		cmp.Rows = append(cmp.Rows, r)
	}
	order := make([]int, len(checks))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case checks[a].ELPD > checks[b].ELPD:
			return -1
		case checks[a].ELPD < checks[b].ELPD:
			return 1
		}
		return 0
	})
	best := checks[order[0]]
	rows := make([]ComparisonRow, len(order))
	d := make([]float64, n)
	for rank, k := range order {
		r := cmp.Rows[k]
		r.Rank = rank
		if rank > 0 {
			for i := range d {
				d[i] = best.Pointwise[i] - checks[k].Pointwise[i]
			}
			r.Diff, r.DSE = sumSE(d)
		}
		rows[rank] = r
	}
	cmp.Rows = rows
	return cmp, nil
}

// stackingWeights maximises Σ_i log Σ_k w_k exp(elpd_k,i) over the
// simplex by EM, as for a mixture's weights with its components fixed:
// the objective is concave, and each step raises it.
func stackingWeights(checks []*ModelCheck) []float64 {
	k, n := len(checks), len(checks[0].Pointwise)
	dens := make([][]float64, n) // exp(elpd_k,i - max_k elpd_k,i): each row scaled alike
	for i := range dens {
		dens[i] = make([]float64, k)
		m := math.Inf(-1)
		for j, c := range checks {
			m = math.Max(m, c.Pointwise[i])
			dens[i][j] = c.Pointwise[i]
		}
		for j := range dens[i] {
			dens[i][j] = math.Exp(dens[i][j] - m)
		}
	}
	w := make([]float64, k)
	for j := range w {
		w[j] = 1 / float64(k)
	}
	next := make([]float64, k)
	for iter := 0; iter < 100000; iter++ {
		clear(next)
		for _, row := range dens {
			mix := 0.0
			for j, p := range row {
				mix += w[j] * p
			}
			for j, p := range row {
				next[j] += w[j] * p / mix
			}
		}
		change := 0.0
		for j := range next {
			next[j] /= float64(n)
			change = math.Max(change, math.Abs(next[j]-w[j]))
		}
		copy(w, next)
		if change < 1e-12 {
			break
		}
	}
	return w
}

var comparisonHeader = []string{"", "rank", "elpd", "p", "elpd_diff", "weight", "se", "dse", "warning"}

func (c *Comparison) cells(r ComparisonRow) []string {
	warn := ""
	if r.BadK > 0 {
		warn = fmt.Sprintf("%d with k > 0.7", r.BadK)
	}
	f := func(v float64) string { return fmt.Sprintf("%.2f", v) }
	return []string{r.Name, fmt.Sprint(r.Rank), f(r.ELPD), f(r.P), f(r.Diff), fmt.Sprintf("%.3f", r.Weight), f(r.SE), f(r.DSE), warn}
}

func (c *Comparison) caption() string {
	return fmt.Sprintf("model comparison by %s elpd (higher is better; elpd_diff from the best, dse its standard error)", c.Method)
}

// Warnings says what to do about unreliable estimates.
func (c *Comparison) Warnings() []string {
	var w []string
	for _, r := range c.Rows {
		if r.BadK > 0 {
			have := "have"
			if r.BadK == 1 {
				have = "has"
			}
			w = append(w, fmt.Sprintf("%s: %s %s Pareto k above 0.7, where PSIS-LOO is unreliable: refit without them (exact LOO) or use K-fold cross-validation for this model.", r.Name, Plural(r.BadK, "observation"), have))
		}
	}
	return w
}

// String renders the comparison as a text table, warnings below it.
func (c *Comparison) String() string {
	var b strings.Builder
	b.WriteString(c.caption() + "\n")
	rows := [][]string{comparisonHeader}
	for _, r := range c.Rows {
		rows = append(rows, c.cells(r))
	}
	b.WriteString(TextTable(rows))
	for _, w := range c.Warnings() {
		b.WriteString("warning: " + w + "\n")
	}
	return b.String()
}

// HTML renders the comparison as a table (a notebook shows it when it is
// a cell's last expression).
func (c *Comparison) HTML() string {
	var b strings.Builder
	b.WriteString(`<div class="gobayes-compare"><table style="font-variant-numeric: tabular-nums">`)
	b.WriteString(`<caption style="text-align:left">` + html.EscapeString(c.caption()) + "</caption><thead><tr>")
	for _, h := range comparisonHeader {
		b.WriteString("<th>" + html.EscapeString(h) + "</th>")
	}
	b.WriteString("</tr></thead><tbody>")
	for _, r := range c.Rows {
		b.WriteString("<tr>")
		for j, s := range c.cells(r) {
			if j == 0 {
				b.WriteString(`<th style="text-align:left">` + html.EscapeString(s) + "</th>")
			} else {
				b.WriteString(`<td style="text-align:right">` + html.EscapeString(s) + "</td>")
			}
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	for _, w := range c.Warnings() {
		b.WriteString(`<p style="color:#b00">⚠ ` + html.EscapeString(w) + "</p>")
	}
	b.WriteString("</div>")
	return b.String()
}

// TextTable lays rows out as an aligned text table: the first column
// left-aligned, the others right-aligned, two spaces apart, a newline
// after each row (the summaries' and the comparison's text form).
func TextTable(rows [][]string) string {
	var width []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			if i == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString("  " + pad + c)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
