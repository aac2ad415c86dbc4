package cpu_test

import (
	"testing"

	"github.com/gobayes/gobayes/accel/conformance"
	"github.com/gobayes/gobayes/accel/cpu"
)

func TestConformance(t *testing.T) {
	for _, workers := range []int{1, 3} {
		conformance.Run(t, cpu.New(workers), conformance.Options{})
	}
}
