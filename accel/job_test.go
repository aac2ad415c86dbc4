package accel_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/accel"
)

// TestStartJobByName: a job is started by the name its package registered
// (accel/mpi: "mpi"); a name nothing registered is an ErrUnavailable that
// says which import provides one, and a second registration of a name
// panics.
func TestStartJobByName(t *testing.T) {
	var got accel.JobConfig
	accel.RegisterJob("test-job", func(cfg accel.JobConfig) (accel.Job, error) {
		got = cfg
		return nil, errors.New("test-job: no ranks here")
	})
	if _, err := accel.StartJob("test-job", accel.JobConfig{Ranks: 3, Cluster: "c"}); err == nil || got.Ranks != 3 || got.Cluster != "c" {
		t.Errorf("StartJob: error %v, the factory saw %+v; want its error and Ranks 3, Cluster c", err, got)
	}
	_, err := accel.StartJob("no-such-job", accel.JobConfig{})
	if !errors.Is(err, accel.ErrUnavailable) || !strings.Contains(err.Error(), "accel/mpi") {
		t.Errorf("StartJob of an unregistered name: %v; want ErrUnavailable naming the import", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("a second RegisterJob of one name did not panic")
		}
	}()
	accel.RegisterJob("test-job", nil)
}
