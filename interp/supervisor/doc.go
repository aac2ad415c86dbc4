// Package supervisor runs an interp.Session in a child process and relays
// to it, so that a cell that panics in a goroutine, hits a fatal runtime
// error or exhausts memory ends with an error instead of taking the kernel
// down.
//
// The child is the same binary, entered through WorkerMain; New starts it
// and returns an interp.Engine:
//
//	// main, for the "worker" command:
//	os.Exit(supervisor.WorkerMain())
//
//	// the kernel:
//	eng, err := supervisor.New(supervisor.Options{Command: []string{exe, "worker"}})
//	res := eng.Execute(ctx, "x := 1\nx + 1", events) // res.Value: text/plain "2"
//
// When the child dies, the cell running in it ends with an
// InterpreterCrashed error saying why (the panic, or out of memory), and a
// fresh child serves the next request; a crash between cells is told with
// the next cell's output. An interrupt that the cell does not heed within
// two seconds (it is blocked in compiled code) kills the child. The
// supervisor and the worker talk in JSON lines over two pipes the worker
// inherits (wire.go), so a cell writing to standard output cannot corrupt
// the protocol; what compiled code writes to the child's own stdout and
// stderr reaches the running cell. A cell's reads of standard input are
// relayed to the client through the supervisor's Events, and so are comm
// messages both ways: a cell's (a widget's comm_open and updates) to the
// supervisor's CommEvents, a client's to the session's handlers (opComm),
// with the id of the client's request that an Output widget captures by.
// What a goroutine prints or displays after its cell has ended reaches the
// Events of the latest request that had any (the latest cell), as in
// IPython; the kernel decides how to publish it.
//
// A single request larger than the limit allows (make, append, new of an
// array, a gonum matrix: see interp.Options.MemoryLimit, which the worker
// sets) is refused before it is made, with a MemoryLimit error naming its
// size and the limit; the session keeps its state.
//
// A cell whose heap passes 75% of the memory limit is stopped by a guard
// in the worker (it polls the heap every 20 ms) with a MemoryLimit error
// that says how much it held: the session keeps its state, where reaching
// the limit would end the interpreter. The guard polls, so a loop that
// allocates fast could pass it between two looks; the session's checks
// therefore also sum a cell's small makes and appends and look at the heap
// every 1/64 of the limit, stopping such a loop where it allocates, however
// fast (interp/alloc.go). What compiled code allocates on its own is seen
// by the guard only, and an allocation too sudden for it still meets the
// limit below.
//
// The worker's memory is capped (Options.MemoryLimit, or
// GOBAYES_MEMORY_LIMIT, which a kernelspec's env sets; default half the
// memory the kernel can see: the machine's, or its cgroup's or
// JupyterHub's MEM_LIMIT where that is less) with the garbage
// collector's limit and RLIMIT_AS, so a runaway allocation ends as an "out
// of memory" crash of the cell, not in the system's OOM killer.
//
// Processes, pipes and rlimits are no part of interpreting a cell, so they
// live here and not in package interp: the supervisor uses only interp's
// exported API (NewSession, Engine, IsComplete, PreloadDocs), and interp
// knows nothing of it.
package supervisor
