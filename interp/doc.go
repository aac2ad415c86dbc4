// Package interp runs notebook cells of Go with the yaegi interpreter,
// keeping variables, functions, types and imports from cell to cell.
//
// The kernel drives an Engine. NewSession gives one in this process;
// NewSupervised gives one whose interpreter runs in a child process (the
// same binary, entered through WorkerMain) so that a cell that panics in a
// goroutine, exits or exhausts memory ends with an error instead of taking
// the kernel down:
//
//	eng, err := interp.NewSupervised(interp.SupervisedOptions{Command: []string{exe, "worker"}})
//	res := eng.Execute(ctx, "x := 1\nx + 1", events) // res.Value: text/plain "2"
//
// A cell is split into runs of imports, declarations and statements
// (yaegi parses a source that starts with a declaration as declarations
// only) which are evaluated in order; the value of a final expression is
// the cell's result, rendered by package display. Errors carry cell
// positions ("cell:LINE:COL"). Magics: %help, %doc NAME (or NAME?), %time,
// %reset.
package interp
