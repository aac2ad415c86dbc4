package posterior

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/ppl/diag"
)

// arrayFixture is 2 chains × 3 draws of mu (scalar) and beta [2 2], each
// value encoding where it is: chain·100 + draw·10 + element.
func arrayFixture() *Posterior {
	p := &Posterior{Model: "m", Vars: []Var{{Name: "mu", Start: 0}, {Name: "beta", Shape: []int{2, 2}, Start: 1}},
		Columns: []string{"mu", "beta[0,0]", "beta[0,1]", "beta[1,0]", "beta[1,1]"}}
	for c := 0; c < 2; c++ {
		ch := Chain{Values: make([][]float64, 5)}
		for j := range ch.Values {
			for i := 0; i < 3; i++ {
				ch.Values[j] = append(ch.Values[j], float64(c*100+i*10+j))
			}
		}
		p.Chains = append(p.Chains, ch)
	}
	return p
}

func TestArray(t *testing.T) {
	p := arrayFixture()
	b := p.Array("beta")
	if !slices.Equal(b.Shape, []int{2, 3, 2, 2}) || !slices.Equal(b.Dims(), []int{2, 2}) || b.Samples() != 6 {
		t.Fatalf("shape %v dims %v samples %d", b.Shape, b.Dims(), b.Samples())
	}
	if got := b.At(1, 2); !slices.Equal(got, []float64{121, 122, 123, 124}) {
		t.Errorf("At(1, 2) = %v", got)
	}
	// Element (1, 0) is the column beta[1,0], chains concatenated.
	if got, want := b.Element(1, 0), p.Flat("beta[1,0]"); !slices.Equal(got, want) {
		t.Errorf("Element(1, 0) = %v, want the column beta[1,0] %v", got, want)
	}
	s := b.Stack()
	if !slices.Equal(s.Shape, []int{6, 2, 2}) || !slices.Equal(s.Sample(4), b.At(1, 1)) {
		t.Errorf("stacked shape %v, sample 4 %v, want chain 1's draw 1 %v", s.Shape, s.Sample(4), b.At(1, 1))
	}
	mean, q, lo, hi := b.Mean(), b.Quantile(0.25), []float64(nil), []float64(nil)
	lo, hi = b.HDI(0.5)
	for j, col := range p.Columns[1:] {
		d := p.Flat(col)
		sum := 0.0
		for _, v := range d {
			sum += v
		}
		slices.Sort(d)
		l, h := diag.HDI(d, 0.5)
		if math.Abs(mean[j]-sum/6) > 1e-12 || q[j] != diag.Quantile(d, 0.25) || lo[j] != l || hi[j] != h {
			t.Errorf("%s: mean %v quantile %v HDI [%v, %v], want %v %v [%v, %v]", col, mean[j], q[j], lo[j], hi[j], sum/6, diag.Quantile(d, 0.25), l, h)
		}
	}
	if mu := p.Array("mu"); len(mu.Dims()) != 0 || mu.Len() != 1 || !slices.Equal(mu.Element(), p.Flat("mu")) {
		t.Errorf("scalar: dims %v len %d", mu.Dims(), mu.Len())
	}
	for what, f := range map[string]func(){
		"unknown variable": func() { p.Array("gamma") },
		"index 2 of 2":     func() { b.Element(2, 0) },
		"one index of two": func() { b.Element(1) },
	} {
		msg := func() (msg string) {
			defer func() { msg = recover().(error).Error() }()
			f()
			return ""
		}()
		if !strings.Contains(msg, "beta") {
			t.Errorf("%s: error %q does not name beta", what, msg)
		}
	}
	// Accuracy: element means 61.5 ... rounded against observed values.
	acc := p.Array("beta").Accuracy([]float64{math.Round(mean[0]), 0, math.Round(mean[2]), 0})
	if acc != 0.5 {
		t.Errorf("accuracy %v, want 0.5", acc)
	}
}

// TestSel: Sel keeps the draws of one element along a dimension, by
// label or index, in both layouts, and drops that dimension.
func TestSel(t *testing.T) {
	p := arrayFixture()
	p.Vars[1].Dims = []string{"row", "col"}
	p.Coords = map[string][]string{"row": {"a", "b"}}
	b := p.Array("beta")
	r := b.Sel("row", "b")
	if !slices.Equal(r.Shape, []int{2, 3, 2}) || !slices.Equal(r.DimNames, []string{"col"}) {
		t.Fatalf("Sel(row, b): shape %v dims %v", r.Shape, r.DimNames)
	}
	// Chain 1's draw 2 of beta[1,·] is 123, 124 (chain·100 + draw·10 + column).
	if got := r.At(1, 2); !slices.Equal(got, []float64{123, 124}) {
		t.Errorf("Sel(row, b) at chain 1, draw 2 = %v, want [123 124]", got)
	}
	e := b.Sel("row", "b", "col", 0)
	if !slices.Equal(e.Data, b.Element(1, 0)) || !slices.Equal(e.Data, p.Flat("beta[b,0]")) {
		t.Errorf("Sel(row, b, col, 0) = %v, want the column beta[1,0] %v", e.Data, b.Element(1, 0))
	}
	if s := b.Stack().Sel("col", 1); !slices.Equal(s.Shape, []int{6, 2}) || !slices.Equal(s.Sample(4), []float64{112, 114}) {
		t.Errorf("stacked Sel(col, 1): shape %v, sample 4 %v, want [6 2] and [112 114]", s.Shape, s.Sample(4))
	}
}
