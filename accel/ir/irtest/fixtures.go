package irtest

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/gob"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gobayes/gobayes/accel/fuse"
	"github.com/gobayes/gobayes/accel/ir"
)

// Model is a compiled model program kept in testdata: its name and its
// log-density program, as package ppl compiles it.
type Model struct {
	Name    string
	Program *ir.Program
}

// The fixture sets, one file testdata/<set>.gob.gz each.
const (
	// Posteriordb holds the seventeen reference posteriors of
	// ../shared/posteriordb, named and ordered as posteriordb.Cases.
	Posteriordb = "posteriordb"
	// Simulated holds the models of simulated data: logistic_regression,
	// posteriordb.SimulatedLogistic(500, 10, 1).
	Simulated = "simulated"
	// Kernels holds small models that each exercise a few of accel/vec's
	// lockstep kernels (TestKernelsAgainstFrame runs them all).
	Kernels = "kernels"
	// Small holds the other small models that tests and benchmarks name
	// one by one.
	Small = "small"
)

// Sets lists the fixture sets.
func Sets() []string { return []string{Posteriordb, Simulated, Kernels, Small} }

// stale ends the errors of fixtures that no longer read as programs of
// today's accel/ir.
const stale = "accel/ir/irtest/testdata is stale: rewrite it from the ppl models (see package irtest's doc)"

// The fixtures are written from the ppl models by TestFixtures of the
// posteriordb package under internal/ (accel must not import ppl);
// embedding them lets any test, whatever its working directory, read them.
//
//go:embed testdata/*.gob.gz
var testdata embed.FS

// FixtureFile is the path of set's file relative to this package's folder.
func FixtureFile(set string) string { return path.Join("testdata", set+".gob.gz") }

// fixtureFile is what one file holds, gob-encoded and gzip-compressed.
type fixtureFile struct {
	// Ops are the op names by number when the file was written: reading
	// maps them to today's numbers, so that adding or reordering ops
	// leaves the fixtures valid.
	Ops    []string
	Models []Model
}

// WriteFixtures writes models in the format of the fixture files.
func WriteFixtures(w io.Writer, models []Model) error {
	f := fixtureFile{Models: models}
	for op := ir.Op(0); op < ir.NumOps; op++ {
		f.Ops = append(f.Ops, op.String())
	}
	zw := gzip.NewWriter(w)
	if err := gob.NewEncoder(zw).Encode(&f); err != nil {
		return fmt.Errorf("irtest: encode fixtures: %w", err)
	}
	return zw.Close()
}

// ReadFixtures reads models written by WriteFixtures. Each program is
// rebuilt through an ir.Builder, so that it carries what Finalize derives
// (the execution plan, which gob does not carry), and checked to be the
// program that was written.
func ReadFixtures(r io.Reader) ([]Model, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("irtest: read fixtures: %w", err)
	}
	var f fixtureFile
	if err := gob.NewDecoder(zr).Decode(&f); err != nil {
		return nil, fmt.Errorf("irtest: decode fixtures: %w", err)
	}
	now := map[string]ir.Op{}
	for op := ir.Op(0); op < ir.NumOps; op++ {
		now[op.String()] = op
	}
	for i, m := range f.Models {
		if m.Program == nil {
			return nil, fmt.Errorf("irtest: fixture %s has no program", m.Name)
		}
		if err := renumberOps(m.Program, f.Ops, now); err != nil {
			return nil, fmt.Errorf("irtest: fixture %s: %w", m.Name, err)
		}
		p, err := rebuild(m.Program)
		if err != nil {
			return nil, fmt.Errorf("irtest: fixture %s: rebuilding its program: %w", m.Name, err)
		}
		if !EqualPrograms(p, m.Program) {
			return nil, fmt.Errorf("irtest: fixture %s: the rebuilt program differs from the stored one", m.Name)
		}
		f.Models[i].Program = p
	}
	return f.Models, nil
}

// renumberOps maps the op numbers of p (and of its scan bodies) from the
// numbering of names to today's.
func renumberOps(p *ir.Program, names []string, now map[string]ir.Op) error {
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if int(in.Op) >= len(names) {
			return fmt.Errorf("op number %d is outside the file's op table", in.Op)
		}
		op, ok := now[names[in.Op]]
		if !ok {
			return fmt.Errorf("op %s no longer exists", names[in.Op])
		}
		in.Op = op
		if in.Body != nil {
			if err := renumberOps(in.Body, names, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// EqualPrograms reports whether a and b have the same exported contents
// (what gob carries: values, instructions, data, tables, outputs).
func EqualPrograms(a, b *ir.Program) bool {
	// Whether a program was planned is its compiler's choice, not its
	// contents: stored fixtures predate the flag.
	if a.Planned() {
		a = a.WithPlanner(nil)
	}
	if b.Planned() {
		b = b.WithPlanner(nil)
	}
	ea, err := encodeProgram(a)
	if err != nil {
		return false
	}
	eb, err := encodeProgram(b)
	return err == nil && bytes.Equal(ea, eb)
}

func encodeProgram(p *ir.Program) ([]byte, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(p)
	return buf.Bytes(), err
}

// rebuild replays the values and instructions of a finalized program q
// through a Builder, in value order, so that every value lands in the
// slots it had: a constant is Const, a view is Reshape or ParamSlice, an
// instruction's output (and its scratch) is Emit, a scan body's argument
// is Input. A program stored before constants were shared (all of them in
// Init) is laid out again as Builder lays it out today, so it then
// differs from the stored one. The values of instructions that Finalize dropped are
// allocated as constants of zeros and marked Temp again afterwards
// (nothing reads them).
func rebuild(q *ir.Program) (*ir.Program, error) {
	b := ir.NewBuilder(q.Dim)
	b.SetPlanner(fuse.Plan) // as ppl compiles them
	for _, t := range q.Tables {
		b.Table(t)
	}
	producer := map[ir.ID]int{}
	scratch := map[ir.ID]bool{}
	for i, in := range q.Instrs {
		producer[in.Out] = i
		if in.Scratch != ir.None {
			scratch[in.Scratch] = true
		}
	}
	input := map[ir.ID]bool{}
	for _, id := range q.Inputs {
		input[id] = true
	}
	// owner maps a slot offset to the value that allocated it, the
	// source of later views.
	owner := map[int]ir.ID{}
	// sharedOwner is owner for the shared constants' slots.
	sharedOwner := map[int]ir.ID{}
	size := q.Dim
	var dropped []ir.ID
	for id := ir.ID(1); int(id) < len(q.Values); id++ {
		v := q.Values[id]
		var got ir.ID
		switch {
		case v.Kind == ir.Param:
			got = b.ParamSlice(v.Off, v.Shape)
		case scratch[id]:
			// Emit of its instruction allocated it already.
			got = id
		case q.IsShared(id):
			// A shared constant (outside the frame), or a view of one.
			if src, ok := sharedOwner[v.Off]; ok {
				var err error
				if got, err = b.Reshape(src, v.Shape); err != nil {
					return nil, err
				}
				break
			}
			got = b.Const(q.ConstData(id), v.Shape)
			sharedOwner[v.Off] = id
		case v.Off < size || v.Len == 0 && owner[v.Off] != 0:
			src, ok := owner[v.Off]
			if !ok {
				return nil, fmt.Errorf("value %d at slot %d is a view of no value", id, v.Off)
			}
			var err error
			if got, err = b.Reshape(src, v.Shape); err != nil {
				return nil, err
			}
		case v.Kind == ir.Const:
			got = b.Const(q.ConstData(id), v.Shape)
		case input[id]:
			got = b.Input(v.Shape)
		default:
			i, ok := producer[id]
			if !ok {
				got = b.Const(make([]float64, v.Len), v.Shape)
				dropped = append(dropped, id)
				break
			}
			in := q.Instrs[i]
			var body *ir.Program
			if in.Body != nil {
				var err error
				if body, err = rebuild(in.Body); err != nil {
					return nil, fmt.Errorf("scan body of instruction %d: %w", i, err)
				}
			}
			var err error
			if got, err = b.EmitBody(in.Op, in.In, in.Ints, in.Table, body); err != nil {
				return nil, fmt.Errorf("instruction %d (%s): %w", i, in.Op, err)
			}
		}
		if got != id {
			return nil, fmt.Errorf("value %d was rebuilt as value %d", id, got)
		}
		if v.Name != "" {
			b.Name(id, v.Name)
		}
		if v.Kind != ir.Param && v.Off >= size && !q.IsShared(id) {
			owner[v.Off] = id
			size = v.Off + v.Len
		}
	}
	for _, o := range q.Outputs {
		b.AddOutput(o.Name, o.ID)
	}
	p, err := b.Finalize(q.Target)
	if err != nil {
		return nil, err
	}
	for _, id := range dropped {
		p.Values[id].Kind = ir.Temp
	}
	return p, nil
}

// loaded caches each set: programs are immutable once finalized, so tests
// share them.
var loaded sync.Map // set → func() ([]Model, error)

func load(set string) ([]Model, error) {
	f, _ := loaded.LoadOrStore(set, sync.OnceValues(func() ([]Model, error) {
		data, err := testdata.ReadFile(FixtureFile(set))
		if err != nil {
			return nil, fmt.Errorf("irtest: no fixture set %q (sets: %s)", set, strings.Join(Sets(), ", "))
		}
		return ReadFixtures(bytes.NewReader(data))
	}))
	return f.(func() ([]Model, error))()
}

// Fixtures returns the models of a fixture set, in the set's order. It
// fails the test when the set cannot be read.
func Fixtures(t testing.TB, set string) []Model {
	t.Helper()
	ms, err := load(set)
	if err != nil {
		t.Fatalf("%v\n%s", err, stale)
	}
	return slices.Clone(ms)
}

// Fixture returns the program of the named model, whichever set holds it.
// It fails the test when no set does.
func Fixture(t testing.TB, name string) *ir.Program {
	t.Helper()
	for _, set := range Sets() {
		for _, m := range Fixtures(t, set) {
			if m.Name == name {
				return m.Program
			}
		}
	}
	t.Fatalf("irtest: no fixture named %q\n%s", name, stale)
	return nil
}

// Rebuild replays program p through an ir.Builder, value by value, as
// reading a fixture does: a test that changes how the Builder lays
// constants out (ir's SharedMin) lays a program out again with it.
func Rebuild(p *ir.Program) (*ir.Program, error) { return rebuild(p) }
