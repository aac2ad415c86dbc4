// Package accel is the compute-backend contract of gobayes: a backend
// compiles a model program (package accel/ir) and evaluates it for a batch
// of positions at once, or runs a batch of leapfrog trajectories without a
// round trip per step.
//
// Variants live in subpackages and register themselves when imported:
// accel/cpu (every core, always built) as "cpu", and accel/remote as
// "cuda": a client that starts the GPU worker (cmd/gobayes-cuda, built
// with `make cuda`) and talks to it through a pipe, so that the main
// binary never links the CUDA driver. Pick one with Default, ByName or
// Choose:
//
//	import _ "github.com/gobayes/gobayes/accel/cpu"
//
//	b := accel.Default()                  // the CPU unless GOBAYES_ACCEL says otherwise
//	c, err := b.Compile(program)          // once per model
//	defer c.Close()
//	err = c.LogDensityGrad(xs, lps, grads) // xs [B×D] → lps [B], grads [B×D]
//
// Choose applies the automatic rule (see Choose): the GPU only for many
// chains or large data, the CPU otherwise. Package accel/conformance is the
// one test suite every backend passes.
package accel
