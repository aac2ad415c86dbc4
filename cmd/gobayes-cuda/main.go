//go:build cuda

// Command gobayes-cuda is the GPU worker: it serves the accel/cuda
// backend on stdin and stdout with the accel/remote protocol. The main
// binary starts it for the "cuda" backend (GOBAYES_ACCEL=cuda or
// ppl.Backend("auto")); build it with `make cuda`. It exits with a message on
// stderr when there is no CUDA driver or device.
package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/gobayes/gobayes/accel/cuda"
	"github.com/gobayes/gobayes/accel/remote"
)

func main() {
	// The CUDA context is current on one OS thread: keep every call on it.
	runtime.LockOSThread()
	b, err := cuda.New(0)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gobayes-cuda: %v\n", err)
		os.Exit(1)
	}
	if err := remote.Serve(os.Stdin, os.Stdout, b, b.Info()); err != nil {
		fmt.Fprintf(os.Stderr, "gobayes-cuda: %v\n", err)
		os.Exit(1)
	}
}
