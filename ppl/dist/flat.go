package dist

import "github.com/gobayes/gobayes/accel/ir"

// Flat is the improper uniform density on the real line (Stan's default
// prior). Its Op is ir.OpNop: the compiler adds no log-density term. It
// has no parameters and no sampler: prior predictive draws of a Flat
// variable are an error unless bounds make it proper.
var Flat = &Family{
	Name: "Flat", Support: on(Real), Op: ir.OpNop,
}

// HalfFlat is the improper uniform density on (0, ∞): the positive
// bijector's log-Jacobian is the only term. Like Flat it has no sampler.
var HalfFlat = &Family{
	Name: "HalfFlat", Support: on(Positive), Op: ir.OpNop,
}
