package ppl

import (
	"encoding/json"
	"fmt"
	"github.com/gobayes/gobayes/ppl/posterior"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestInferenceDataZarr writes a fit's InferenceData as a Zarr store and
// reads it back with xarray (Debian's python3-xarray and python3-zarr,
// which make deps installs): every group's arrays, with their dims,
// shapes, values and index coordinates. Without them the test says so
// and skips, unless GOBAYES_REQUIRE_XARRAY is set (make test sets it).
func TestInferenceDataZarr(t *testing.T) {
	m := NewModel("schools")
	schools := []string{"Choate", "Deerfield", "Phillips Andover"}
	m.Coords("school", schools...)
	mu := m.Normal("mu", 0, 5)
	tau := m.HalfNormal("tau", 5)
	z := m.Normal("z", 0, 1, Size(3)) // no dims: z_dim_0
	theta := m.Deterministic("theta", mu.Add(tau.Mul(z)), Dims("school"))
	m.Normal("y", theta, []float64{15, 10, 16}, Dims("school")).Observe([]float64{28, 8, -3})
	fit := m.Sample(Seed(1), Chains(2), Warmup(200), Draws(50), LiveProgress(false))
	idata := m.InferenceData(fit, Seed(2))
	dir := filepath.Join(t.TempDir(), "fit.zarr")
	if err := idata.WriteZarr(dir); err != nil {
		t.Fatal(err)
	}
	expected := expectedStore(idata)
	var div []float64
	for _, ch := range fit.Chains {
		for _, d := range ch.Stats.Divergent {
			div = append(div, map[bool]float64{false: 0, true: 1}[d])
		}
	}
	expected["sample_stats"] = map[string]any{
		"diverging": map[string]any{"dims": []string{"chain", "draw"}, "shape": []int{2, 50}, "values": div},
		"lp":        map[string]any{"dims": []string{"chain", "draw"}, "shape": []int{2, 50}, "values": slices.Concat(fit.Chains[0].Stats.LP, fit.Chains[1].Stats.LP)},
	}
	for _, g := range []string{"posterior", "posterior_predictive", "log_likelihood", "prior", "prior_predictive", "observed_data"} {
		if expected[g] == nil {
			t.Errorf("no group %s", g)
		}
	}
	if got := idata.Draws["log_likelihood"].Vars; len(got) != 1 || got[0].Name != "y" || !slices.Equal(got[0].Shape, []int{3}) {
		t.Errorf("log_likelihood vars %+v, want y [3]", got)
	}
	for _, g := range []string{"posterior", "posterior_predictive", "log_likelihood", "observed_data"} {
		for name, v := range expected[g] {
			if name == "theta" || name == "y" {
				if dims := v.(map[string]any)["dims"].([]string); dims[len(dims)-1] != "school" {
					t.Errorf("%s/%s has dims %v, want school last", g, name, dims)
				}
			}
		}
	}
	expected["_coords"] = map[string]any{"school": schools}
	readBack(t, dir, expected)
}

// expectedStore is what WriteZarr writes of idata, for xarray to
// compare against.
func expectedStore(idata *posterior.InferenceData) map[string]map[string]any {
	expected := map[string]map[string]any{}
	for g, p := range idata.Draws {
		expected[g] = map[string]any{}
		for _, v := range p.Vars {
			a := p.Array(v.Name)
			dims := []string{"chain", "draw"}
			for k := range v.Shape {
				dims = append(dims, dimName(v.Name, v.Dims, k))
			}
			expected[g][v.Name] = map[string]any{"dims": dims, "shape": a.Shape, "values": a.Data}
		}
	}
	for g, arrays := range idata.Data {
		expected[g] = map[string]any{}
		for _, a := range arrays {
			dims := []string{}
			for k := range a.Shape {
				dims = append(dims, dimName(a.Name, a.Dims, k))
			}
			expected[g][a.Name] = map[string]any{"dims": dims, "shape": a.Shape, "values": a.Values}
		}
	}
	return expected
}

// readBack has xarray read the store at dir and compare it with expected
// (check_zarr.py); without xarray the test skips, unless
// GOBAYES_REQUIRE_XARRAY is set.
func readBack(t *testing.T, dir string, expected map[string]map[string]any) {
	t.Helper()
	exp := filepath.Join(t.TempDir(), "expected.json")
	b, _ := json.Marshal(expected)
	if err := os.WriteFile(exp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import xarray, zarr").Run(); err != nil {
		if os.Getenv("GOBAYES_REQUIRE_XARRAY") != "" {
			t.Fatalf("%s cannot import xarray and zarr (%v): install python3-xarray python3-zarr (make deps does)", py, err)
		}
		t.Skipf("%s cannot import xarray and zarr: install python3-xarray python3-zarr (make deps does) to read the store back", py)
	}
	_, here, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(here), "..", "tests", "idata", "check_zarr.py")
	out, err := exec.Command(py, script, dir, exp).CombinedOutput()
	t.Logf("%s", out)
	if err != nil || !strings.Contains(string(out), " 0 failures") {
		t.Fatalf("xarray read the store back with failures: %v", err)
	}
}

// dimName is the name the store gives dimension k of a variable.
func dimName(name string, dims []string, k int) string {
	if k < len(dims) {
		return dims[k]
	}
	return fmt.Sprintf("%s_dim_%d", name, k)
}
