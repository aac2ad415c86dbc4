package infer

// Model is a compiled model as the samplers see it. Package ppl implements
// it; infer never imports ppl.
type Model interface {
	// Name is the model's name, for summaries and files.
	Name() string
	// Dim is the length of the unconstrained position.
	Dim() int
	// Vars lists what one draw records: constrained parameters first, then
	// deterministic quantities, in declaration order.
	Vars() []Var
	// NewDensity returns an evaluator with its own scratch memory, for one
	// goroutine.
	NewDensity() Density
}

// Var is one recorded variable. Its scalars are named "theta[0]",
// "Sigma[1,0]" (0-based, as Go indexes; see ColumnNames).
type Var struct {
	Name          string
	Shape         []int
	Deterministic bool
}

// Density evaluates the model at unconstrained positions. It is not safe
// for concurrent use; it never allocates.
type Density interface {
	// LogDensityGrad returns the log density (Jacobian included) at x and
	// writes its gradient into grad. Not finite: -Inf.
	LogDensityGrad(x, grad []float64) float64
	// Constrained writes the values of every scalar of Vars (in order,
	// row-major within a variable) at x into out.
	Constrained(x []float64, out []float64)
	// NonFinite names the model terms (variables, explicit log-density
	// terms, Jacobians) whose log density is not finite at x, for the
	// error when no finite starting point is found.
	NonFinite(x []float64) []string
}
