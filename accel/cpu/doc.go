// Package cpu is the default accel backend: it evaluates a batch of
// positions in blocks across every core, each worker goroutine owning its
// own ir.Frame, with no allocation per call after the first.
//
// Importing the package registers it as accel backend "cpu":
//
//	import _ "github.com/gobayes/gobayes/accel/cpu"
//	c, err := accel.Default().Compile(program)
//
// or use it directly: cpu.New(0).Compile(program) (0 workers: GOMAXPROCS).
package cpu
