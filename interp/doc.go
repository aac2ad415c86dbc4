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
// only). Names a cell uses but nothing defines stop the cell before any of
// it runs; otherwise declarations are evaluated, and statements compiled
// and run, one at a time, so a panic names its line. The value of a final
// expression is the cell's result, rendered by package display (gonum
// matrices as tables, types defined in cells through their HTML, Markdown,
// SVG and String methods). Errors carry cell positions ("cell:LINE:COL").
// Magics: %help, %doc NAME (or NAME?), %time, %reset.
//
// The interpreter is yaegi v0.16: its standard library stops at Go 1.22
// and it lacks min, max, clear, range over integers and functions, and the
// generic functions of slices and maps; such cells get an error saying
// what to write instead. Forms yaegi mishandles at a cell's top level
// (v, ok := m[k]; x.(T) with ok; type switches; function literals called
// at once) are rewritten into forms it runs; defer at the top level is
// refused. A composite literal among several assigned values
// (a, b := 1.0, []float64{2}), which yaegi would let zero the others, is
// put in parentheses wherever it appears. A type's definition cannot
// change once a cell declared it.
//
// A cell's standard input (os.Stdin, fmt.Scan, fmt.Scanln, fmt.Scanf)
// asks the client for a line whenever everything typed has been read, when
// the cell's Events implement InputEvents (the kernel's do when the
// execute request allows stdin); the unfinished last line the cell printed
// is the prompt. Without a client to ask, a read fails at once with an
// error wrapping io.EOF that says why. An interrupt ends a waiting read.
// NewSupervised's worker relays the requests through its supervisor.
//
// A final value whose renderer fails (a figure of an unknown variable)
// fails the cell with a DisplayError carrying the renderer's message.
// os.Exit and log.Fatal stop the cell with an Exit error; the session and
// its variables stay.
//
// The worker's memory is capped (SupervisedOptions.MemoryLimit, or
// GOBAYES_MEMORY_LIMIT, default half the machine's memory) with the
// garbage collector's limit and RLIMIT_AS, so a runaway allocation ends as
// an "out of memory" crash of the cell, not in the system's OOM killer.
// Symbol tables of the compiled packages cells may import are generated in
// interp/symbols.
package interp
