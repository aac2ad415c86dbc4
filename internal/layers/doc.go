// Package layers holds one test, the guard of the repository's layering:
// accel (the compute contract, its backends and the ir) sits below ppl and
// imports neither ppl nor internal/posteriordb nor the notebook layers
// (display, kernel, interp, plotting); ppl, a library, imports none of the
// notebook layers; and only cmd/ and bench/ hold main packages. Test files
// count: accel's tests read compiled programs from accel/ir/irtest's
// fixtures instead of compiling ppl models.
//
// The test runs go list over the module, with and without the cuda build
// tag, and names the import chain of every violation:
//
//	go test ./internal/layers
package layers
