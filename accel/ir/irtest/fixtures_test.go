package irtest

import (
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"slices"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/ir"
)

// Every set reads, its models have distinct names across sets, and the
// posteriordb set holds the seventeen reference posteriors.
func TestFixtureSets(t *testing.T) {
	seen := map[string]string{}
	for _, set := range Sets() {
		ms := Fixtures(t, set)
		if len(ms) == 0 {
			t.Errorf("set %s is empty", set)
		}
		for _, m := range ms {
			if other, dup := seen[m.Name]; dup {
				t.Errorf("%q is in sets %s and %s", m.Name, other, set)
			}
			seen[m.Name] = set
			if m.Program == nil || m.Program.Dim == 0 || m.Program.Target == ir.None {
				t.Errorf("%s/%s: no log density of a position", set, m.Name)
			}
		}
	}
	if n := len(Fixtures(t, Posteriordb)); n != 17 {
		t.Errorf("%d posteriordb models, want 17", n)
	}
	if p := Fixture(t, "eight_schools-eight_schools_noncentered"); p.Dim != 10 {
		t.Errorf("eight schools: dimension %d, want 10 (mu, tau, theta_tilde[8])", p.Dim)
	}
}

// writeNumbered writes models as WriteFixtures does, but with the ops
// numbered as in names and the file's op table table (nil: names).
func writeNumbered(t *testing.T, models []Model, names, table []string) []byte {
	t.Helper()
	now := make([]string, ir.NumOps)
	for op := range now {
		now[op] = ir.Op(op).String()
	}
	to := map[string]ir.Op{}
	for i, n := range names {
		to[n] = ir.Op(i)
	}
	for _, m := range models {
		if err := renumberOps(m.Program, now, to); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if table == nil {
		table = names
	}
	if err := gob.NewEncoder(zw).Encode(&fixtureFile{Ops: table, Models: models}); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return buf.Bytes()
}

// A file written when the ops were numbered otherwise reads as the same
// programs; one naming an op that no longer exists says the fixtures are
// stale.
func TestReadFixturesRenumbersOps(t *testing.T) {
	data, err := testdata.ReadFile(FixtureFile(Posteriordb))
	if err != nil {
		t.Fatal(err)
	}
	fresh := func() []Model {
		ms, err := ReadFixtures(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}
	want := fresh()
	names := make([]string, ir.NumOps)
	for op := range names {
		names[op] = ir.Op(op).String()
	}
	slices.Reverse(names)
	got, err := ReadFixtures(bytes.NewReader(writeNumbered(t, fresh(), names, nil)))
	if err != nil {
		t.Fatal(err)
	}
	scans := 0
	for i := range want {
		if !EqualPrograms(got[i].Program, want[i].Program) {
			t.Errorf("%s: renumbered ops read back as another program", want[i].Name)
		}
		for _, in := range want[i].Program.Instrs {
			if in.Body != nil {
				scans++
			}
		}
	}
	if scans == 0 {
		t.Error("no model has a scan: renumbering inside bodies went untested")
	}

	ms := fresh()
	old := ms[0].Program.Instrs[0].Op.String()
	table := slices.Clone(names)
	table[slices.Index(table, old)] = "an_op_since_removed"
	_, err = ReadFixtures(bytes.NewReader(writeNumbered(t, ms, names, table)))
	if err == nil || !strings.Contains(err.Error(), "an_op_since_removed no longer exists") {
		t.Errorf("a file naming a removed op: error %v", err)
	}
}

// A program read back runs its execution plan, as the one written did.
func TestReadFixturesPlans(t *testing.T) {
	for _, m := range Fixtures(t, Kernels) {
		var buf bytes.Buffer
		if err := WriteFixtures(&buf, []Model{m}); err != nil {
			t.Fatal(err)
		}
		back, err := ReadFixtures(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if p := back[0].Program; p.Fused() != m.Program.Fused() || !EqualPrograms(p, m.Program) {
			t.Errorf("%s: read back with %d fused kernels, written with %d", m.Name, p.Fused(), m.Program.Fused())
		}
	}
}
