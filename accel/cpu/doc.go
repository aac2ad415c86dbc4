// Package cpu is the default accel backend. LogDensityGrad evaluates a
// batch of positions in blocks across every core, each worker goroutine
// owning its own ir.Frame (a batch of one, what NUTS asks for, runs on the
// caller's goroutine and frame), with no allocation per call after the
// first; NewBatch gives accel/vec's lockstep kernels, the CPU
// implementation of accel.Batch.
//
// Importing the package registers it as accel backend "cpu":
//
//	import _ "github.com/gobayes/gobayes/accel/cpu"
//	b, err := accel.ByName("cpu")
//
// or use it directly: cpu.New(0).Compile(program) (0 workers: GOMAXPROCS).
package cpu
