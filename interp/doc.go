// Package interp runs notebook cells of Go with the yaegi interpreter,
// keeping variables, functions, types and imports from cell to cell.
//
// The kernel drives an Engine. NewSession gives one in this process;
// package interp/supervisor gives one whose Session runs in a child process
// (the same binary, entered through supervisor.WorkerMain) so that a cell
// that panics in a goroutine, exits or exhausts memory ends with an error
// instead of taking the kernel down:
//
//	eng, err := interp.NewSession(interp.Options{})
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
// A cell that fails keeps its imports, wherever it stopped: in Go an
// import belongs to the whole file, so the next cell can use what the
// failed one imported.
// Magics: %help, %doc NAME (or NAME?), %time, %reset. Documentation of
// pkg.Name that pkg does not declare shows the methods called Name of
// pkg's types (%doc ppl.HalfCauchy shows the method on *ppl.Model).
//
// The interpreter is yaegi v0.16: its standard library stops at Go 1.22
// and it lacks min, max, clear, range over integers and functions, and the
// generic functions of slices and maps; such cells get an error saying
// what to write instead. Forms yaegi mishandles at a cell's top level
// (v, ok := m[k]; x.(T) with ok; type switches; function literals called
// at once; a composite literal among several assigned values) are
// rewritten into forms it runs (package interp/rewrite); defer at the top
// level is refused. A type's definition cannot change once a cell declared
// it.
//
// A cell's standard input (os.Stdin, fmt.Scan, fmt.Scanln, fmt.Scanf)
// asks the client for a line whenever everything typed has been read, when
// the cell's Events implement InputEvents (the kernel's do when the
// execute request allows stdin); the unfinished last line the cell printed
// is the prompt. Without a client to ask, a read fails at once with an
// error wrapping io.EOF that says why. An interrupt ends a waiting read.
//
// Comms (package comm) connect Go code in cells to the client's widget
// manager: while a cell runs, what it sends on a comm goes to the cell's
// Events when they implement CommEvents (the kernel's do), and Engine.Comm
// runs the handlers of a client's comm message as a cell is run, with
// output, context and request id connected to its Events (package widgets
// is built on this).
//
// Each Session owns the state its cells' models need, as values: a
// ppl.Session whose hooks give the running cell's context (an interrupt
// stops a run) and a live progress table in the cell's output, and to
// which the cells' ppl.NewModel, ppl.GLM (every function of the symbol
// tables that returns a *ppl.Model) and ppl.LastRun are bound
// (pplsession.go). Nothing of ppl's is set for the process, so two
// Sessions in one process keep their runs apart. The interpreter links
// accel/mpi, which ppl reaches by name (backends.go).
//
// What a goroutine started by a cell prints, displays or sends on a comm
// after its cell has ended goes to the Events of the latest cell (or comm
// message), as IPython sends a thread's output to the latest cell; an
// expression evaluated for user_expressions does not take it.
//
// With a memory limit (Options.MemoryLimit; a worker of package
// interp/supervisor sets its cap), a single request that would take the
// heap past three quarters of the limit — make, append growth, new of an
// array, a gonum matrix constructor — is refused before it is made, with a
// MemoryLimit error that names the size and the limit; nothing is lost.
// The check must come first: a Go allocation that fails ends the process
// with a fatal error that no recover sees, and an address-space limit
// only changes which fatal error. So cells are rewritten
// (rewrite.CheckAllocs) to pass sizes through checks in compiled code
// (alloc.go), and gonum's constructors are replaced by checking wrappers.
// Allocations inside other compiled code (a sampler's draws) are not seen
// by these checks; the worker's memory guard stops what grows step by step.
//
// A final value whose renderer fails (a figure of an unknown variable)
// fails the cell with a DisplayError carrying the renderer's message.
// os.Exit and log.Fatal stop the cell with an Exit error; the session and
// its variables stay.
//
// # Layout
//
// The interpreter is three packages, each importing only the one before
// it:
//
//   - interp/rewrite turns a cell's text into the sources yaegi evaluates:
//     splitting into runs, the rewrites of forms yaegi mishandles, the
//     refusals, and is_complete for Go. It is text only and imports
//     neither yaegi nor this package.
//   - interp, this package, is the session: the yaegi interpreter and its
//     state across cells, output and standard input while a cell runs,
//     values, errors, completion and documentation, and the magics.
//   - interp/supervisor runs a Session in a child process and relays to
//     it: the worker, the wire protocol between the two, and the worker's
//     memory cap.
//
// The magics (magic.go) stay in this package: each needs something only
// the session has (running Go code without magics, resetting inside the
// running cell, the cell's output buffer, documentation lookup), so a
// package of their own would turn those into exported API for one caller.
// They reach the session only through the small interface magicHost.
//
// Symbol tables of the compiled packages cells may import are generated in
// interp/symbols.
package interp
