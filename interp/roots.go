package interp

import (
	"go/scanner"
	"go/token"
	"reflect"
	"unsafe"

	yaegi "github.com/traefik/yaegi/interp"
)

// yaegi appends the syntax tree of everything it compiles to a list
// (Interpreter.roots) that only its debugger reads, and never drops it:
// every cell's tree, with the scopes and closures hanging from it, stayed
// reachable for the life of the session. What a later cell needs of an earlier one (its functions, types
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

// Each block yaegi compiles also pushes a scope onto its package's scope's
// list of children (scope.child), which, again, only the debugger reads;
// the scopes that code still uses are reachable from that code's nodes.

// scopeChildren is the child lists of it's package scopes (its scopes
// map); nil when this yaegi has none of the expected shape.
func scopeChildren(it *yaegi.Interpreter) []reflect.Value {
	m := reflect.ValueOf(it).Elem().FieldByName("scopes")
	if !m.IsValid() || m.Kind() != reflect.Map || m.Type().Elem().Kind() != reflect.Pointer {
		return nil
	}
	m = reflect.NewAt(m.Type(), unsafe.Pointer(m.UnsafeAddr())).Elem()
	var out []reflect.Value
	for iter := m.MapRange(); iter.Next(); {
		sc := iter.Value()
		if sc.IsNil() || sc.Elem().Kind() != reflect.Struct {
			continue
		}
		f := sc.Elem().FieldByName("child")
		if !f.IsValid() || f.Kind() != reflect.Slice {
			return nil
		}
		out = append(out, reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem())
	}
	return out
}

// releaseRoots empties yaegi's list of compiled trees and its package
// scopes' lists of children. Called with the session's cell lock held:
// only compiling appends to them.
func releaseRoots(it *yaegi.Interpreter) {
	if f := rootsField(it); f.IsValid() {
		f.Set(reflect.Zero(f.Type()))
	}
	for _, f := range scopeChildren(it) {
		f.Set(reflect.Zero(f.Type()))
	}
}

// yaegi also adds a file to its FileSet for each source it compiles (a
// cell is compiled in several runs), and keeps them all. A file is needed
// while code compiled from it can still run, to place that code's panics
// and errors: a cell with no function, method, type or go statement
// leaves nothing that runs after it, so forgetCell removes its files.

// inert reports whether code declares nothing that can run after the
// cell ends: no func (declaration or literal), no type (methods), no go.
func inert(code string) bool {
	var sc scanner.Scanner
	fs := token.NewFileSet()
	sc.Init(fs.AddFile("", -1, len(code)), []byte(code), nil, 0)
	for {
		_, tok, _ := sc.Scan()
		switch tok {
		case token.EOF:
			return true
		case token.FUNC, token.TYPE, token.GO:
			return false
		}
	}
}

// forgetCell removes from it's FileSet the files compiled since base (the
// FileSet's Base before the cell) when the cell's code is inert.
func forgetCell(it *yaegi.Interpreter, code string, base int) {
	fset := it.FileSet()
	if fset.Base() == base || !inert(code) {
		return
	}
	var added []*token.File
	fset.Iterate(func(f *token.File) bool {
		if f.Base() >= base {
			added = append(added, f)
		}
		return true
	})
	for _, f := range added {
		fset.RemoveFile(f)
	}
}
