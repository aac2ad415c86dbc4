package compile

import "fmt"

// Error is a mistake found while compiling, naming the model variable at
// fault. It has the fields of *ppl.Error, which package ppl converts it
// to.
type Error struct {
	Var string // the model variable, or the model's name
	Msg string // what is wrong and what to do
}

func (e *Error) Error() string {
	if e.Var == "" {
		return "ppl: " + e.Msg
	}
	return fmt.Sprintf("ppl: %s: %s", e.Var, e.Msg)
}

// failf panics with an *Error; the exported functions recover it (catch).
func failf(name, format string, args ...any) {
	panic(&Error{Var: name, Msg: fmt.Sprintf(format, args...)})
}

// catch recovers a panic carrying an *Error into *err; other panics go on.
func catch(err *error) {
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
