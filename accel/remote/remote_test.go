package remote_test

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/conformance"
	"github.com/gobayes/gobayes/accel/cpu"
	"github.com/gobayes/gobayes/accel/remote"
)

// pipeBackend serves accel/cpu in a goroutine and returns a client
// talking to it through in-memory pipes: the worker protocol without a
// worker process.
func pipeBackend(t *testing.T) *remote.Client {
	c, stop, err := remote.InProcess(cpu.New(2), "test: accel/cpu behind a pipe")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return c
}

func TestConformanceThroughPipe(t *testing.T) {
	c := pipeBackend(t)
	if c.Name() != "cpu" || !strings.Contains(c.Info(), "behind a pipe") {
		t.Errorf("hello: name %q, info %q", c.Name(), c.Info())
	}
	conformance.Run(t, c, conformance.Options{})
}

func TestMissingWorker(t *testing.T) {
	t.Setenv("GOBAYES_CUDA_WORKER", "")
	t.Setenv("PATH", t.TempDir())
	_, err := remote.StartWorker("cuda", "gobayes-no-such-worker")
	if !errors.Is(err, accel.ErrNotInstalled) || !errors.Is(err, accel.ErrUnavailable) || !strings.Contains(err.Error(), "make cuda") {
		t.Errorf("StartWorker of a missing binary: %v; want ErrNotInstalled saying to run make cuda", err)
	}
}

func TestBrokenWorker(t *testing.T) {
	// /bin/false starts and exits at once, as the CUDA worker does when
	// cu's initialisation finds no driver.
	t.Setenv("GOBAYES_CUDA_WORKER", "/bin/false")
	_, err := remote.StartWorker("cuda", remote.WorkerName)
	if !errors.Is(err, accel.ErrUnavailable) || errors.Is(err, accel.ErrNotInstalled) || !strings.Contains(err.Error(), "did not start") {
		t.Errorf("StartWorker of a worker that exits: %v; want ErrUnavailable saying it did not start", err)
	}
}

// TestConformanceWorkerProcess builds cmd/gobayes-worker, which serves
// accel/cpu, and runs the suite through StartWorker: the path the CUDA
// worker takes.
func TestConformanceWorkerProcess(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "gobayes-worker")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/gobayes/gobayes/cmd/gobayes-worker").CombinedOutput(); err != nil {
		t.Fatalf("building the test worker: %v\n%s", err, out)
	}
	t.Setenv("GOBAYES_CUDA_WORKER", bin)
	c, err := remote.StartWorker("cuda", remote.WorkerName)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := c.Shutdown(); err != nil {
			t.Errorf("worker exit: %v", err)
		}
	}()
	if !strings.Contains(c.Info(), "worker process") {
		t.Errorf("hello info %q", c.Info())
	}
	conformance.Run(t, c, conformance.Options{})
}
