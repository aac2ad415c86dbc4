package interp

import (
	"fmt"
	"log"
	"reflect"
	"strconv"

	yaegi "github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// A cell must not end the kernel's process. yaegi already turns os.Exit
// and log.Fatal into panics, but log.Fatal's is indistinguishable from
// log.Panic's; these replacements panic with values the session
// recognises, so the error says plainly that the cell asked to exit.

// exitCall is the panic value of os.Exit called by a cell.
type exitCall struct{ code int }

func (e exitCall) Error() string { return "os.Exit(" + strconv.Itoa(e.code) + ") was called" }

// fatalCall is the panic value of log.Fatal (Fatalf, Fatalln) called by a
// cell, after the message was logged.
type fatalCall struct{ fn, msg string }

func (e fatalCall) Error() string { return fmt.Sprintf("%s was called with %q", e.fn, e.msg) }

// exitSymbols replaces os.Exit and log's Fatal functions in it, which
// must already have the standard library. The log functions write through
// the interpreter's standard logger, so log.SetOutput, SetFlags and
// SetPrefix of a cell still apply.
func exitSymbols(it *yaegi.Interpreter) yaegi.Exports {
	output, _ := it.Symbols("log")["log"]["Output"].Interface().(func(int, string) error)
	fatal := func(fn, msg string) {
		if output != nil {
			_ = output(3, msg)
		}
		for len(msg) > 0 && msg[len(msg)-1] == '\n' {
			msg = msg[:len(msg)-1]
		}
		panic(fatalCall{fn, msg})
	}
	fatalFn := func(v ...any) { fatal("log.Fatal", fmt.Sprint(v...)) }
	fatalfFn := func(format string, v ...any) { fatal("log.Fatalf", fmt.Sprintf(format, v...)) }
	fatallnFn := func(v ...any) { fatal("log.Fatalln", fmt.Sprintln(v...)) }
	exitFn := func(code int) { panic(exitCall{code}) }
	exports := yaegi.Exports{
		"os/os": {"Exit": reflect.ValueOf(exitFn)},
		"log/log": {
			"Fatal":   reflect.ValueOf(fatalFn),
			"Fatalf":  reflect.ValueOf(fatalfFn),
			"Fatalln": reflect.ValueOf(fatallnFn),
		},
	}
	// Arguments of cell types reach these functions through the same
	// wrappers (their String and Error methods) as log.Print's do.
	if mt, ok := stdlib.Symbols["."]["MapTypes"].Interface().(map[reflect.Value][]reflect.Type); ok {
		exports["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(map[reflect.Value][]reflect.Type{
			exports["log/log"]["Fatal"]:   mt[reflect.ValueOf(log.Fatal)],
			exports["log/log"]["Fatalf"]:  mt[reflect.ValueOf(log.Fatalf)],
			exports["log/log"]["Fatalln"]: mt[reflect.ValueOf(log.Fatalln)],
		})}
	}
	return exports
}

// exitError is the cell's error when its code called os.Exit or log.Fatal:
// the cell stopped there, and the session, unlike a Go program, goes on.
func exitError(cell string, value any, line, col int) (*Error, bool) {
	var msg string
	switch v := value.(type) {
	case exitCall:
		msg = v.Error()
	case fatalCall:
		msg = v.Error()
	default:
		return nil, false
	}
	msg += ": the cell was stopped; your variables are kept"
	e := &Error{Name: "Exit", Value: fmt.Sprintf("%s (cell:%d:%d)", msg, line, col)}
	e.Traceback = append([]string{"\x1b[0;31m" + msg + "\x1b[0m", fmt.Sprintf("  in the cell at cell:%d:%d", line, col)}, quoteLine(cell, line, col)...)
	return e, true
}
