package accel_test

import (
	"testing"

	"github.com/gobayes/gobayes/accel"
	_ "github.com/gobayes/gobayes/accel/cpu"
)

func TestByNameUnknown(t *testing.T) {
	if _, err := accel.ByName("tpu"); err == nil {
		t.Error("ByName(tpu): no error")
	}
}
