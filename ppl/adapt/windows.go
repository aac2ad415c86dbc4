package adapt

// Windows is Stan's warm-up schedule: an initial fast buffer where only the
// step size adapts, slow windows doubling in length where the metric is
// estimated, and a terminal fast buffer.
type Windows struct {
	NumWarmup                          int
	InitBuffer, TermBuffer, BaseWindow int

	counter, windowSize, nextWindow int
}

// Stan's schedule: the initial fast buffer, the terminal one and the first
// slow window, in iterations.
const (
	StanInitBuffer = 75
	StanTermBuffer = 50
	StanBaseWindow = 25
)

// StanWindows is the schedule for numWarmup iterations with Stan's buffers
// and first window.
func StanWindows(numWarmup int) *Windows {
	return NewWindows(numWarmup, StanInitBuffer, StanTermBuffer, StanBaseWindow)
}

// NewWindows returns the schedule for numWarmup iterations with Stan's
// buffers (75, 50) and first window (25), shrunk to 15%/75%/10% of the
// warm-up when they do not fit, as Stan does.
func NewWindows(numWarmup, initBuffer, termBuffer, baseWindow int) *Windows {
	w := &Windows{NumWarmup: numWarmup, InitBuffer: initBuffer, TermBuffer: termBuffer, BaseWindow: baseWindow}
	if numWarmup >= 20 && initBuffer+baseWindow+termBuffer > numWarmup {
		w.InitBuffer = int(0.15 * float64(numWarmup))
		w.TermBuffer = int(0.1 * float64(numWarmup))
		w.BaseWindow = numWarmup - (w.InitBuffer + w.TermBuffer)
	}
	w.restart()
	return w
}

func (w *Windows) restart() {
	w.counter = 0
	w.windowSize = w.BaseWindow
	w.nextWindow = w.InitBuffer + w.windowSize - 1
}

// Enabled reports whether the metric adapts at all (Stan needs 20 warm-up
// iterations).
func (w *Windows) Enabled() bool { return w.NumWarmup >= 20 }

// InWindow reports whether the current iteration falls in a slow window.
func (w *Windows) InWindow() bool {
	return w.counter >= w.InitBuffer && w.counter < w.NumWarmup-w.TermBuffer && w.counter != w.NumWarmup
}

// EndOfWindow reports whether the current iteration ends a slow window.
func (w *Windows) EndOfWindow() bool {
	return w.counter == w.nextWindow && w.counter != w.NumWarmup
}

func (w *Windows) computeNextWindow() {
	last := w.NumWarmup - w.TermBuffer - 1
	if w.nextWindow == last {
		return
	}
	w.windowSize *= 2
	w.nextWindow = w.counter + w.windowSize
	if w.nextWindow != last {
		if w.nextWindow+2*w.windowSize >= w.NumWarmup-w.TermBuffer {
			w.nextWindow = last
		}
	}
}

// advance moves to the next iteration.
func (w *Windows) advance() { w.counter++ }

// Slow lists the slow windows as [start, end) ranges of iterations
// (0-based), in order: what a sampler that adapts between blocks of
// iterations, not one iteration at a time, needs of the schedule. None
// when the metric does not adapt (Enabled).
func (w Windows) Slow() [][2]int {
	if !w.Enabled() {
		return nil
	}
	w.restart()
	var out [][2]int
	start := w.InitBuffer
	for ; w.counter < w.NumWarmup; w.advance() {
		if w.EndOfWindow() {
			out = append(out, [2]int{start, w.counter + 1})
			start = w.counter + 1
			w.computeNextWindow()
		}
	}
	return out
}
