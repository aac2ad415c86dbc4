package posterior

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/gobayes/gobayes/ppl/diag"
)

// Summary is the table az.summary shows, one row per scalar column, with
// the run's warnings.
type Summary struct {
	Model   string
	Sampler string
	Chains  int
	// RunChains is the run's number of chains when it kept only Chains
	// of them (Posterior.RunChains).
	RunChains int
	// Backend is Posterior.Backend.
	Backend string
	// DenseChains counts the chains that sampled with a dense metric
	// (asked for, or chosen in warm-up).
	DenseChains int
	Draws       int
	Seconds     float64 // wall time of the run (the slowest chain)
	// Approximation: the draws come from a fitted approximation (ADVI);
	// the chain diagnostics are not shown.
	Approximation bool
	// Independent: the draws are independent draws (the prior
	// predictive); the chain diagnostics are not shown.
	Independent bool
	Rows        []SummaryRow
	Warnings    []string
	// Hidden counts scalars left out of the table (a posterior's own
	// display shows DisplayRows of them).
	Hidden int
}

func (s *Summary) hiddenNote() string {
	return fmt.Sprintf("… and %d more scalars: Summary() lists them all, Summary(\"name\") some.", s.Hidden)
}

// SummaryRow is one scalar's line of the summary.
type SummaryRow struct {
	Name             string
	Mean, SD         float64
	HDI3, HDI97      float64 // 94% highest-density interval
	MCSEMean, MCSESD float64
	ESSBulk, ESSTail float64
	Rhat             float64
	// ESSBulkPerSecond is bulk ESS per second of wall time, warm-up
	// included; NaN for runs shorter than MinSecondsForRate, whose timing
	// is mostly overhead and clock resolution.
	ESSBulkPerSecond float64
	Q5, Median, Q95  float64
}

// Summary computes the summary of the named variables or columns (every
// column when none are named).
func (p *Posterior) Summary(names ...string) *Summary {
	cols := p.allColumns()
	if len(names) > 0 {
		var err error
		if cols, err = p.Expand(names...); err != nil {
			panic(err)
		}
	}
	s := &Summary{Model: p.Model, Sampler: p.Sampler, Chains: len(p.Chains), RunChains: p.RunChains, Backend: p.Backend, Draws: p.Draws(), Seconds: p.WallSeconds(), Approximation: p.Approximation, Independent: p.Independent}
	for _, ch := range p.Chains {
		if ch.Adaptation.Dense {
			s.DenseChains++
		}
	}
	// The table's columns and the warnings' (all of them) in one go.
	need := cols
	if p.chainWarnings() {
		need = p.allColumns()
		if len(names) > 0 {
			need = append(need, cols...) // a column named twice is cached once
		}
	}
	stats := p.columnStats(need)
	for _, j := range cols {
		s.Rows = append(s.Rows, p.row(j, stats[j], s.Seconds))
	}
	if p.Approximation || p.Independent {
		nan := math.NaN()
		for i := range s.Rows {
			r := &s.Rows[i]
			r.MCSEMean, r.MCSESD, r.ESSBulk, r.ESSTail, r.Rhat, r.ESSBulkPerSecond = nan, nan, nan, nan, nan, nan
		}
	}
	s.Warnings = p.warnings(stats)
	return s
}

// WallSeconds is the wall time of the run: chains run in parallel, so the
// slowest chain's time.
func (p *Posterior) WallSeconds() float64 {
	w := 0.0
	for _, s := range p.Seconds {
		w = math.Max(w, s)
	}
	return w
}

// MinSecondsForRate is the shortest wall time for which the summary shows
// ESS per second: below it, fixed costs and the clock's resolution dominate
// and the rate says nothing about the sampler.
const MinSecondsForRate = 0.05

// row is column j's line, from its statistics st.
func (p *Posterior) row(j int, st diag.Scalar, seconds float64) SummaryRow {
	r := SummaryRow{
		Name: p.Label(j), Mean: st.Mean, SD: st.SD, HDI3: st.HDILo, HDI97: st.HDIHi,
		MCSEMean: st.MCSEMean, MCSESD: st.MCSESD, ESSBulk: st.ESSBulk, ESSTail: st.ESSTail, Rhat: st.Rhat,
		Q5: st.Q5, Median: st.Median, Q95: st.Q95,
		ESSBulkPerSecond: math.NaN(), // no timing (prior predictive, files), or a constant
	}
	if seconds >= MinSecondsForRate && !math.IsNaN(st.ESSBulk) {
		r.ESSBulkPerSecond = st.ESSBulk / seconds
	}
	return r
}

var summaryHeader = []string{"", "mean", "sd", "hdi_3%", "hdi_97%", "mcse_mean", "mcse_sd", "ess_bulk", "ess_tail", "r_hat", "ess_bulk/s"}

// approximationColumns is how many of the columns an approximation's
// summary shows: the name, moments and interval, no chain diagnostics.
const approximationColumns = 5

// header is the table's header row.
func (s *Summary) header() []string {
	if s.Approximation || s.Independent {
		return summaryHeader[:approximationColumns]
	}
	return summaryHeader
}

// rowCells are row i's texts, as many as the header's, in the table's
// column formats f.
func (s *Summary) rowCells(i int, text bool, f tableFormats) []string {
	return s.Rows[i].cells(text, f)[:len(s.header())]
}

// tableFormats are the number formats of the summary's columns: one per
// column (the two HDI bounds share one, the two MCSEs another), chosen
// from the magnitudes the column holds.
type tableFormats struct {
	mean, sd, hdi, mcse diag.ColumnFormat
	rhatDecimals        int
}

// formats chooses the columns' formats: fixed with 3 decimals (as
// az.summary rounds), more where a column's smallest value needs them
// for two significant digits, and scientific for the whole column when
// that takes more than 5 decimals (or a value reaches 10⁶).
func (s *Summary) formats() tableFormats {
	var mean, sd, hdi, mcse []float64
	f := tableFormats{rhatDecimals: 3}
	for _, r := range s.Rows {
		mean, sd = append(mean, r.Mean), append(sd, r.SD)
		hdi, mcse = append(hdi, r.HDI3, r.HDI97), append(mcse, r.MCSEMean, r.MCSESD)
		if d := rhatDecimals(r.Rhat); d > f.rhatDecimals {
			f.rhatDecimals = d
		}
	}
	of := func(col []float64) diag.ColumnFormat { return diag.FormatFor(col, 2, 3, 5) }
	f.mean, f.sd, f.hdi, f.mcse = of(mean), of(sd), of(hdi), of(mcse)
	return f
}

// cells are the row's texts; flagged R-hats get a trailing "*" in text
// (the HTML colours them instead).
func (r *SummaryRow) cells(text bool, f tableFormats) []string {
	rh := "—"
	if !math.IsNaN(r.Rhat) {
		rh = strconv.FormatFloat(r.Rhat, 'f', f.rhatDecimals, 64)
	}
	if text && RhatHigh(r.Rhat) {
		rh += "*"
	}
	return []string{r.Name, f.mean.Format(r.Mean), f.sd.Format(r.SD), f.hdi.Format(r.HDI3), f.hdi.Format(r.HDI97),
		missing(f.mcse.Format, r.MCSEMean), missing(f.mcse.Format, r.MCSESD),
		missing(count, r.ESSBulk), missing(count, r.ESSTail), rh, missing(count, r.ESSBulkPerSecond)}
}

// missing shows a diagnostic that is not computed (NaN) as a dash.
func missing(format func(float64) string, v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return format(v)
}

func count(v float64) string {
	if math.IsNaN(v) {
		return "nan"
	}
	return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
}

// rhat shows 3 decimals, so that a value flagged as above 1.01 (RhatHigh)
// visibly is: 1.012, not 1.01; one that 3 decimals would show as 1.010
// gets as many more as it takes (1.0104).
func rhat(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', rhatDecimals(v), 64)
}

// rhatDecimals is how many decimals rhat shows v with.
func rhatDecimals(v float64) int {
	if math.IsNaN(v) || !RhatHigh(v) {
		return 3
	}
	return decimalsNeeded(v, 3, func(shown float64) bool { return shown > 1.01 })
}

// decimalsNeeded is dec, or as many more decimals (up to 12) as it takes
// for v formatted with them to pass ok: a flagged R-hat shown above 1.01,
// an E-BFMI under 0.3 shown under it.
func decimalsNeeded(v float64, dec int, ok func(shown float64) bool) int {
	d := dec
	for ; d < 12; d++ {
		if shown, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', d, 64), 64); ok(shown) {
			break
		}
	}
	return d
}

func (s *Summary) caption() string {
	chains := fmt.Sprintf("%d chains × %d draws", s.Chains, s.Draws)
	switch {
	case s.Approximation:
		chains = fmt.Sprintf("%d draws from the approximation", s.Chains*s.Draws)
	case s.Independent:
		chains = fmt.Sprintf("%d independent draws", s.Chains*s.Draws)
	case s.RunChains > s.Chains:
		chains = fmt.Sprintf("%d kept of %d chains × %d draws", s.Chains, s.RunChains, s.Draws)
	case s.Chains == 1:
		chains = fmt.Sprintf("1 chain × %d draws", s.Draws)
	}
	switch {
	case s.DenseChains == 0:
	case s.DenseChains == s.Chains:
		chains += ", dense metric"
	default:
		chains += fmt.Sprintf(", dense metric in %d of %d chains", s.DenseChains, s.Chains)
	}
	c := fmt.Sprintf("%s: %s, %s, %.2f s", s.Model, s.Sampler, chains, s.Seconds)
	if s.Backend != "" {
		c += " on " + s.Backend
	}
	if s.Model == "" {
		c = c[2:]
	}
	return c
}

// String renders the summary as a text table, warnings below it.
func (s *Summary) String() string {
	rows := [][]string{s.header()}
	f := s.formats()
	for i := range s.Rows {
		rows = append(rows, s.rowCells(i, true, f))
	}
	var b strings.Builder
	b.WriteString(s.caption())
	b.WriteByte('\n')
	b.WriteString(diag.TextTable(rows))
	if n := s.note(); n != "" {
		b.WriteString("note: " + n + "\n")
	}
	if s.Hidden > 0 {
		b.WriteString(s.hiddenNote() + "\n")
	}
	for _, w := range s.Warnings {
		b.WriteString("warning: ")
		b.WriteString(w)
		b.WriteByte('\n')
	}
	return b.String()
}

// HTML renders the summary as an HTML table, warnings below it.
func (s *Summary) HTML() string {
	var b strings.Builder
	b.WriteString(`<div class="gobayes-summary"><table style="font-variant-numeric: tabular-nums">`)
	b.WriteString("<caption style=\"text-align:left\">" + html.EscapeString(s.caption()) + "</caption>")
	b.WriteString("<thead><tr>")
	for _, h := range s.header() {
		b.WriteString("<th>" + html.EscapeString(h) + "</th>")
	}
	b.WriteString("</tr></thead><tbody>")
	f := s.formats()
	for i := range s.Rows {
		b.WriteString("<tr>")
		for k, c := range s.rowCells(i, false, f) {
			if k == 0 {
				b.WriteString("<th style=\"text-align:left\">" + html.EscapeString(c) + "</th>")
				continue
			}
			style, attr := "text-align:right", ""
			if k == 9 && RhatHigh(s.Rows[i].Rhat) {
				// Starred as in text, not marked by colour alone.
				style, attr, c = style+";color:#b00", ` title="R-hat above 1.01"`, c+"*"
			}
			b.WriteString("<td" + attr + " style=\"" + style + "\">" + c + "</td>")
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	if n := s.note(); n != "" {
		b.WriteString("<p>" + html.EscapeString(n) + "</p>")
	}
	if s.Hidden > 0 {
		b.WriteString("<p>" + html.EscapeString(s.hiddenNote()) + "</p>")
	}
	for _, w := range s.Warnings {
		b.WriteString(`<p style="color:#b00">⚠ ` + html.EscapeString(w) + "</p>")
	}
	b.WriteString("</div>")
	return b.String()
}

const (
	approximationNote = "independent draws from an approximation: MCSE, ESS and R-hat, which judge Markov chains, do not apply; compare with a sampler's fit to judge the approximation."
	independentNote   = "independent draws: MCSE, ESS and R-hat, which judge Markov chains, do not apply."
)

// note says why the table has no chain diagnostics, "" when it has them.
func (s *Summary) note() string {
	switch {
	case s.Approximation:
		return approximationNote
	case s.Independent:
		return independentNote
	}
	return ""
}

// DisplayRows is how many scalars a posterior's own display shows; the
// rest are counted in a note (Summary shows every one).
const DisplayRows = 40

// display is the summary a posterior shows of itself: its first
// DisplayRows scalars, warnings over all of them.
func (p *Posterior) display() *Summary {
	if len(p.Columns) <= DisplayRows {
		return p.Summary()
	}
	s := p.Summary(p.Columns[:DisplayRows]...)
	s.Hidden = len(p.Columns) - DisplayRows
	return s
}

// Preparing says what the posterior's display computes, for a notebook to
// show when that takes a while (display.Preparer).
func (p *Posterior) Preparing() string {
	return fmt.Sprintf("computing the summary and diagnostics of %d scalars × %d chains × %d draws", len(p.Columns), len(p.Chains), p.Draws())
}

// String renders the posterior's summary as text.
func (p *Posterior) String() string { return p.display().String() }

// HTML renders the posterior's summary as an HTML table (the notebook's
// display of a posterior).
func (p *Posterior) HTML() string { return p.display().HTML() }
