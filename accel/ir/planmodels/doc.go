// Package planmodels checks the interpreter's execution plan of accel/ir
// on every posteriordb model: the fused run must agree with the
// instruction-by-instruction run in value and gradient. It holds tests
// only (they import ppl, which accel/ir's own tests must not depend on);
// run them with
//
//	go test ./accel/ir/planmodels/
package planmodels
