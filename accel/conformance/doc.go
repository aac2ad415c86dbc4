// Package conformance is the one test suite every accel backend passes:
// log densities and gradients of every posteriordb model at random points
// against the reference ir.Frame, leapfrog batches against a plain Go
// loop, and the contract's length checks.
//
// A backend's test calls Run:
//
//	func TestConformance(t *testing.T) {
//		conformance.Run(t, cpu.New(2), conformance.Options{})
//	}
//
// The suite takes programs, not models: the posteriordb models' programs,
// as ppl compiles them, are accel/ir/irtest's fixtures (set
// irtest.Posteriordb), so that no accel package imports ppl and the suite
// needs no data folder. Program returns one of them by name, for a
// backend's own tests and benchmarks.
package conformance
