// Package irtest checks accel/ir programs: gradients against central finite
// differences, Jacobians of transforms, and one-op programs over random
// parameters so that every op test is one row of a table.
//
// Typical use:
//
//	p, err := irtest.OpProgram(ir.OpMul, nil, nil,
//		irtest.Param(-2, 2, 3), irtest.Const(nil, 1.5))
//	x := irtest.Point(rng, p, irtest.Param(-2, 2, 3), ...)
//	irtest.CheckGradient(t, p, x, 1e-6)
//	irtest.CheckNoAllocs(t, p, x)
package irtest
