package plotting

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobayes/gobayes/ppl/diag"
)

func TestCompare(t *testing.T) {
	checks := []*diag.ModelCheck{
		{Method: "PSIS-LOO", ELPD: -30.8, SE: 1.4, P: 1.1, Pointwise: []float64{-4, -3.9, -4.2, -3.7, -3.9, -3.8, -4.1, -3.2}},
		{Method: "PSIS-LOO", ELPD: -31.2, SE: 1.2, P: 2.0, Pointwise: []float64{-4.1, -4, -4.1, -3.8, -4, -3.9, -4.2, -3.1}},
		{Method: "PSIS-LOO", ELPD: -36.0, SE: 2.1, P: 3.3, Pointwise: []float64{-5, -4.5, -4.7, -4.2, -4.3, -4.4, -4.9, -4}},
	}
	cmp, err := diag.Compare([]string{"pooled", "hierarchical", "separate"}, checks)
	if err != nil {
		t.Fatal(err)
	}
	f := Compare(cmp)
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	pn := f.Panels()[0]
	if got := pn.Points("interval", "elpd ± SE"); got != 3 {
		t.Errorf("%d elpd intervals, want one per model", got)
	}
	if got := pn.Points("interval", "difference ± SE"); got != 2 {
		t.Errorf("%d difference intervals, want one per model but the best", got)
	}
	b, err := f.PNG()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("GOBAYES_PLOT_DIR"); dir != "" { // to look at it
		os.WriteFile(filepath.Join(dir, "compare.png"), b, 0o644)
	}
	if Compare(nil).Err() == nil {
		t.Error("Compare(nil) drew a figure")
	}
}
