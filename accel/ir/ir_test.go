package ir

import "testing"

func TestAddNGradient(t *testing.T) {
	b := NewBuilder(3)
	x0 := b.ParamSlice(0, nil)
	x2 := b.ParamSlice(2, nil)
	c := b.Scalar(1.5)
	s, err := b.Emit(OpAddN, []ID{x0, x2, c, x2}, nil, -1)
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.Finalize(s)
	if err != nil {
		t.Fatal(err)
	}
	f := NewFrame(p)
	g := make([]float64, 3)
	lp := f.Gradient([]float64{1, 10, 2}, g)
	if lp != 1+2+1.5+2 {
		t.Errorf("lp = %v, want 6.5", lp)
	}
	if want := []float64{1, 0, 2}; g[0] != want[0] || g[1] != want[1] || g[2] != want[2] {
		t.Errorf("grad = %v, want %v", g, want)
	}
	if allocs := testing.AllocsPerRun(100, func() { f.Gradient([]float64{1, 10, 2}, g) }); allocs != 0 {
		t.Errorf("Gradient allocates %v times per call, want 0", allocs)
	}
}

func TestEmitChecksShapes(t *testing.T) {
	b := NewBuilder(2)
	v := b.ParamSlice(0, []int{2})
	if _, err := b.Emit(OpAddN, []ID{v}, nil, -1); err == nil {
		t.Fatal("addn of a vector: want a shape error")
	}
	if _, err := b.Finalize(None); err == nil {
		t.Fatal("Finalize after an error: want the error")
	}
}
