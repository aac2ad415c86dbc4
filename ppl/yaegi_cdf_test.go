package ppl_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/gobayes/gobayes/ppl"
)

// cdfCell is a Tobit regression with a probit term and a truncated
// prior, as a notebook cell writes them: the options take nil for no
// bound, numbers and slices.
const cdfCell = `
x := []float64{0, 1, 2, 3, 4}
y := []float64{-1, 0.4, 1.1, 3, 3}
m := ppl.NewModel("tobit")
a := m.Normal("a", 0, 5)
b := m.Normal("b", 0, 5, ppl.Truncated(0.0, nil))
s := m.HalfNormal("s", 2)
m.Normal("y", ppl.Add(a, ppl.Mul(b, x)), s, ppl.Censored([]float64{-1, -1, -1, -1, -1}, 3.0), ppl.Observed(y))
m.LogDensity("probit", ppl.Add(ppl.Sum(ppl.LogPhi(ppl.Mul(b, x))), ppl.LogCCDF("Logistic", a, 0, 1)))
c, err := m.Compile()
`

func cdfModel() *ppl.Model {
	x := []float64{0, 1, 2, 3, 4}
	y := []float64{-1, 0.4, 1.1, 3, 3}
	m := ppl.NewModel("tobit")
	a := m.Normal("a", 0, 5)
	b := m.Normal("b", 0, 5, ppl.Truncated(0.0, nil))
	s := m.HalfNormal("s", 2)
	m.Normal("y", ppl.Add(a, ppl.Mul(b, x)), s, ppl.Censored([]float64{-1, -1, -1, -1, -1}, 3.0), ppl.Observed(y))
	m.LogDensity("probit", ppl.Add(ppl.Sum(ppl.LogPhi(ppl.Mul(b, x))), ppl.LogCCDF("Logistic", a, 0, 1)))
	return m
}

// TestInterpretedCensored: Censored, Truncated, LogPhi and LogCCDF called
// from yaegi compile to the model built in Go; a family without a CDF is
// the cell's error naming the variable.
func TestInterpretedCensored(t *testing.T) {
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	syms := interp.Exports{"github.com/gobayes/gobayes/ppl/ppl": {
		"NewModel":  reflect.ValueOf(ppl.NewModel),
		"Add":       reflect.ValueOf(ppl.Add),
		"Mul":       reflect.ValueOf(ppl.Mul),
		"Sum":       reflect.ValueOf(ppl.Sum),
		"Censored":  reflect.ValueOf(ppl.Censored),
		"Truncated": reflect.ValueOf(ppl.Truncated),
		"Observed":  reflect.ValueOf(ppl.Observed),
		"LogPhi":    reflect.ValueOf(ppl.LogPhi),
		"LogCCDF":   reflect.ValueOf(ppl.LogCCDF),
		"Model":     reflect.ValueOf((*ppl.Model)(nil)),
		"RV":        reflect.ValueOf((*ppl.RV)(nil)),
		"Expr":      reflect.ValueOf((*ppl.Expr)(nil)),
		"Option":    reflect.ValueOf((*ppl.Option)(nil)),
		"Compiled":  reflect.ValueOf((*ppl.Compiled)(nil)),
	}}
	if err := i.Use(syms); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`import "github.com/gobayes/gobayes/ppl"`); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(cdfCell); err != nil {
		t.Fatalf("cell: %v", err)
	}
	v, err := i.Eval("c")
	if err != nil {
		t.Fatal(err)
	}
	cell := v.Interface().(*ppl.Compiled)
	want, err := cdfModel().Compile()
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{0.2, -0.4, 0.1}
	if a, b := cell.LogDensity(x), want.LogDensity(x); a != b || math.IsInf(a, 0) || math.IsNaN(a) {
		t.Errorf("log density %v in the cell, %v in Go", a, b)
	}
	_, err = i.Eval(`m2 := ppl.NewModel("bad"); m2.Flat("g", ppl.Censored(nil, 3.0), ppl.Observed(4.0))`)
	if err == nil || !strings.Contains(err.Error(), "ppl: g:") || !strings.Contains(err.Error(), "Flat is improper") {
		t.Errorf("cell error = %v, want one naming g and Flat", err)
	}
}
