package ppl

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// radon is a varying-intercept model over an integer data container of
// county indices, PyMC's pm.Data pattern: 40 observations, three
// counties with intercepts -1, 0 and 2.
func radon(t *testing.T) (*Model, Expr, Expr) {
	t.Helper()
	truth := []float64{-1, 0, 2}
	rng := rand.New(rand.NewPCG(4, 4))
	idx := make([]int, 40)
	y := make([]float64, 40)
	obs := make([]string, 40)
	for i := range idx {
		idx[i] = i % 3
		y[i] = truth[idx[i]] + 0.3*rng.NormFloat64()
		obs[i] = fmt.Sprintf("house %d", i)
	}
	m := NewModel("radon")
	m.Coords("county", "Aitkin", "Anoka", "Benton")
	m.Coords("obs", obs...)
	county := m.Data("county_idx", idx, Dims("obs"))
	alpha := m.Normal("alpha", 0, 5, Dims("county"))
	sigma := m.HalfNormal("sigma", 1)
	m.Normal("y", Take(alpha, county), sigma, Dims("obs"), Observed(y))
	return m, alpha, county
}

// TestIntegerDataPredictions: an integer container indexes a variable
// (Take, Index); SetData with NewCoords swaps it for new rows with their
// labels; the draws there go to InferenceData's predictions group, and
// the fit's own groups keep the old rows.
func TestIntegerDataPredictions(t *testing.T) {
	m, alpha, county := radon(t)
	if s := Index(alpha, county).Shape(); !slices.Equal(s, []int{40}) {
		t.Fatalf("Index over the container has shape %v, want [40]", s)
	}
	fit := m.Sample(Seed(1), Chains(2), Warmup(300), Draws(300), LiveProgress(false))
	idata := m.InferenceData(fit, Seed(2))
	m.SetData("county_idx", []int{2, 0}, NewCoords("obs", "new in Benton", "new in Aitkin"))
	pred := m.Predictions(idata, fit, Seed(3))
	mean := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	for _, c := range [][2]string{{"new in Benton", "Benton"}, {"new in Aitkin", "Aitkin"}} {
		got, want := mean(pred.Flat("y["+c[0]+"]")), mean(fit.Flat("alpha["+c[1]+"]"))
		// y = alpha + noise of sd 0.3: the mean of 600 draws within 0.1.
		if math.IsNaN(got) || math.Abs(got-want) > 0.1 {
			t.Errorf("prediction y[%s] has mean %.3f, want alpha[%s]'s %.3f", c[0], got, c[1], want)
		}
	}
	if got := idata.Draws["predictions"]; got != pred || len(got.Columns) < 2 {
		t.Fatalf("idata's predictions group is %v", got)
	}
	if a := pred.Array("y"); !slices.Equal(a.Shape, []int{2, 300, 2}) {
		t.Errorf("predictions of y have shape %v, want [2 300 2]", a.Shape)
	}
	if a := idata.Draws["posterior_predictive"].Array("y"); !slices.Equal(a.Shape, []int{2, 300, 40}) {
		t.Errorf("the posterior predictive group changed: y has shape %v, want [2 300 40]", a.Shape)
	}
	if got := idata.GroupCoords["predictions"]["obs"]; !slices.Equal(got, []string{"new in Benton", "new in Aitkin"}) {
		t.Errorf("predictions' obs labels %v", got)
	}
	if got := idata.Coords["obs"]; len(got) != 40 {
		t.Errorf("the fit's obs labels were replaced: %d of them, want 40", len(got))
	}
	pcd := idata.Data["predictions_constant_data"]
	if len(pcd) != 1 || pcd[0].Name != "county_idx" || !slices.Equal(pcd[0].Values, []float64{2, 0}) {
		t.Errorf("predictions_constant_data %+v, want county_idx = [2 0]", pcd)
	}
	// xarray reads both: the fit's rows with their labels, the
	// predictions with theirs.
	dir := filepath.Join(t.TempDir(), "radon.zarr")
	if err := idata.WriteZarr(dir); err != nil {
		t.Fatal(err)
	}
	expected := expectedStore(idata)
	for _, g := range []string{"posterior", "posterior_predictive", "predictions", "constant_data", "predictions_constant_data"} {
		if expected[g] == nil {
			t.Errorf("no group %s", g)
		}
	}
	expected["_coords"] = map[string]any{"county": []string{"Aitkin", "Anoka", "Benton"}, "obs": idata.Coords["obs"]}
	newRows := map[string]any{"obs": []string{"new in Benton", "new in Aitkin"}}
	expected["_group_coords"] = map[string]any{"predictions": newRows, "predictions_constant_data": newRows}
	readBack(t, dir, expected)
}

// TestSetDataCoordsMistakes: labels that do not fit the new data are an
// error naming both counts, and leave the model as it was; so are
// indices that are not whole numbers or outside the variable.
func TestSetDataCoordsMistakes(t *testing.T) {
	m, alpha, _ := radon(t)
	err := mustFail(t, "labels and data of other lengths", func() {
		m.SetData("county_idx", []int{2, 0, 1}, NewCoords("obs", "a", "b"))
	})
	for _, w := range []string{"2 coordinates", "3 elements"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	if got := len(m.g.Coords["obs"]); got != 40 {
		t.Errorf("after a refused SetData obs has %d labels, want 40", got)
	}
	if got := m.Lookup("y").Shape(); !slices.Equal(got, []int{40}) {
		t.Errorf("after a refused SetData y has shape %v, want [40]", got)
	}
	mustFail(t, "duplicate new labels", func() {
		m.SetData("county_idx", []int{2, 0}, NewCoords("obs", "a", "a"))
	})
	err = mustFail(t, "an index outside the variable", func() { m.SetData("county_idx", []int{3, 0}, NewCoords("obs", "a", "b")) })
	if !strings.Contains(err.Error(), "3") {
		t.Errorf("index error %q does not name the index", err)
	}
	frac := m.Data("frac", []float64{0.5, 1})
	err = mustFail(t, "indices that are not whole", func() { Index(alpha, frac) })
	if !strings.Contains(err.Error(), "frac") || !strings.Contains(err.Error(), "whole") {
		t.Errorf("error %q should name the container and want whole numbers", err)
	}
	// Coords alone may not change the count while y has 40 elements.
	err = mustFail(t, "Coords with another count", func() { m.Coords("obs", "a", "b") })
	if !strings.Contains(err.Error(), "NewCoords") {
		t.Errorf("error %q should point at SetData with NewCoords", err)
	}
}

// TestListingNamesIndexContainer: the listing shows the container an
// Index reads its indices from.
func TestListingNamesIndexContainer(t *testing.T) {
	m, _, _ := radon(t)
	if s := m.String(); !strings.Contains(s, "Index(alpha, county_idx)") {
		t.Errorf("the listing does not name the indices' container:\n%s", s)
	}
}
