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
// The suite needs ../shared/posteriordb (see internal/posteriordb); it
// skips the model cases under -short when the folder is missing.
package conformance
