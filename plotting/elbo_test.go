package plotting

import (
	"math"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/ppl/vi"
)

func TestELBO(t *testing.T) {
	long := make([]float64, 100)
	for i := range long {
		long[i] = -10 - 100/float64(i+1)
	}
	long[3] = math.NaN()
	f := ELBO(long)
	ps := f.Panels()
	if len(ps) != 2 {
		t.Fatalf("%d panels, want the run and its last half", len(ps))
	}
	// 99 finite values; the last half holds 99 − 49 = 50.
	if got := ps[0].Points("line", "ELBO"); got != 99 {
		t.Errorf("run: %d points, want 99", got)
	}
	if got := ps[1].Points("line", "ELBO"); got != 50 {
		t.Errorf("last half: %d points, want 50", got)
	}
	if !strings.Contains(f.Title(), "100 iterations") {
		t.Errorf("title %q", f.Title())
	}
	checkRenders(t, f)
	if got := len(ELBO([]float64{-3, -2, -1}).Panels()); got != 1 {
		t.Errorf("short run: %d panels, want 1", got)
	}
	if err := ELBO(nil).Err(); err == nil || !strings.Contains(err.Error(), "ELBO") {
		t.Errorf("empty history: %v", err)
	}
}

func TestRunningMean(t *testing.T) {
	// By hand: window 2 over 1, 3, 5, 7 gives 1, 2, 4, 6.
	got := runningMean([]float64{1, 3, 5, 7}, 2)
	want := []float64{1, 2, 4, 6}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("runningMean = %v, want %v", got, want)
		}
	}
}

func TestELBOFromResult(t *testing.T) {
	r := &vi.Result{ELBO: []float64{-50, -40, -35}, ELBOIter: []int{100, 200, 300}}
	f := ELBO(r)
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.Title(), "300 iterations") || !strings.Contains(f.Title(), "last: -35") {
		t.Errorf("title %q", f.Title())
	}
	if got := f.Panels()[0].Points("line", "ELBO"); got != 3 {
		t.Errorf("%d points, want 3", got)
	}
	if err := ELBO("x").Err(); err == nil || !strings.Contains(err.Error(), "m.ADVI()") {
		t.Errorf("wrong type: %v", err)
	}
}

// TestELBOTrace: a result with a per-iteration trace draws every
// iteration, and the evaluations (every 100 iterations) as points, in the
// run panel and — those of its last half — in the last-half panel.
func TestELBOTrace(t *testing.T) {
	trace := make([]float64, 1000)
	for i := range trace {
		trace[i] = -10 - 100/float64(i+1)
	}
	r := &vi.Result{ELBOTrace: trace}
	for k := 100; k <= 1000; k += 100 {
		r.ELBOIter = append(r.ELBOIter, k)
		r.ELBO = append(r.ELBO, trace[k-1])
	}
	f := ELBO(r)
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	ps := f.Panels()
	if len(ps) != 2 {
		t.Fatalf("%d panels, want 2", len(ps))
	}
	if got := ps[0].Points("line", "ELBO"); got != 1000 {
		t.Errorf("run: %d ELBO points, want one per iteration (1000)", got)
	}
	if got := ps[0].Points("points", "evaluations"); got != 10 {
		t.Errorf("run: %d evaluations, want 10", got)
	}
	// The last half starts at iteration 501: evaluations 600 … 1000.
	if got := ps[1].Points("points", "evaluations"); got != 5 {
		t.Errorf("last half: %d evaluations, want 5", got)
	}
	if !strings.Contains(f.Title(), "1000 iterations") || !strings.Contains(f.Title(), "last: "+num(trace[999])) {
		t.Errorf("title %q", f.Title())
	}
	checkRenders(t, f)
}

// TestELBOView: the y range runs from the 1% quantile (type 7, as
// diag.Quantile) to the maximum, padded by 5%; with fewer than 100 values
// from the minimum. By hand: 0, 1, …, 99 with one value replaced by
// -1000: the 1% quantile of the sorted values is at position 0.99, between
// -1000 and 1: -1000 + 0.99·1001 = -9.01; range [-9.01, 99], pad 5.4005.
func TestELBOView(t *testing.T) {
	v := make([]float64, 100)
	for i := range v {
		v[i] = float64(i)
	}
	v[0] = -1000
	cases := []struct {
		v      []float64
		lo, hi float64
		ok     bool
	}{
		{v, -9.01 - 5.4005, 99 + 5.4005, true},
		{[]float64{-3, -1, -2}, -3.1, -0.9, true},
		{[]float64{2, 2}, 0, 0, false},
		{nil, 0, 0, false},
	}
	for _, c := range cases {
		lo, hi, ok := elboView(c.v)
		if ok != c.ok || math.Abs(lo-c.lo) > 1e-9 || math.Abs(hi-c.hi) > 1e-9 {
			t.Errorf("elboView(%d values) = %g, %g, %v; want %g, %g, %v", len(c.v), lo, hi, ok, c.lo, c.hi, c.ok)
		}
	}
}
