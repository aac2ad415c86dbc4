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

// cellSymbols exposes the part of the API a notebook cell uses below to
// yaegi, as the generated tables of interp/symbols do for the kernel.
var cellSymbols = interp.Exports{
	"github.com/gobayes/gobayes/ppl/ppl": {
		"NewModel":  reflect.ValueOf(ppl.NewModel),
		"Size":      reflect.ValueOf(ppl.Size),
		"Bounds":    reflect.ValueOf(ppl.Bounds),
		"Add":       reflect.ValueOf(ppl.Add),
		"Mul":       reflect.ValueOf(ppl.Mul),
		"Sub":       reflect.ValueOf(ppl.Sub),
		"Sum":       reflect.ValueOf(ppl.Sum),
		"Scan":      reflect.ValueOf(ppl.Scan),
		"Model":     reflect.ValueOf((*ppl.Model)(nil)),
		"RV":        reflect.ValueOf((*ppl.RV)(nil)),
		"Expr":      reflect.ValueOf((*ppl.Expr)(nil)),
		"Option":    reflect.ValueOf((*ppl.Option)(nil)),
		"Compiled":  reflect.ValueOf((*ppl.Compiled)(nil)),
		"Component": reflect.ValueOf((*ppl.Component)(nil)),
	},
}

// cellModel follows an import cell (yaegi parses a source that starts
// with import as declarations only; the kernel splits cells likewise). It
// writes its arithmetic with Expr's methods (mu.Add(tau.Mul(z))), goModel
// with the functions.
const cellModel = `
y := []float64{28, 8, -3, 7, -1, 1, 18, 12}
sigma := []float64{15, 10, 16, 11, 9, 11, 10, 18}
m := ppl.NewModel("eight_schools")
mu := m.Normal("mu", 0, 5)
tau := m.HalfCauchy("tau", 5)
z := m.Normal("theta_tilde", 0, 1, ppl.Size(8))
theta := m.Deterministic("theta", mu.Add(tau.Mul(z)))
m.Normal("y", theta, sigma).Observe(y)
run := ppl.Scan(3, []any{0.0}, []any{[]float64{1, 2, 3}}, func(c, x []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
	n := c[0].Add(x[0].Mul(mu))
	return []ppl.Expr{n}, n
})
m.LogDensity("extra", run.Sum().Mul(-0.01))
c, err := m.Compile()
`

// goModel is cellModel written in compiled Go.
func goModel() *ppl.Model {
	y := []float64{28, 8, -3, 7, -1, 1, 18, 12}
	sigma := []float64{15, 10, 16, 11, 9, 11, 10, 18}
	m := ppl.NewModel("eight_schools")
	mu := m.Normal("mu", 0, 5)
	tau := m.HalfCauchy("tau", 5)
	z := m.Normal("theta_tilde", 0, 1, ppl.Size(8))
	theta := m.Deterministic("theta", ppl.Add(mu, ppl.Mul(tau, z)))
	m.Normal("y", theta, sigma).Observe(y)
	run := ppl.Scan(3, []any{0.0}, []any{[]float64{1, 2, 3}}, func(c, x []ppl.Expr) ([]ppl.Expr, ppl.Expr) {
		n := ppl.Add(c[0], ppl.Mul(x[0], mu))
		return []ppl.Expr{n}, n
	})
	m.LogDensity("extra", ppl.Mul(-0.01, ppl.Sum(run)))
	return m
}

// TestInterpretedCell builds a model in yaegi, as a notebook cell does
// (options, slices of any, a traced step function), and checks that it
// compiles to the same log density as the model built in Go; and that a
// mistake becomes the cell's error naming the variable.
func TestInterpretedCell(t *testing.T) {
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	if err := i.Use(cellSymbols); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(`import "github.com/gobayes/gobayes/ppl"`); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval(cellModel); err != nil {
		t.Fatalf("cell: %v", err)
	}
	v, err := i.Eval("c")
	if err != nil {
		t.Fatal(err)
	}
	cell := v.Interface().(*ppl.Compiled)
	want, err := goModel().Compile()
	if err != nil {
		t.Fatal(err)
	}
	if cell.Dim() != want.Dim() {
		t.Fatalf("Dim %d in the cell, %d in Go", cell.Dim(), want.Dim())
	}
	x := make([]float64, cell.Dim())
	for k := range x {
		x[k] = math.Sin(float64(k + 1))
	}
	if a, b := cell.LogDensity(x), want.LogDensity(x); a != b || math.IsInf(a, 0) {
		t.Errorf("log density %v in the cell, %v in Go", a, b)
	}
	_, err = i.Eval(`m2 := ppl.NewModel("bad"); m2.Normal("s", 0, -1)`)
	if err == nil || !strings.Contains(err.Error(), "ppl: s:") {
		t.Errorf("cell error = %v, want one naming s", err)
	}
}
