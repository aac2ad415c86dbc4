package supervisor

import (
	"os"
	"testing"
)

// testWorkerEnv makes the test binary act as the interpreter's worker, so
// the Supervised tests run a real child process without building gobayes.
const testWorkerEnv = "GOBAYES_TEST_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(testWorkerEnv) == "1" {
		os.Exit(WorkerMain())
	}
	os.Exit(m.Run())
}
