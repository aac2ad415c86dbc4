package plotting

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestBand(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := []float64{0, 6, 12, 18, 24}
	curves := func(rate float64) [][]float64 {
		out := make([][]float64, 400)
		for s := range out {
			r := rate * math.Exp(0.2*rng.NormFloat64())
			out[s] = make([]float64, len(x))
			for i, t := range x {
				out[s][i] = math.Exp(-r * t)
			}
		}
		return out
	}
	f := Band(x, [][][]float64{curves(0.05), curves(0.02)}, Labels("control", "treated"), Axes("months", "survival"))
	if f.Err() != nil {
		t.Fatal(f.Err())
	}
	p := f.Panels()[0]
	if p.XLabel != "months" || p.YLabel != "survival" {
		t.Errorf("axes %q, %q", p.XLabel, p.YLabel)
	}
	kinds := map[string]int{}
	for _, e := range p.Elements {
		kinds[e.Kind]++
	}
	if kinds["band"] != 2 || kinds["line"] != 2 {
		t.Errorf("elements %v; want a band and a median line per group", p.Elements)
	}
	if l := f.Legend(); len(l) != 2 || !strings.HasPrefix(l[0].Label, "control") || !strings.HasPrefix(l[1].Label, "treated") {
		t.Errorf("legend %v", l)
	}
	png, err := f.PNG()
	if err != nil || len(png) < 2000 {
		t.Fatalf("PNG: %d bytes, %v", len(png), err)
	}
	for _, c := range []struct {
		x     []float64
		draws any
		opts  []any
		want  string
	}{
		{x, [][]float64{{1, 2}}, nil, "has 2 values for 5 x values"},
		{[]float64{3, 1}, [][]float64{{1, 2}}, nil, "must increase"},
		{x, []float64{1}, nil, "takes draws as"},
		{x, [][][]float64{curves(1)}, []any{Labels("a", "b")}, "2 labels for 1 groups"},
	} {
		if err := Band(c.x, c.draws, c.opts...).Err(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Band error %v; want %q", err, c.want)
		}
	}
}
