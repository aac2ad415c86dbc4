package ppl_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/gobayes/gobayes/ppl"
	"github.com/gobayes/gobayes/table"
)

// TestInterpretedTable: a cell reads a CSV file into a table, shows it,
// and gives its columns to m.Data (a numeric column, a string column's
// codes and labels), as interp/symbols exports the packages.
func TestInterpretedTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "radon.csv")
	os.WriteFile(path, []byte("county,floor,log_radon\nAnoka,0,0.83\nAitkin,1,0.47\nAnoka,1,1.10\nBlue Earth,0,0.10\n"), 0o644)
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	syms := interp.Exports{
		"github.com/gobayes/gobayes/ppl/ppl": {
			"NewModel": reflect.ValueOf(ppl.NewModel),
			"Add":      reflect.ValueOf(ppl.Add),
			"Mul":      reflect.ValueOf(ppl.Mul),
			"Index":    reflect.ValueOf(ppl.Index),
			"Size":     reflect.ValueOf(ppl.Size),
			"Observed": reflect.ValueOf(ppl.Observed),
			"Model":    reflect.ValueOf((*ppl.Model)(nil)),
			"RV":       reflect.ValueOf((*ppl.RV)(nil)),
			"Expr":     reflect.ValueOf((*ppl.Expr)(nil)),
			"Option":   reflect.ValueOf((*ppl.Option)(nil)),
		},
		"github.com/gobayes/gobayes/table/table": {
			"ReadCSV": reflect.ValueOf(table.ReadCSV),
			"Table":   reflect.ValueOf((*table.Table)(nil)),
			"Column":  reflect.ValueOf((*table.Column)(nil)),
			"Option":  reflect.ValueOf((*table.Option)(nil)),
		},
	}
	if err := i.Use(syms); err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval("import (\n\"strings\"\n\"github.com/gobayes/gobayes/ppl\"\n\"github.com/gobayes/gobayes/table\"\n)"); err != nil {
		t.Fatal(err)
	}
	cell := `
t, err := table.ReadCSV(` + "`" + path + "`" + `)
county := t.Col("county")
m := ppl.NewModel("radon")
a := m.Normal("a", 0, 5, ppl.Size(len(county.Labels())))
b := m.Normal("b", 0, 5)
floor := m.Data("floor", t.Col("floor"))
mu := ppl.Add(ppl.Index(a, county.Ints()), ppl.Mul(b, floor))
m.Normal("y", mu, 0.5, ppl.Observed(m.Data("log_radon", t.Col("log_radon"))))
html := t.HTML()
`
	if _, err := i.Eval(cell); err != nil {
		t.Fatalf("cell: %v", err)
	}
	for name, want := range map[string]string{
		"err":                "<nil>",
		"county.Labels()":    "[Anoka Aitkin Blue Earth]",
		"m.Err()":            "<nil>",
		"len(m.DataNames())": "2",
		"strings.Contains(html, `radon.csv: 4 rows × 3 columns`)": "true",
	} {
		v, err := i.Eval(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := strings.TrimSpace(fmtValue(v)); got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
	// A column that is not there: the cell's error names the columns.
	_, err := i.Eval(`t.Col("radon")`)
	if err == nil || !strings.Contains(err.Error(), `no column "radon"; its columns are county, floor, log_radon`) {
		t.Errorf("an unknown column: %v", err)
	}
}

func fmtValue(v reflect.Value) string {
	if !v.IsValid() || (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) && v.IsNil() {
		return "<nil>"
	}
	return fmt.Sprint(v.Interface())
}
