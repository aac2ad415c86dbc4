// Package irtest checks accel/ir programs: gradients against central finite
// differences, Jacobians of transforms, and one-op programs over random
// parameters so that every op test is one row of a table. It also holds
// the fixtures: models' programs as ppl compiles them, for the tests of
// accel, which imports no ppl.
//
// Typical use:
//
//	args := []irtest.Arg{irtest.Param(-2, 2, 3), irtest.Const(nil, 1.5)}
//	p, err := irtest.OpProgram(ir.OpMul, nil, nil, args...)
//	x := irtest.Point(rng, args...)
//	got := irtest.Output(p, x, irtest.OutputName) // compare with an oracle
//	irtest.CheckGradient(t, p, x, 1e-6)
//	irtest.CheckNoAllocs(t, p, x)
//
// BuildProgram does the same for a small graph of ops, and FDJacobian
// differentiates a transform numerically (for log-Jacobian checks).
//
// Fixtures returns the models of a set (Posteriordb: the seventeen
// reference posteriors; Simulated: a logistic regression of simulated
// data; Kernels and Small: small models written for accel's tests),
// Fixture one program by name:
//
//	for _, m := range irtest.Fixtures(t, irtest.Posteriordb) {
//		t.Run(m.Name, func(t *testing.T) { check(t, m.Program) })
//	}
//	p := irtest.Fixture(t, "eight_schools-eight_schools_noncentered")
//
// The sets are the files testdata/<set>.gob.gz (gob, gzip-compressed,
// embedded in the package). TestFixtures of the posteriordb package under
// internal/, above ppl, writes them from the ppl models and fails when
// they differ from what ppl compiles today; rewrite them with
//
//	cd internal && go test ./posteriordb -run Fixtures -update
//
// Gob carries a program's exported fields only, so reading rebuilds each
// program through an ir.Builder: Finalize derives its execution plan
// again, planned with accel/fuse's Plan as ppl plans its programs (and
// so are OpProgram's and BuildProgram's, whose tests compare the fused
// kernels with the instruction-by-instruction run). Op
// numbers are stored with the op names, so that adding or reordering ops
// leaves the files valid.
package irtest
