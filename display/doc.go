// Package display turns Go values into Jupyter MIME bundles and publishes
// rich output (HTML, Markdown, images, JSON, updatable displays) from a
// notebook cell.
//
// A type renders itself richly by implementing one of the small interfaces
// HTMLer, Markdowner, SVGer, PNGer, JSONer or Bundler; the kernel calls
// RenderStrict on the value of a cell's final expression. A value that
// cannot be shown — a failing PNG method, or an Err method (Failer)
// reporting the bad input it was made from — fails the cell with that
// error, and Show writes it to the cell's standard error. Cells (and compiled libraries)
// publish output at once with HTML, Markdown, PNG, SVG, JSON, Image and Show,
// clear it with Clear, and keep one updatable display with NewHandle:
//
//	h := display.NewHandle()
//	for i := 0; i <= 100; i += 10 {
//		h.Update(display.HTMLBundle(fmt.Sprintf("<progress value=%d max=100></progress>", i)))
//	}
//
// What a caller is given goes where it says: an Output (To(p)) is one
// destination, and its Publish, Notice and NewHandle publish there. The
// notebook's interpreter hands its session's Output to what it connects
// (ppl's live progress tables and notices), so two sessions in one process
// publish apart. The package-level functions (HTML, Show, NewHandle, …)
// go to the process-wide Publisher the kernel sets while a cell runs; with
// none (a plain Go program) the text/plain form is printed to standard
// output. That one stays process-wide by choice: a cell's code and the
// compiled libraries it calls (widgets, whose Interact captures a
// callback's output by setting another Publisher for its duration)
// publish without a value to pass, and a kernel process serves one
// notebook. The running cell's context is not display's: the interpreter
// owns it and gives it to ppl through its session's hooks.
//
// display imports only the standard library, so any package can implement
// its interfaces without knowing about the kernel; it is a leaf (no ppl,
// accel or kernel package: internal/layers checks it).
package display
