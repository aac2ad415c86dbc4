package mpi_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/conformance"
	"github.com/gobayes/gobayes/accel/cpu"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/mpi"
	"github.com/gobayes/gobayes/accel/mpi/mpitest"
)

func start(t *testing.T, ranks int) *mpi.Job {
	t.Helper()
	return startWith(t, mpi.Config{Ranks: ranks})
}

func startWith(t *testing.T, cfg mpi.Config) *mpi.Job {
	t.Helper()
	mpitest.Worker(t)
	j, err := mpi.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

// TestConformance runs the backend suite (every posteriordb program,
// batches of 1, 7 and 64 positions, leapfrog trajectories) on jobs of 2
// and 3 ranks, the chains of a batch spread over the ranks, at the
// suite's 1e-12.
func TestConformance(t *testing.T) {
	for _, n := range []int{2, 3} {
		t.Run(fmt.Sprintf("ranks=%d", n), func(t *testing.T) {
			j := start(t, n)
			if !strings.Contains(j.Info(), fmt.Sprintf("%d ranks", n)) {
				t.Errorf("info %q does not say %d ranks", j.Info(), n)
			}
			conformance.Run(t, j, conformance.Options{})
		})
	}
}

// TestShardedEqualsInProcess places blocks of a program on the ranks (a
// stand-in for ppl's shards: the same program as every block, so the sum
// is known) and checks the gathered sum against the CPU.
func TestShardedEqualsInProcess(t *testing.T) {
	p := conformance.Program(t, "eight_schools-eight_schools_noncentered")
	ref, err := cpu.New(1).Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{2, 3} {
		// Data placed in rounds of 1000 bytes (rather than a gigabyte):
		// the path of a placement larger than one MPI scatter can carry.
		j := startWith(t, mpi.Config{Ranks: n, ScatterChunk: 1000})
		const k = 5 // blocks: uneven over 2 and 3 ranks
		blocks := make([]*ir.Program, k)
		for i := range blocks {
			blocks[i] = p
		}
		c, err := j.CompileSharded(p, blocks)
		if err != nil {
			t.Fatal(err)
		}
		const b = 7
		xs := conformance.Points(b, p.Dim, 3)
		lps, grads := make([]float64, b), make([]float64, b*p.Dim)
		rl, rg := make([]float64, b), make([]float64, b*p.Dim)
		if err := c.LogDensityGrad(xs, lps, grads); err != nil {
			t.Fatal(err)
		}
		if err := ref.LogDensityGrad(xs, rl, rg); err != nil {
			t.Fatal(err)
		}
		for i := range lps {
			if !close(lps[i], (k+1)*rl[i]) {
				t.Errorf("%d ranks: position %d: log density %v, want %d × %v", n, i, lps[i], k+1, rl[i])
			}
		}
		for i := range grads {
			if !close(grads[i], (k+1)*rg[i]) {
				t.Errorf("%d ranks: gradient %d: %v, want %d × %v", n, i, grads[i], k+1, rg[i])
			}
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		// Leapfrog of a sharded program (main alone here, so that the
		// reference is the program's own): one collective evaluation per
		// step, the reference loop's trajectory, including chains that
		// diverge and stop (step sizes up to 40).
		c, err = j.CompileSharded(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, want := trajectories(b, p.Dim), trajectories(b, p.Dim)
		if err := ref.LogDensityGrad(got.Q, got.LogDensity, got.Grad); err != nil {
			t.Fatal(err)
		}
		copy(want.LogDensity, got.LogDensity)
		copy(want.Grad, got.Grad)
		if err := c.Leapfrog(got); err != nil {
			t.Fatal(err)
		}
		if err := ref.Leapfrog(want); err != nil {
			t.Fatal(err)
		}
		stopped := 0
		for i := range b {
			if got.Steps[i] != want.Steps[i] {
				t.Errorf("%d ranks: chain %d: %d steps, want %d", n, i, got.Steps[i], want.Steps[i])
			}
			if want.Steps[i] < want.N {
				stopped++
			}
			if got.LogDensity[i] != want.LogDensity[i] && !close(got.LogDensity[i], want.LogDensity[i]) {
				t.Errorf("%d ranks: chain %d: log density %v, want %v", n, i, got.LogDensity[i], want.LogDensity[i])
			}
		}
		for i := range got.Q {
			if !close(got.Q[i], want.Q[i]) || !close(got.P[i], want.P[i]) {
				t.Errorf("%d ranks: value %d: q %v p %v, want %v %v", n, i, got.Q[i], got.P[i], want.Q[i], want.P[i])
				break
			}
		}
		if stopped == 0 {
			t.Errorf("%d ranks: no chain diverged: the stopping path went untested", n)
		}
		c.Close()
	}
}

// trajectories are b chains of dimension d from the suite's points, with
// step sizes from 0.05 to 40 (the large ones diverge).
func trajectories(b, d int) *accel.Trajectories {
	t := &accel.Trajectories{
		Q: conformance.Points(b, d, 5), P: conformance.Points(b, d, 6), Grad: make([]float64, b*d),
		LogDensity: make([]float64, b), StepSize: make([]float64, b), Steps: make([]int, b),
		InvMetric: make([]float64, d), N: 20,
	}
	for i := range t.StepSize {
		t.StepSize[i] = 0.05 + 40*float64(i)/float64(b-1)
	}
	for i := range t.InvMetric {
		t.InvMetric[i] = 1
	}
	return t
}

func close(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	m := max(abs(a), abs(b), 1)
	return d <= 1e-12*m
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestKilledRank kills rank 1 mid-job: the next evaluation fails with an
// error that says the job ended and what mpirun reported, and nothing of
// the job is left running.
func TestKilledRank(t *testing.T) {
	j := start(t, 2)
	p := conformance.Program(t, "eight_schools-eight_schools_noncentered")
	c, err := j.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	pid := mpitest.RankPID(t, 1)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	xs := conformance.Points(4, p.Dim, 1)
	err = c.LogDensityGrad(xs, make([]float64, 4), make([]float64, 4*p.Dim))
	if err == nil {
		t.Fatal("an evaluation after a rank was killed succeeded")
	}
	if !strings.Contains(err.Error(), "the MPI job ended") {
		t.Errorf("error %q does not say the job ended", err)
	}
	t.Logf("the error: %v", err)
	j.Close()
	if left := mpitest.Running(t); len(left) > 0 {
		t.Errorf("ranks still running after Close: %v", left)
	}
}

// TestCloseEndsEveryRank: after Close no rank of the job remains.
func TestCloseEndsEveryRank(t *testing.T) {
	j := start(t, 3)
	if n := len(mpitest.Running(t)); n != 3 {
		t.Errorf("%d ranks running, want 3", n)
	}
	j.Close()
	deadline := time.Now().Add(5 * time.Second)
	for len(mpitest.Running(t)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if left := mpitest.Running(t); len(left) > 0 {
		t.Errorf("ranks still running after Close: %v", left)
	}
}

// TestMissing: without the rank program the error says how to build it.
func TestMissing(t *testing.T) {
	t.Setenv("GOBAYES_MPI_WORKER", "")
	t.Setenv("PATH", t.TempDir())
	_, err := mpi.Start(mpi.Config{Ranks: 2})
	if err == nil || !errors.Is(err, accel.ErrNotInstalled) || !strings.Contains(err.Error(), "make mpi") {
		t.Fatalf("Start without the rank program: %v", err)
	}
}

// TestCommand: a named cluster's hosts and binary reach mpirun's command
// line, and a broken clusters file is an error that names it.
func TestCommand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "clusters.json")
	os.WriteFile(path, []byte(`{"lab": {"hosts": [{"name": "n1", "ranks": 4}, {"name": "n2", "ranks": 4}], "binary": "/opt/gb/gobayes-mpi", "args": ["--mca", "btl_tcp_if_include", "eth0"]}}`), 0o644)
	t.Setenv("GOBAYES_CLUSTERS", path)
	cl, err := mpi.LoadCluster("lab")
	if err != nil {
		t.Fatal(err)
	}
	launcher, args := mpi.Command(mpi.Config{}, cl, "/here/gobayes-mpi")
	line := launcher + " " + strings.Join(args, " ")
	for _, want := range []string{"mpirun -n 8 ", "--host n1:4,n2:4", "--mca btl_tcp_if_include eth0", "/opt/gb/gobayes-mpi -threads 1"} {
		if !strings.Contains(line, want) {
			t.Errorf("command %q lacks %q", line, want)
		}
	}
	if _, err := mpi.LoadCluster("nope"); err == nil || !strings.Contains(err.Error(), "lab") {
		t.Errorf("an unknown cluster: %v (want the names it has)", err)
	}
	os.WriteFile(path, []byte(`{"lab": {"hosts": []}, "slurm": {"allocation": true}}`), 0o644)
	t.Setenv("SLURM_NTASKS", "64")
	cl, err = mpi.LoadCluster("slurm")
	if err != nil {
		t.Fatal(err)
	}
	if _, args := mpi.Command(mpi.Config{}, cl, "/here/gobayes-mpi"); strings.Join(args[:2], " ") != "-n 64" || strings.Contains(strings.Join(args, " "), "--host") {
		t.Errorf("an allocation's command: %v (want -n from SLURM_NTASKS, no --host)", args)
	}
	if _, err := mpi.LoadCluster("lab"); err == nil || !strings.Contains(err.Error(), "no hosts") {
		t.Errorf("a cluster without hosts: %v", err)
	}
}

// TestIdleRanksYield: between runs the ranks wait for rank 0's next
// command without spinning (MPI's blocking broadcast polls, pinning a core
// per rank, which starves a small machine while a notebook sits idle). A
// spinning process is runnable (state R in /proc) whenever it is looked
// at, scheduled or not, while a sleeping one is runnable only from its
// wake-up until the scheduler runs it: on a busy machine that can be half
// the time, so the bound is four looks in five (a spinning rank is
// runnable at every look).
func TestIdleRanksYield(t *testing.T) {
	j := start(t, 3)
	p := conformance.Program(t, "eight_schools-eight_schools_noncentered")
	c, err := j.Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	xs := conformance.Points(4, p.Dim, 1)
	if err := c.LogDensityGrad(xs, make([]float64, 4), make([]float64, 4*p.Dim)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // past any spinning before the ranks back off
	pids := mpitest.Running(t)
	if len(pids) != 3 {
		t.Fatalf("%d ranks running, want 3", len(pids))
	}
	const looks = 100
	runnable := make([]int, len(pids))
	for range looks {
		for i, pid := range pids {
			if mpitest.Runnable(t, pid) {
				runnable[i]++
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	for i, pid := range pids {
		t.Logf("rank process %d: runnable at %d of %d looks while the job was idle", pid, runnable[i], looks)
		if runnable[i] > looks*4/5 {
			t.Errorf("rank process %d was runnable at %d of %d looks while the job was idle: it spins", pid, runnable[i], looks)
		}
	}
	// Still answering after the idle second.
	if err := c.LogDensityGrad(xs, make([]float64, 4), make([]float64, 4*p.Dim)); err != nil {
		t.Fatal(err)
	}
}

// TestLocalJobListensNowhere: while a job on this machine runs, neither
// mpirun nor a rank nor the kernel's link listens on an address another
// machine can reach (Open MPI's runtime listens on every interface, and
// its option to pick interfaces does not change what it binds).
func TestLocalJobListensNowhere(t *testing.T) {
	if _, err := exec.LookPath("ss"); err != nil {
		t.Skip("no ss (iproute2) to list the listening sockets")
	}
	j := start(t, 2)
	p := conformance.Program(t, "eight_schools-eight_schools_noncentered")
	if _, err := j.Compile(p); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("ss", "-H", "-l", "-t", "-u", "-n", "-p").Output()
	if err != nil {
		t.Fatal(err)
	}
	self := fmt.Sprintf("pid=%d,", os.Getpid())
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		local := f[4]
		ours := strings.Contains(line, `"mpirun"`) || strings.Contains(line, `"`+mpi.WorkerName+`"`) || strings.Contains(line, self)
		if ours && !strings.HasPrefix(local, "127.") && !strings.HasPrefix(local, "[::1]") {
			t.Errorf("listening beyond the loopback during a local job: %s", line)
		}
	}
}
