package plotting_test

import (
	"reflect"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/gobayes/gobayes/plotting"
	"github.com/gobayes/gobayes/ppl/posterior"
)

// TestInCell runs the cell-facing calls in the yaegi interpreter, as a
// notebook cell would, with a hand-made symbol table for the few names
// used (the kernel's generated table holds them all).
func TestInCell(t *testing.T) {
	fit := &posterior.Posterior{
		Vars:    []posterior.Var{{Name: "mu"}, {Name: "tau", Start: 1}},
		Columns: []string{"mu", "tau"},
	}
	for c := 0; c < 2; c++ {
		ch := posterior.Chain{Values: [][]float64{make([]float64, 50), make([]float64, 50)}}
		for i := range 50 {
			ch.Values[0][i] = float64((i*7+c)%13) - 6
			ch.Values[1][i] = float64((i*5+c)%11) + 1
		}
		fit.Chains = append(fit.Chains, ch)
	}
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	exports := interp.Exports{
		"github.com/gobayes/gobayes/plotting/plotting": {
			"Trace":       reflect.ValueOf(plotting.Trace),
			"Pair":        reflect.ValueOf(plotting.Pair),
			"Dist":        reflect.ValueOf(plotting.Dist),
			"Size":        reflect.ValueOf(plotting.Size),
			"Chains":      reflect.ValueOf(plotting.Chains),
			"Settings":    reflect.ValueOf((*plotting.Settings)(nil)),
			"Option":      reflect.ValueOf((*plotting.Option)(nil)),
			"Figure":      reflect.ValueOf((*plotting.Figure)(nil)),
			"FontScale":   reflect.ValueOf(plotting.FontScale),
			"SetDefaults": reflect.ValueOf(plotting.SetDefaults),
			"Defaults":    reflect.ValueOf((*plotting.Defaults)(nil)),
		},
		"github.com/gobayes/gobayes/cellfit/cellfit": {
			"Fit": reflect.ValueOf(fit),
		},
	}
	if err := i.Use(exports); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`import ("github.com/gobayes/gobayes/plotting"; "github.com/gobayes/gobayes/cellfit")`); err != nil {
		t.Fatal(err)
	}
	cells := []struct {
		src    string
		panels int
		size   [2]int
		errs   bool
	}{
		{`plotting.Trace(cellfit.Fit, "mu", "tau", plotting.Size(640, 480))`, 4, [2]int{640, 480}, false},
		{`plotting.Trace(cellfit.Fit, plotting.Chains(2), &plotting.Settings{Width: 500, Height: 300})`, 4, [2]int{500, 300}, false},
		{`plotting.Pair(cellfit.Fit, []string{"mu", "tau"})`, 3, [2]int{700, 750}, false},
		{`plotting.Dist([]float64{1, 2, 3, 4}, "x")`, 1, [2]int{600, 360}, false},
		{`plotting.Trace(cellfit.Fit, "sigma")`, 0, [2]int{}, true},
	}
	for _, c := range cells {
		v, err := i.Eval(c.src)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		f, ok := v.Interface().(*plotting.Figure)
		if !ok {
			t.Errorf("%s gives a %T, want *plotting.Figure", c.src, v.Interface())
			continue
		}
		if c.errs {
			if f.Err() == nil {
				t.Errorf("%s: no error", c.src)
			}
			continue
		}
		if f.Err() != nil {
			t.Errorf("%s: %v", c.src, f.Err())
			continue
		}
		if got := len(f.Panels()); got != c.panels {
			t.Errorf("%s: %d panels, want %d", c.src, got, c.panels)
		}
		if w, h, _ := f.Size(); w != c.size[0] || h != c.size[1] {
			t.Errorf("%s: %d×%d px, want %v", c.src, w, h, c.size)
		}
	}
	// One cell sets the notebook's defaults; a later cell restores them.
	if _, err := i.Eval(`prev := plotting.SetDefaults(plotting.Defaults{Width: 1000, FontScale: 1.4, Format: "svg"})`); err != nil {
		t.Fatal(err)
	}
	v, err := i.Eval(`plotting.Dist([]float64{1, 2, 3, 4}, "x", plotting.FontScale(1.2))`)
	if err != nil {
		t.Fatal(err)
	}
	f := v.Interface().(*plotting.Figure)
	plotting.SetDefaults(plotting.Defaults{}) // whatever the cells do
	if w, h, _ := f.Size(); w != 750 || h != 450 {
		t.Errorf("after SetDefaults(Width: 1000) in a cell, Dist is %d×%d, want 750×450", w, h)
	}
	if _, err := i.Eval(`plotting.SetDefaults(prev)`); err != nil {
		t.Fatal(err)
	}
}
