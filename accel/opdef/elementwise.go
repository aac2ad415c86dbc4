package opdef

// Unary is an elementwise op of the instruction set with one input x:
// y = Value, and the reverse sweep adds Adj to x's adjoint, a formula of
// x, the output y and the output's adjoint g (written from whichever is
// cheapest: exp's from y). accel/ir's loops and scalar fast path,
// accel/vec's lockstep kernels and accel/cuda/cgen's C come from it.
type Unary struct {
	// Op names the instruction (ir.Op<Op>, declared in accel/ir/ops.go
	// with its doc); Name is its printed name.
	Op, Name   string
	Value, Adj string
}

// Binary is an elementwise op of two inputs a and b that broadcast (each
// has the output's length or length 1): y = Value, and the reverse sweep
// adds AdjA to a's adjoint and AdjB to b's, formulas of a, b, y and g.
type Binary struct {
	Op, Name          string
	Value, AdjA, AdjB string
}

// The unary ops, in the order of their Op constants.
var unaries = []*Unary{
	{Op: "Neg", Name: "neg", Value: "-x", Adj: "-g"},
	{Op: "Exp", Name: "exp", Value: "exp(x)", Adj: "g * y"},
	{Op: "Log", Name: "log", Value: "log(x)", Adj: "g / x"},
	{Op: "Log1p", Name: "log1p", Value: "log1p(x)", Adj: "g / (1 + x)"},
	{Op: "Expm1", Name: "expm1", Value: "expm1(x)", Adj: "g * exp(x)"},
	{Op: "Sqrt", Name: "sqrt", Value: "sqrt(x)", Adj: "g * 0.5 / y"},
	{Op: "Square", Name: "square", Value: "x * x", Adj: "2 * g * x"},
	{Op: "Logistic", Name: "logistic", Value: "logistic(x)", Adj: "g * logisticDeriv(x)"},
	{Op: "Softplus", Name: "softplus", Value: "softplus(x)", Adj: "g * logistic(x)"},
	{Op: "Lgamma", Name: "lgamma", Value: "lgamma(x)", Adj: "g * digamma(x)"},
	{Op: "Digamma", Name: "digamma", Value: "digamma(x)", Adj: "g * trigamma(x)"},
	// The derivative of |x| is taken as 0 at 0.
	{Op: "Abs", Name: "abs", Value: "abs(x)", Adj: "where(x > 0, g, where(x < 0, -g, 0))"},
	{Op: "Logit", Name: "logit", Value: "logitOf(x)", Adj: "g / (x * (1 - x))"},
	{Op: "Tanh", Name: "tanh", Value: "tanh(x)", Adj: "g * (1 - y*y)"},
	{Op: "Inv", Name: "inv", Value: "1 / x", Adj: "-(g * y * y)"},
	// A step has no gradient: it is for data and for the enumerated
	// values of a discrete variable (a changepoint's x - s).
	{Op: "Step", Name: "step", Value: "where(x > 0, 1, 0)", Adj: "0"},
}

// The binary ops, in the order of their Op constants.
var binaries = []*Binary{
	{Op: "Add", Name: "add", Value: "a + b", AdjA: "g", AdjB: "g"},
	{Op: "Sub", Name: "sub", Value: "a - b", AdjA: "g", AdjB: "-g"},
	{Op: "Mul", Name: "mul", Value: "a * b", AdjA: "g * b", AdjB: "g * a"},
	{Op: "Div", Name: "div", Value: "a / b", AdjA: "g / b", AdjB: "-(g * y / b)"},
	// a^b: a ≥ 0 for a gradient in b; each partial is 0 where its factor
	// is (b = 0, y = 0), so that 0·∞ never makes NaN.
	{Op: "Pow", Name: "pow", Value: "pow(a, b)",
		AdjA: "where(b != 0, g * b * pow(a, b - 1), 0)", AdjB: "where(y != 0, g * y * log(a), 0)"},
	// The gradient goes to the input taken, to a on ties.
	{Op: "Min", Name: "min", Value: "min(a, b)", AdjA: "where(a <= b, g, 0)", AdjB: "where(a <= b, 0, g)"},
	{Op: "Max", Name: "max", Value: "max(a, b)", AdjA: "where(a >= b, g, 0)", AdjB: "where(a >= b, 0, g)"},
	// log(eᵃ - eᵇ) for b ≤ a (a truncated density's log normaliser from
	// two log CDFs). A zero adjoint adds nothing, so that the branch a
	// max leaves aside passes no 0/0 back where a = b.
	{Op: "LogDiffExp", Name: "log_diff_exp", Value: "logDiffExp(a, b)",
		AdjA: "where(g != 0, g / -expm1(b - a), 0)", AdjB: "where(g != 0, -g / expm1(a - b), 0)"},
}

// Unaries is every unary elementwise op, in Op order.
func Unaries() []*Unary { return unaries }

// Binaries is every binary elementwise op, in Op order.
func Binaries() []*Binary { return binaries }
