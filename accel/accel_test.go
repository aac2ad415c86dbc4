package accel_test

import (
	"testing"

	"github.com/gobayes/gobayes/accel"
	_ "github.com/gobayes/gobayes/accel/cpu"
)

// TestChoose: without a GPU backend the rule always gives the CPU, for a
// tiny model with four chains and for a million chains alike.
func TestChoose(t *testing.T) {
	t.Setenv("GOBAYES_ACCEL", "")
	accel.Forget()
	old := accel.Notice
	accel.Notice = func(string) {}
	defer func() { accel.Notice = old }()
	for _, w := range []accel.Workload{{Chains: 4, Slots: 50}, {Chains: 1 << 20, Slots: 50}, {Chains: 4, Slots: 1 << 24}} {
		if b := accel.Choose(w); b.Name() != "cpu" {
			t.Errorf("Choose(%+v) = %s on a machine without the cuda backend, want cpu", w, b.Name())
		}
	}
}

func TestByNameUnknown(t *testing.T) {
	if _, err := accel.ByName("tpu"); err == nil {
		t.Error("ByName(tpu): no error")
	}
}

// fakeGPU stands for the cuda backend in TestChooseGPU.
type fakeGPU struct{ accel.Backend }

func (fakeGPU) Name() string { return "cuda" }

var gpuPresent bool

func init() {
	accel.Register("cuda", func() (accel.Backend, error) {
		if !gpuPresent {
			return nil, accel.ErrUnavailable
		}
		return fakeGPU{}, nil
	})
}

// TestChooseGPU: with a GPU, the rule takes it for many chains or large
// data only (the thresholds GPUMinChains and GPUMinWork).
func TestChooseGPU(t *testing.T) {
	t.Setenv("GOBAYES_ACCEL", "")
	gpuPresent = true
	accel.Forget()
	defer func() { gpuPresent = false; accel.Forget() }()
	cases := []struct {
		w    accel.Workload
		want string
	}{
		{accel.Workload{Chains: 4, Slots: 50}, "cpu"},
		{accel.Workload{Chains: accel.GPUMinChains - 1, Slots: 50}, "cpu"},
		{accel.Workload{Chains: accel.GPUMinChains, Slots: 50}, "cuda"},
		{accel.Workload{Chains: 4, Slots: accel.GPUMinWork / 4}, "cuda"},
	}
	for _, tc := range cases {
		if b := accel.Choose(tc.w); b.Name() != tc.want {
			t.Errorf("Choose(%+v) = %s, want %s", tc.w, b.Name(), tc.want)
		}
	}
}
