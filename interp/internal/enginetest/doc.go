// Package enginetest checks an interp.Engine: it runs cells and compares
// what they produce with what the Go specification says they compute, and
// holds the tests every engine must pass, whatever runs the interpreter.
//
// Package interp runs the suite against its in-process Session and
// interp/supervisor against Supervised (a Session in a child process):
//
//	func TestCellReadsTypedInput(t *testing.T) {
//		enginetest.CellReadsTypedInput(t, newTestSession(t))
//	}
//
// RunSteps runs cells one after the other on one engine, each a Step with
// the value, output and error it must give; a Recorder is Events that keeps
// what a cell produced, in order.
package enginetest
