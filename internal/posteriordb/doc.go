// Package posteriordb loads the reference posteriors kept in
// ../shared/posteriordb (seventeen cases from Stan's posteriordb) and writes
// each of their models with package ppl.
//
// Cases lists the case names; Load reads one case's data and reference
// summary; Model builds the case's model:
//
//	c, err := posteriordb.Load("eight_schools-eight_schools_noncentered")
//	if err != nil { ... }
//	y, _ := c.Floats("y")
//	m, err := posteriordb.Model(c.Name, c)
//
// The folder is found as ../shared/posteriordb beside the repository root
// (the layout CI clones), or wherever the environment variable
// GOBAYES_POSTERIORDB points. Tests call Require, which skips under -short
// and fails otherwise when the folder is missing.
//
// The programs ppl compiles from these models, from a simulated logistic
// regression and from the small models of accel's tests
// (accelmodels_test.go) are the fixtures of accel/ir/irtest: accel sits
// below ppl and reads compiled programs from them. TestFixtures fails when
// they differ from what ppl compiles today; rewrite them with
//
//	go test ./internal/posteriordb -run Fixtures -update
//
// Subpackage handwritten holds an independent plain-Go log density of every
// model, the oracle the compiled models are tested and benchmarked against.
package posteriordb
