// Package rewrite turns the text of a notebook cell into the sources the
// yaegi interpreter evaluates. It works on text alone, with go/scanner and
// go/parser: it knows nothing of yaegi's state, of the session (package
// interp, which calls it) or of the kernel.
//
// Runs cuts a cell into runs of imports, declarations and statements (yaegi
// parses a source that starts with a declaration as declarations only).
// Run.Source and Item.Source place a run, or one statement, at its line and
// column in the cell after one line for yaegi's wrapper, so that a position
// yaegi reports maps back to the cell by one line:
//
//	for _, r := range rewrite.Runs(cell) {
//		src := r.Source(cell) // for statements: at.Source(cell) for each at in r.Items
//	}
//
// Forms yaegi v0.16 mishandles at the top level of a cell are rewritten
// into forms it runs, lines and columns kept: CommaOk (v, ok := m[k] and
// v, ok := x.(T)), WrapInFunc (a compound statement yaegi cannot compile
// there, such as a type switch, as a function literal called at once) and
// GuardCompositeLits (a composite literal among several assigned values,
// which yaegi would let zero the others). CheckSupported refuses what no
// rewrite fixes (defer at the top level, range over an integer) with what
// to write instead. IsComplete answers Jupyter's is_complete_request for Go
// code.
//
// These are the parts of the interpreter that need no interpreter, so they
// are a package of their own: pure functions of the cell's text. Its tests
// call them directly; those of GuardCompositeLits also run its forms in
// plain yaegi and through a session.
package rewrite
