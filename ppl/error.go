package ppl

import (
	"fmt"
	"strings"

	"github.com/gobayes/gobayes/ppl/internal/compile"
	"github.com/gobayes/gobayes/ppl/internal/graph"
)

// Error is a mistake in a model, found while the model is built: a shape
// mismatch, a negative scale given as data, NaN in the data, a duplicate or
// unknown name. Var names the model variable (or the expression) at fault.
//
// Builder methods cannot return errors without spoiling the notebook API,
// so, as gonum's mat does for dimension mismatches, they panic with an
// *Error; in a notebook cell the panic becomes the cell's error at the
// line that made the mistake. The model also records the first error:
// Model.Err returns it and Model.Compile refuses to compile. Library code
// that prefers an error value can recover with Catch.
type Error struct {
	Var string // the model variable, or a description of the expression
	Msg string // what is wrong and what to do
}

func (e *Error) Error() string {
	if e.Var == "" {
		return "ppl: " + e.Msg
	}
	return fmt.Sprintf("ppl: %s: %s", e.Var, e.Msg)
}

// Catch recovers a panic carrying an *Error into *err; other panics go on.
// Use it as
//
//	func build() (m *ppl.Model, err error) {
//		defer ppl.Catch(&err)
//		m = ppl.NewModel("demo")
//		...
//	}
func Catch(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if e, ok := r.(*Error); ok {
		*err = e
		return
	}
	panic(r)
}

// fail records e as g's first mistake (g is nil for an expression of
// constants only) and panics with it.
func fail(g *graph.Model, e *Error) {
	if g != nil && g.Err == nil {
		g.Err = e
	}
	panic(e)
}

// failf is fail with a formatted message.
func failf(g *graph.Model, name, format string, args ...any) {
	fail(g, &Error{Var: name, Msg: fmt.Sprintf(format, args...)})
}

// fail records e in m (the first error sticks) and panics with it.
func (m *Model) fail(e *Error) { fail(&m.g, e) }

// failf is fail with a formatted message.
func (m *Model) failf(name, format string, args ...any) { failf(&m.g, name, format, args...) }

// exprLabel describes an expression for an error: the function and the
// names of its random-variable operands, "Add(mu, theta_tilde)".
func exprLabel(fn string, args ...*graph.Node) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.String()
	}
	return fn + "(" + strings.Join(parts, ", ") + ")"
}

// fromCompile gives the compiler's *compile.Error as this package's
// *Error (the same fields); other errors pass unchanged.
func fromCompile(err error) error {
	if e, ok := err.(*compile.Error); ok {
		return (*Error)(e)
	}
	return err
}
