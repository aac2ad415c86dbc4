package posteriordb

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The expected values below were read from the JSON files in
// ../shared/posteriordb with Python's json module.

func TestCasesMatchFolder(t *testing.T) {
	dir, err := Dir()
	if err != nil {
		if testing.Short() {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var folders []string
	for _, e := range entries {
		if e.IsDir() {
			folders = append(folders, e.Name())
		}
	}
	got := Cases()
	slices.Sort(got)
	if !slices.Equal(got, folders) {
		t.Errorf("Cases() = %v, folders in %s = %v", got, dir, folders)
	}
	if len(got) != 17 {
		t.Errorf("%d cases, want 17", len(got))
	}
}

func TestLoadEveryCase(t *testing.T) {
	for _, name := range Cases() {
		c := Require(t, name)
		if c.Name != name {
			t.Errorf("%s: Name = %q", name, c.Name)
		}
		total := 0
		for _, n := range c.Dims {
			total += n
		}
		if len(c.Reference) == 0 || len(c.Reference) != total {
			t.Errorf("%s: %d reference scalars, posterior_dimensions_declared sums to %d", name, len(c.Reference), total)
		}
		for _, s := range c.Reference {
			if !(s.SD > 0 && s.Q05 <= s.Q50 && s.Q50 <= s.Q95 && s.MCSEMean > 0 && s.ESSBulk > 0) {
				t.Errorf("%s: implausible summary %+v", name, s)
			}
		}
	}
}

func TestLoadValues(t *testing.T) {
	c := Require(t, "eight_schools-eight_schools_noncentered")
	y, err := c.Floats("y")
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{28, 8, -3, 7, -1, 1, 18, 12}; !slices.Equal(y, want) {
		t.Errorf("y = %v, want %v", y, want)
	}
	sigma, err := c.Ints("sigma")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{15, 10, 16, 11, 9, 11, 10, 18}; !slices.Equal(sigma, want) {
		t.Errorf("sigma = %v, want %v", sigma, want)
	}
	if J, err := c.Int("J"); err != nil || J != 8 {
		t.Errorf("J = %d, %v; want 8", J, err)
	}
	// reference.json's order: theta[1..8], mu, tau, named 0-based here
	// and posteriordb's way in StanName.
	if c.Reference[0].Name != "theta[0]" || c.Reference[0].StanName != "theta[1]" || c.Reference[7].Name != "theta[7]" || c.Reference[9].Name != "tau" {
		t.Errorf("reference order: first %q (posteriordb's %q), eighth %q, last %q; want theta[0] (theta[1]), theta[7], tau", c.Reference[0].Name, c.Reference[0].StanName, c.Reference[7].Name, c.Reference[9].Name)
	}
	mu, ok := c.Ref("mu")
	if !ok || mu.Mean != 4.4105183369549295 || mu.SD != 3.3092964767263533 || mu.ESSTail != 9973.47696505836 {
		t.Errorf("mu = %+v", mu)
	}
	if tau, _ := c.Ref("tau"); tau.Q95 != 9.732208872370224 {
		t.Errorf("tau q95 = %v, want 9.732208872370224", tau.Q95)
	}

	b := Require(t, "sblrc-blr")
	X, err := b.Matrix("X")
	if err != nil {
		t.Fatal(err)
	}
	if len(X) != 100 || len(X[0]) != 5 || X[0][3] != -189.099162062772 || X[99][4] != 266.736994758548 {
		t.Errorf("X: %d rows, X[0] = %v, X[99][4] = %v", len(X), X[0], X[99][4])
	}
}

func TestDataErrors(t *testing.T) {
	c := Require(t, "garch-garch11")
	tests := []struct {
		name string
		get  func() error
		want string
	}{
		{"missing field", func() error { _, err := c.Floats("x"); return err }, `no data field "x" (it has T, sigma1, y)`},
		{"number read as array", func() error { _, err := c.Floats("sigma1"); return err }, `"sigma1" is a number, not an array`},
		{"array read as number", func() error { _, err := c.Float("y"); return err }, `"y" is an array of 200 numbers, not a number`},
		{"fraction read as int", func() error { _, err := c.Int("sigma1"); return err }, `"sigma1" is 0.5, not an integer`},
		{"reals read as ints", func() error { _, err := c.Ints("y"); return err }, `"y"[0] is 4.93766971429527, not an integer`},
		{"array read as matrix", func() error { _, err := c.Matrix("y"); return err }, `not a matrix`},
	}
	for _, tt := range tests {
		err := tt.get()
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "posteriordb: ") {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

func TestMissingFolder(t *testing.T) {
	t.Setenv(EnvDir, filepath.Join(t.TempDir(), "nowhere"))
	_, err := Load("sblrc-blr")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), EnvDir) {
		t.Errorf("Load with a missing folder: %v, want ErrNotFound naming %s", err, EnvDir)
	}
	t.Setenv(EnvDir, t.TempDir())
	if _, err := Load("sblrc-blr"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Load of a missing case: %v, want ErrNotFound", err)
	}
}

func TestSimulatedLogistic(t *testing.T) {
	a := SimulatedLogistic(2000, 3, 7)
	b := SimulatedLogistic(2000, 3, 7)
	Xa, _ := a.Matrix("X")
	Xb, _ := b.Matrix("X")
	if !slices.Equal(Xa[1999], Xb[1999]) {
		t.Error("same seed, different data")
	}
	y, err := a.Ints("y")
	if err != nil {
		t.Fatal(err)
	}
	ones := 0
	for _, v := range y {
		ones += v
	}
	// Standard normal X: mean 0, variance 1 per entry (6000 entries).
	var s, s2 float64
	for _, r := range Xa {
		for _, v := range r {
			s += v
			s2 += v * v
		}
	}
	m := s / 6000
	if math.Abs(m) > 0.1 || math.Abs(s2/6000-1) > 0.1 || ones == 0 || ones == 2000 {
		t.Errorf("simulated X mean %v, second moment %v, %d ones of 2000", m, s2/6000, ones)
	}
}

// TestZeroBased: posteriordb's 1-based names map to 0-based ones, every
// index of a matrix's name included; other names pass unchanged.
func TestZeroBased(t *testing.T) {
	for _, c := range [][2]string{
		{"theta[1]", "theta[0]"}, {"Sigma[2,1]", "Sigma[1,0]"}, {"mu", "mu"},
		{"beta[10]", "beta[9]"}, {"odd[a]", "odd[a]"}, {"z[0]", "z[0]"},
	} {
		if got := zeroBased(c[0]); got != c[1] {
			t.Errorf("zeroBased(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}
