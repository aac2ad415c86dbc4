// Package planmodels checks the interpreter's execution plan of accel/ir
// on every posteriordb model: the fused run must agree with the
// instruction-by-instruction run in value and gradient. It holds tests
// only; the models' programs, as ppl compiles them, come from
// accel/ir/irtest's fixtures (accel imports no ppl). Run them with
//
//	go test ./accel/ir/planmodels/
package planmodels
