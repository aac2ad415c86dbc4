package posterior

import (
	"math"
	"reflect"
	"testing"

	"github.com/gobayes/gobayes/ppl/diag"
)

// TestSummaryStats: the summary's rows are the diagnostics computed one
// by one, and a draw changed in place changes the summary (the cache is
// keyed by the draws, not by the posterior or the column).
func TestSummaryStats(t *testing.T) {
	p := arPosterior(3, 4, 501, 5)
	check := func(when string) {
		t.Helper()
		s := p.Summary()
		for j, r := range s.Rows {
			ch := p.byIndex(j)
			want := []float64{diag.Rhat(ch), diag.ESSBulk(ch), diag.ESSTail(ch), diag.MCSEMean(ch), diag.MCSESD(ch)}
			got := []float64{r.Rhat, r.ESSBulk, r.ESSTail, r.MCSEMean, r.MCSESD}
			for k := range want {
				if math.Abs(got[k]-want[k]) > 1e-12*math.Abs(want[k]) {
					t.Errorf("%s: %s statistic %d = %.15g, want %.15g", when, r.Name, k, got[k], want[k])
				}
			}
		}
	}
	check("first")
	check("cached")
	p.Chains[1].Values[2][7] += 40 // an outlier: every statistic of x[3] moves
	check("after a change in place")
	q := p.Select("x[2]", "x[0]")
	if a, b := q.Summary().Rows, []SummaryRow{p.Summary().Rows[2], p.Summary().Rows[0]}; !reflect.DeepEqual(a, b) {
		t.Errorf("Select's summary %+v, want the posterior's rows %+v", a, b)
	}
}
