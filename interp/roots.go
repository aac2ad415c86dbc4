package interp

import (
	"reflect"
	"unsafe"

	yaegi "github.com/traefik/yaegi/interp"
)

// yaegi appends the syntax tree of everything it compiles to a list
// (Interpreter.roots) that only its debugger reads, and never drops it:
// every cell's tree, with the scopes and closures hanging from it, stayed
// reachable for the life of the session (most of the worker's ~3.6 KB a
// cell). What a later cell needs of an earlier one (its functions, types
// and variables) is reachable from the interpreter's scopes and frames,
// not from this list, so the session empties it after each cell.
//
// The field is unexported; rootsField finds it by name and type, and
// TestYaegiRootsAreReleased fails when a yaegi upgrade renames or retypes
// it, rather than the session quietly growing again.

// rootsField is the roots field of it, or an invalid Value when this
// yaegi has none of the expected shape.
func rootsField(it *yaegi.Interpreter) reflect.Value {
	f := reflect.ValueOf(it).Elem().FieldByName("roots")
	if !f.IsValid() || f.Kind() != reflect.Slice || f.Type().Elem().Kind() != reflect.Pointer {
		return reflect.Value{}
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// releaseRoots empties yaegi's list of compiled trees. Called with the
// session's cell lock held: only compiling appends to it.
func releaseRoots(it *yaegi.Interpreter) {
	if f := rootsField(it); f.IsValid() {
		f.Set(reflect.Zero(f.Type()))
	}
}
