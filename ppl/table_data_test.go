package ppl

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel/mpi"
	"github.com/gobayes/gobayes/accel/mpi/mpitest"
	"github.com/gobayes/gobayes/table"
)

// writeRegression streams a Fortran-order .npy of n rows and columns x1,
// x2, y (y = 1 + 2·x1 − 0.5·x2 + noise) into dir: columns one after the
// other, never the whole matrix in memory.
func writeRegression(t testing.TB, dir string, n int) string {
	t.Helper()
	path := filepath.Join(dir, "reg.npy")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.Write(table.NPYHeader(n, 3, true))
	var b [8]byte
	put := func(v float64) {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		w.Write(b[:])
	}
	col := func(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 7)) }
	for _, seed := range []uint64{1, 2} {
		r := col(seed)
		for range n {
			put(r.NormFloat64())
		}
	}
	r1, r2, noise := col(1), col(2), col(3)
	for range n {
		put(1 + 2*r1.NormFloat64() - 0.5*r2.NormFloat64() + 0.3*noise.NormFloat64())
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// tableRegression is the model over the table: X from x1, x2 and y.
func tableRegression(t testing.TB, tb *table.Table, shards int) *Model {
	t.Helper()
	m := NewModel("reg", Shards(shards))
	a := m.Normal("a", 0, 5)
	b := m.Normal("b", 0, 5, Size(2))
	sigma := m.HalfNormal("sigma", 1)
	X := m.Data("X", tb.Matrix("x1", "x2"))
	y := m.Data("y", tb.Col("y"))
	m.Normal("obs", Add(a, MatVec(X, b)), sigma, Observed(y))
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDataFromTable: a table's column is the container's data itself (a
// Fortran-order .npy column: the file's mapping), and the model over the
// table is the model over the same values given as Go slices.
func TestDataFromTable(t *testing.T) {
	const n = 500
	tb, err := table.OpenNPY(writeRegression(t, t.TempDir(), n), table.Names("x1", "x2", "y"))
	if err != nil {
		t.Fatal(err)
	}
	m := tableRegression(t, tb, 1)
	if !sameMemory(m.dataNode("y").Data, tb.Col("y").Floats()) {
		t.Fatal("m.Data copied the table's column")
	}
	X := make([][]float64, n)
	for i := range X {
		X[i] = []float64{tb.Col("x1").Floats()[i], tb.Col("x2").Floats()[i]}
	}
	g := NewModel("reg")
	a := g.Normal("a", 0, 5)
	b := g.Normal("b", 0, 5, Size(2))
	sigma := g.HalfNormal("sigma", 1)
	g.Normal("obs", Add(a, MatVec(X, b)), sigma, Observed(tb.Col("y").Floats()))
	cm, err := m.Compile()
	if err != nil {
		t.Fatal(err)
	}
	cg, err := g.Compile()
	if err != nil {
		t.Fatal(err)
	}
	dm, dg := cm.NewDensity(), cg.NewDensity()
	rng := rand.New(rand.NewPCG(5, 5))
	x := make([]float64, cm.Dim())
	for range 5 {
		for i := range x {
			x[i] = rng.Float64()*2 - 1
		}
		if lm, lg := dm.LogDensityGrad(x, nil), dg.LogDensityGrad(x, nil); lm != lg {
			t.Fatalf("log density over the table %v, over Go slices %v", lm, lg)
		}
	}
	// SetData takes a table's column too, without a copy.
	m.SetData("y", tb.Col("x1"))
	if !sameMemory(m.dataNode("y").Data, tb.Col("x1").Floats()) {
		t.Fatal("SetData copied the table's column")
	}
	// The mistakes say what to do.
	for _, tc := range []struct {
		value any
		want  string
	}{
		{tb, "not the whole table"},
		{tb.Matrix("x1"), ""},
	} {
		err := catchErr(func() { NewModel("e").Data("d", tc.value) })
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Data(%T): %v, want %q", tc.value, err, tc.want)
		}
	}
}

// catchErr runs f and returns the *Error it panicked with, if any.
func catchErr(f func()) (err error) {
	defer func() {
		if e := recover(); e != nil {
			if pe, ok := e.(*Error); ok {
				err = pe
				return
			}
			panic(e)
		}
	}()
	f()
	return nil
}

// fileRows is the rows of the MPI file test: 10⁷ (240 MB of file), 10⁵
// under -short; GOBAYES_FILE_ROWS sets it (the memory figures of
// bench/README.md).
func fileRows() int {
	if s := os.Getenv("GOBAYES_FILE_ROWS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return n
		}
	}
	if testing.Short() {
		return 100_000
	}
	return 10_000_000
}

// TestMPIRanksReadFileRows: on a job of 3 ranks, each rank reads its own
// rows of the file; the kernel sends the path and the layout, not the
// rows. The log density and gradient equal one process's that read the
// whole file (1e-12), and the control link carries under 1% of the data.
func TestMPIRanksReadFileRows(t *testing.T) {
	mpitest.Worker(t)
	n := fileRows()
	path := writeRegression(t, t.TempDir(), n)
	tb, err := table.OpenNPY(path, table.Names("x1", "x2", "y"))
	if err != nil {
		t.Fatal(err)
	}
	whole := tableRegression(t, tb, 1)
	cw, err := whole.Compile()
	if err != nil {
		t.Fatal(err)
	}
	sharded := tableRegression(t, tb, 3)
	cs, err := sharded.Compile()
	if err != nil {
		t.Fatal(err)
	}
	if cs.ShardPlan().Shards != 3 {
		t.Fatalf("not sharded: %s", cs.ShardPlan())
	}
	job, err := mpi.Start(mpi.Config{Ranks: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	sent0, _ := job.Traffic()
	acc, err := cs.placeShards(job)
	if err != nil {
		t.Fatal(err)
	}
	sent, _ := job.Traffic()
	data := int64(n * 3 * 8)
	t.Logf("%d rows, %d blocks: %d bytes to rank 0 for %d bytes of data; kernel peak %s, rank 0 peak %s",
		n, cs.ShardPlan().Blocks, sent-sent0, data, peak(os.Getpid()), peak(mpitest.RankPID(t, 0)))
	if sent-sent0 > data/100 {
		t.Errorf("placing the blocks sent %d bytes to rank 0: the rows (%d bytes) went through the kernel", sent-sent0, data)
	}
	dw := cw.NewDensity()
	d := cw.Dim()
	rng := rand.New(rand.NewPCG(3, 1))
	const b = 4
	xs := make([]float64, b*d)
	for i := range xs {
		xs[i] = rng.Float64()*2 - 1
	}
	lps, grads := make([]float64, b), make([]float64, b*d)
	if err := acc.LogDensityGrad(xs, lps, grads); err != nil {
		t.Fatal(err)
	}
	gw := make([]float64, d)
	for i := range b {
		lw := dw.LogDensityGrad(xs[i*d:(i+1)*d], gw)
		if !(math.Abs(lw-lps[i]) <= 1e-12*math.Max(1, math.Abs(lw))) {
			t.Fatalf("position %d: log density on the ranks %v, one process %v", i, lps[i], lw)
		}
		for j, g := range gw {
			if !(math.Abs(g-grads[i*d+j]) <= 1e-12*math.Max(1, math.Abs(g))) {
				t.Fatalf("position %d: gradient %d on the ranks %v, one process %v", i, j, grads[i*d+j], g)
			}
		}
	}
	if os.Getenv("GOBAYES_FILE_AB") != "" {
		// The rows sent through the kernel, as before, for the memory
		// figures: a job of its own, so that rank 0's peak is its own.
		job.Close()
		job2, err := mpi.Start(mpi.Config{Ranks: 3})
		if err != nil {
			t.Fatal(err)
		}
		defer job2.Close()
		s0, _ := job2.Traffic()
		if _, err := job2.CompileSharded(cs.p.ShardMain, cs.p.ShardBlocks); err != nil {
			t.Fatal(err)
		}
		s1, _ := job2.Traffic()
		t.Logf("rows sent: %d bytes to rank 0; rank 0 peak %s", s1-s0, peak(mpitest.RankPID(t, 0)))
	}
}

// peak is a process's peak resident memory (VmHWM), as /proc says it.
func peak(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

// TestMPISampleFromFile: Sample on Backend("mpi") over data read from a
// file takes the path where the ranks read their rows (compileOnRanks,
// placeShards), and recovers the regression.
func TestMPISampleFromFile(t *testing.T) {
	mpitest.Worker(t)
	tb, err := table.OpenNPY(writeRegression(t, t.TempDir(), 40_000), table.Names("x1", "x2", "y"))
	if err != nil {
		t.Fatal(err)
	}
	m := tableRegression(t, tb, 0)
	fit := m.Sample(Backend("mpi"), Ranks(2), Chains(1), Warmup(150), Draws(100), Seed(2))
	if !strings.Contains(fit.Backend, "blocks of rows over 2 ranks") {
		t.Fatalf("the run did not shard over the ranks: %s", fit.Backend)
	}
	c, _ := m.compileOnRanks(2)
	if blocks, _ := c.detachedBlocks(); blocks[0] == c.p.ShardBlocks[0] {
		t.Fatal("the blocks placed on the ranks carried their rows")
	}
	bs, err := fit.Expand("b")
	if err != nil || len(bs) != 2 {
		t.Fatalf("b's columns: %v %v", bs, err)
	}
	for name, want := range map[string]float64{"a": 1, fit.Columns[bs[0]]: 2, fit.Columns[bs[1]]: -0.5, "sigma": 0.3} {
		d := fit.Flat(name)
		got := 0.0
		for _, v := range d {
			got += v / float64(len(d))
		}
		if math.Abs(got-want) > 0.02 {
			t.Errorf("%s: posterior mean %.4f, truth %v", name, got, want)
		}
	}
}

// TestMPIFileGoneFromRanks: a file the ranks cannot open (removed after
// the kernel mapped it; on a cluster, a path that is not shared) is an
// error naming the rank and the file, not a crash.
func TestMPIFileGoneFromRanks(t *testing.T) {
	mpitest.Worker(t)
	path := writeRegression(t, t.TempDir(), 100_000)
	tb, err := table.OpenNPY(path, table.Names("x1", "x2", "y"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := tableRegression(t, tb, 2).Compile()
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(path) // the kernel's mapping stays; the ranks find nothing
	job, err := mpi.Start(mpi.Config{Ranks: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	_, err = c.placeShards(job)
	if err == nil || !strings.Contains(err.Error(), "rank 1: reading its rows") || !strings.Contains(err.Error(), "reg.npy") || !strings.Contains(err.Error(), "where all ranks see it") {
		t.Fatalf("placing blocks whose file is gone: %v", err)
	}
	t.Log(err)
}
