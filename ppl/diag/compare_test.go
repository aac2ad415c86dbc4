package diag

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func check(method string, pointwise ...float64) *ModelCheck {
	c := &ModelCheck{Method: method, Pointwise: pointwise}
	c.ELPD, c.SE = sumSE(pointwise)
	return c
}

// stackingScore is the objective the weights maximise.
func stackingScore(checks []*ModelCheck, w []float64) float64 {
	s := 0.0
	for i := range checks[0].Pointwise {
		mix := 0.0
		for k, c := range checks {
			mix += w[k] * math.Exp(c.Pointwise[i])
		}
		s += math.Log(mix)
	}
	return s
}

func TestCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	n := 40
	pw := func(shift, noise float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = -1 - shift + noise*rng.NormFloat64()
		}
		return out
	}
	a, b, c := check("PSIS-LOO", pw(0, 0.3)...), check("PSIS-LOO", pw(0.5, 0.6)...), check("PSIS-LOO", pw(0.2, 0.8)...)
	cmp, err := Compare([]string{"b", "a", "c"}, []*ModelCheck{b, a, c})
	if err != nil {
		t.Fatal(err)
	}
	// Ranked by elpd, differences and their SE from the pointwise values.
	order := []string{"a", "c", "b"}
	byName := map[string]*ModelCheck{"a": a, "b": b, "c": c}
	for rank, name := range order {
		r := cmp.Rows[rank]
		if r.Name != name || r.Rank != rank {
			t.Fatalf("rank %d is %s (rank field %d), want %s", rank, r.Name, r.Rank, name)
		}
		diff, sq := 0.0, 0.0
		d := make([]float64, n)
		for i := range d {
			d[i] = a.Pointwise[i] - byName[name].Pointwise[i]
			diff += d[i]
		}
		mean := diff / float64(n)
		for _, v := range d {
			sq += (v - mean) * (v - mean)
		}
		dse := math.Sqrt(float64(n) * sq / float64(n-1))
		if math.Abs(r.Diff-diff) > 1e-12 || math.Abs(r.DSE-dse) > 1e-12 {
			t.Errorf("%s: diff %v dse %v, want %v %v", name, r.Diff, r.DSE, diff, dse)
		}
	}
	// The weights sum to 1 and no point of a fine grid of the simplex
	// scores higher.
	w := []float64{cmp.Rows[0].Weight, cmp.Rows[1].Weight, cmp.Rows[2].Weight}
	ranked := []*ModelCheck{a, c, b}
	if s := w[0] + w[1] + w[2]; math.Abs(s-1) > 1e-9 {
		t.Errorf("weights %v sum to %v", w, s)
	}
	got := stackingScore(ranked, w)
	for i := 0; i <= 100; i++ {
		for j := 0; i+j <= 100; j++ {
			g := []float64{float64(i) / 100, float64(j) / 100, float64(100-i-j) / 100}
			if s := stackingScore(ranked, g); s > got+1e-9 {
				t.Fatalf("weights %v score %v, the grid point %v scores %v", w, got, g, s)
			}
		}
	}
	// A model better at every observation takes all the weight.
	better := check("PSIS-LOO", pw(-1, 0)...)
	cmp2, _ := Compare([]string{"a", "better"}, []*ModelCheck{a, better})
	if cmp2.Rows[0].Name != "better" || cmp2.Rows[0].Weight < 0.999 {
		t.Errorf("dominating model: %+v", cmp2.Rows[0])
	}
	text := cmp.String()
	for _, s := range []string{"elpd_diff", "weight", "dse", "a ", "PSIS-LOO"} {
		if !strings.Contains(text, s) {
			t.Errorf("the table lacks %q:\n%s", s, text)
		}
	}
	for _, bad := range []struct {
		names  []string
		checks []*ModelCheck
		msg    string
	}{
		{[]string{"a"}, []*ModelCheck{a}, "2 or more"},
		{[]string{"a", "w"}, []*ModelCheck{a, check("WAIC", pw(0, 1)...)}, "one kind"},
		{[]string{"a", "short"}, []*ModelCheck{a, check("PSIS-LOO", -1, -2)}, "same data"},
	} {
		if _, err := Compare(bad.names, bad.checks); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%v: error %v, want %q", bad.names, err, bad.msg)
		}
	}
}
