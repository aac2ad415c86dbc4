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
// line that made the mistake. A builder call is a transaction: one that
// fails leaves the model exactly as it was before the call (no name
// claimed, no variable half added), so the mistake belongs to the cell,
// and the model goes on compiling and sampling as before; the corrected
// call can be run again. Library code that prefers an error value can
// recover with Catch.
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

// failf panics with an *Error: a mistake in an expression of g's
// variables (g, nil for constants alone, is kept for the callers' sake:
// an expression changes no model).
func failf(_ *graph.Model, name, format string, args ...any) {
	panic(&Error{Var: name, Msg: fmt.Sprintf(format, args...)})
}

// fail panics with e: a mistake in a builder call of m, which the
// call's deferred undo takes back out of the model.
func (m *Model) fail(e *Error) { panic(e) }

// failf is fail with a formatted message.
func (m *Model) failf(name, format string, args ...any) {
	m.fail(&Error{Var: name, Msg: fmt.Sprintf(format, args...)})
}

// mark is the model's state before a builder call: the lengths of its
// lists of variables, deterministic quantities, terms and claimed names.
type mark struct{ rvs, dets, terms, data, names int }

func (m *Model) mark() mark {
	return mark{len(m.g.RVs), len(m.g.Dets), len(m.g.Terms), len(m.g.Data), len(m.claimed)}
}

// undo, deferred by each builder method as defer m.undo(m.mark()), puts
// the model back to k when the method fails with an *Error (and panics
// on with it); other panics pass untouched.
func (m *Model) undo(k mark) {
	r := recover()
	if r == nil {
		return
	}
	if _, ok := r.(*Error); ok {
		m.g.RVs, m.g.Dets, m.g.Terms, m.g.Data = m.g.RVs[:k.rvs], m.g.Dets[:k.dets], m.g.Terms[:k.terms], m.g.Data[:k.data]
		for _, name := range m.claimed[k.names:] {
			delete(m.names, name)
			delete(m.defined, name)
		}
		m.claimed = m.claimed[:k.names]
		m.changed()
	}
	panic(r)
}

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
