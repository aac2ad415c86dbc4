// Package mpitest builds the MPI rank program for tests and finds its
// running processes: shared by accel/mpi's tests and ppl's.
package mpitest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

const name = "gobayes-mpi"

var (
	once     sync.Once
	worker   string
	buildErr error
)

// Worker builds cmd/gobayes-mpi with the mpi tag (once per test binary),
// points GOBAYES_MPI_WORKER at it for t, and returns its path; it skips t
// where Open MPI is missing, or fails it when GOBAYES_REQUIRE_MPI is set
// (as `make test-mpi` does).
func Worker(t testing.TB) string {
	t.Helper()
	missing := func(why string) {
		if os.Getenv("GOBAYES_REQUIRE_MPI") != "" {
			t.Fatalf("GOBAYES_REQUIRE_MPI is set but %s", why)
		}
		t.Skip(why)
	}
	if _, err := exec.LookPath("mpirun"); err != nil {
		missing("mpirun is not installed (Debian: openmpi-bin)")
	}
	if err := exec.Command("pkg-config", "--exists", "ompi-c").Run(); err != nil {
		missing("Open MPI's headers are not installed (Debian: libopenmpi-dev)")
	}
	once.Do(func() {
		dir, err := os.MkdirTemp("", "gobayes-mpi-test")
		if err != nil {
			buildErr = err
			return
		}
		worker = filepath.Join(dir, name)
		out, err := exec.Command("go", "build", "-tags", "mpi", "-o", worker, "github.com/gobayes/gobayes/cmd/gobayes-mpi").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("building the rank program: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	t.Setenv("GOBAYES_MPI_WORKER", worker)
	return worker
}

// Running lists the live processes of the rank program Worker built.
func Running(t testing.TB) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
		if err != nil || exe != worker {
			continue
		}
		if st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil && strings.Contains(string(st), ") Z ") {
			continue // ended, not yet reaped
		}
		pids = append(pids, pid)
	}
	return pids
}

// RankPID is the process id of rank r of the running job (Open MPI sets
// OMPI_COMM_WORLD_RANK in each rank's environment).
func RankPID(t testing.TB, r int) int {
	t.Helper()
	for _, pid := range Running(t) {
		env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if err != nil {
			continue
		}
		for _, kv := range strings.Split(string(env), "\x00") {
			if kv == "OMPI_COMM_WORLD_RANK="+strconv.Itoa(r) {
				return pid
			}
		}
	}
	t.Fatalf("no rank %d is running", r)
	return 0
}

// Runnable reports whether any thread of process pid is running or
// waiting for a CPU (state R in /proc/pid/task/*/stat).
func Runnable(t testing.TB, pid int) bool {
	t.Helper()
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		t.Fatalf("reading the threads of process %d: %v", pid, err)
	}
	for _, task := range tasks {
		st, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/stat", pid, task.Name()))
		if err != nil {
			continue // the thread ended
		}
		s := string(st)
		if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(f) > 0 && f[0] == "R" {
			return true
		}
	}
	return false
}
