// Package irtest checks accel/ir programs: gradients against central finite
// differences, Jacobians of transforms, and one-op programs over random
// parameters so that every op test is one row of a table.
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
package irtest
