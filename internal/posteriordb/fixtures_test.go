package posteriordb

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/ir/irtest"
	"github.com/gobayes/gobayes/ppl"
)

var update = flag.Bool("update", false, "rewrite accel/ir/irtest/testdata from the ppl models")

// staleMessage says what to do when the fixtures differ from ppl's output.
const staleMessage = "accel/ir/irtest/testdata is stale: run go test ./internal/posteriordb -run Fixtures -update"

// fixtureDir is accel/ir/irtest's folder, relative to this package's.
var fixtureDir = filepath.Join("..", "..", "accel", "ir", "irtest")

// fixtureSet compiles the models of one of irtest's fixture sets. It
// returns nil, and skips t, when the set needs ../shared/posteriordb and
// the folder is missing under -short (never with -update).
func fixtureSet(t *testing.T, set string) []irtest.Model {
	t.Helper()
	var out []irtest.Model
	add := func(name string, m *ppl.Model, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("model %s: %v", name, err)
		}
		c, err := m.Compile()
		if err != nil {
			t.Fatalf("compile %s: %v", name, err)
		}
		out = append(out, irtest.Model{Name: name, Program: c.Program()})
	}
	written := func(models map[string]func(*ppl.Model)) {
		names := make([]string, 0, len(models))
		for name := range models {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			m := ppl.NewModel(name)
			models[name](m)
			add(name, m, m.Err())
		}
	}
	switch set {
	case irtest.Posteriordb:
		for _, name := range Cases() {
			var c *Case
			if *update {
				var err error
				if c, err = Load(name); err != nil {
					t.Fatalf("-update needs every reference posterior: %v", err)
				}
			} else {
				c = Require(t, name)
			}
			m, err := Model(name, c)
			add(name, m, err)
		}
	case irtest.Simulated:
		m, err := Model(LogisticName, SimulatedLogistic(500, 10, 1))
		add(LogisticName, m, err)
	case irtest.Kernels:
		written(kernelModels)
	case irtest.Small:
		written(smallModels)
	default:
		t.Fatalf("no models for fixture set %q", set)
	}
	return out
}

// TestFixtures checks that accel/ir/irtest/testdata holds the programs ppl
// compiles today from the models of every fixture set; with -update it
// rewrites the files first.
func TestFixtures(t *testing.T) {
	seen := map[string]string{}
	for _, set := range irtest.Sets() {
		t.Run(set, func(t *testing.T) {
			want := fixtureSet(t, set)
			for _, m := range want {
				if other, dup := seen[m.Name]; dup {
					t.Errorf("model %q is in fixture sets %s and %s: irtest.Fixture finds models by name", m.Name, other, set)
				}
				seen[m.Name] = set
			}
			file := filepath.Join(fixtureDir, irtest.FixtureFile(set))
			if *update {
				var buf bytes.Buffer
				if err := irtest.WriteFixtures(&buf, want); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("wrote %s (%d models, %d bytes)", file, len(want), buf.Len())
			}
			if err := compareFixtures(file, want); err != nil {
				t.Errorf("%v\n%s", err, staleMessage)
			}
		})
	}
}

// compareFixtures reads a fixture file and compares its models, by name,
// order and program contents, with want.
func compareFixtures(file string, want []irtest.Model) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	got, err := irtest.ReadFixtures(f)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	gn, wn := modelNames(got), modelNames(want)
	if !slices.Equal(gn, wn) {
		return fmt.Errorf("%s holds the models %q; ppl's are %q", file, gn, wn)
	}
	var stale []string
	for i := range want {
		if !irtest.EqualPrograms(got[i].Program, want[i].Program) {
			stale = append(stale, want[i].Name)
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("%s: the programs of %q differ from what ppl compiles now", file, stale)
	}
	for i := range want {
		if err := sameEvaluation(got[i].Program, want[i].Program); err != nil {
			return fmt.Errorf("%s, model %s: the program read back %v (irtest.ReadFixtures lost what Finalize derives)", file, want[i].Name, err)
		}
	}
	return nil
}

// sameEvaluation checks that a program read from a fixture runs as the
// one ppl compiled: as many fused kernels, and bit for bit the same log
// density and gradient at a few points.
func sameEvaluation(got, want *ir.Program) error {
	if got.Fused() != want.Fused() {
		return fmt.Errorf("fuses %d instructions, ppl's program %d", got.Fused(), want.Fused())
	}
	fg, fw := ir.NewFrame(got), ir.NewFrame(want)
	gg, gw := make([]float64, want.Dim), make([]float64, want.Dim)
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, want.Dim)
	for range 3 {
		for j := range x {
			x[j] = 2*rng.Float64() - 1
		}
		lg, lw := fg.Gradient(x, gg), fw.Gradient(x, gw)
		if !sameBits(append(gg, lg), append(gw, lw)) {
			return fmt.Errorf("evaluates to %v, %v at %v; ppl's program to %v, %v", lg, gg, x, lw, gw)
		}
		gg, gw = gg[:want.Dim], gw[:want.Dim]
	}
	return nil
}

// sameBits reports whether a and b hold the same float64s bit for bit
// (NaN included).
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

func modelNames(ms []irtest.Model) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	return out
}

// TestFixturesDeterministic: compiling a model twice gives the same
// program, so that comparing programs (TestFixtures) says whether the
// fixtures are stale, never that the compiler drew another layout.
func TestFixturesDeterministic(t *testing.T) {
	for _, set := range irtest.Sets() {
		t.Run(set, func(t *testing.T) {
			a, b := fixtureSet(t, set), fixtureSet(t, set)
			for i := range a {
				if !irtest.EqualPrograms(a[i].Program, b[i].Program) {
					t.Errorf("%s: two compilations of the same model differ", a[i].Name)
				}
			}
		})
	}
}
