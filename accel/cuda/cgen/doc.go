// Package cgen generates CUDA C from a model program (package accel/ir):
// a hand-written device library of the ops' forward and reverse formulas
// (device.cu, mirroring the Go reference) and, per model, the program's
// forward and reverse sweeps plus two kernels, one thread per chain: the
// batch log density and gradient, and a fused leapfrog trajectory.
//
// The generated source also compiles as plain C with gcc under a small
// shim header (shim.h: __global__ and __device__ vanish, GB_LAUNCH loops
// over the grid), which is how the generated code is tested on machines
// without a GPU. The package is not behind the cuda build tag for that
// reason.
//
//	src, err := cgen.Generate(program)          // CUDA source (NVRTC)
//	c, err := cgen.NewGCC().Compile(program)    // an accel backend: gcc -O2 + pipe
//
// Ops the generator does not cover yet make Generate fail with
// ErrUnsupported naming them (Supported lists the covered ones).
//
// Data-parallel kernels for large data (one block per chain, the data
// shared among its threads, tree reductions) are designed but not built:
// see DataParallel.
package cgen
