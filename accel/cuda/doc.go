// Package cuda is the GPU accel backend, built only with the tag cuda
// (gorgonia.org/cu needs the CUDA toolkit and ends the process at start
// when no driver is present). It generates CUDA C for a model program
// with accel/cuda/cgen, compiles it at run time with NVRTC, keeps the
// model's data on the device, and runs one thread per chain: the batch
// log density and gradient, and whole leapfrog trajectories fused in one
// kernel.
//
// The main binary does not link it: `make cuda` builds the worker
// (cmd/gobayes-cuda, bin/gobayes-cuda), which serves this backend through
// accel/remote. In the worker:
//
//	runtime.LockOSThread() // the CUDA context is current on this thread
//	b, err := cuda.New(0)  // device 0
//	remote.Serve(os.Stdin, os.Stdout, b, b.Info())
//
// A Backend and its programs must be used from the goroutine (locked to
// its OS thread) that created them.
package cuda
