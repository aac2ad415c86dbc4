package interp

import (
	"bytes"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
)

// flushDelay bounds how long printed text waits before it is streamed:
// short enough to look live, long enough to batch a loop's many Println
// calls into a few messages.
const flushDelay = 20 * time.Millisecond

// flushSize is the buffered amount that is streamed at once.
const flushSize = 8 << 10

// partialLineDelay is how much longer an unfinished last line of stdout
// waits before it is streamed: it may be the prompt of a read of standard
// input (fmt.Print("name? ") then fmt.Scanln), which takePrompt hands to
// the client's input box, and the statement that reads is compiled after
// the one that printed (flushDelay alone lost prompts on a busy machine).
// ipykernel streams at most every 200 ms.
const partialLineDelay = 250 * time.Millisecond

// output routes what a running cell writes (stdout, stderr, displays) to the
// cell's Events, in order: pending text is flushed before a display, and
// stdout before stderr, so the client sees what the cell did in sequence.
type output struct {
	mu      sync.Mutex
	ev      Events
	name    string // stream of the pending text
	pending []byte
	timer   *time.Timer
	held    bool         // the timer holds back an unfinished stdout line (partialLineDelay)
	frames  []panicFrame // yaegi's panic trace lines, intercepted from stderr
}

// panicFrame is one line of the trace yaegi prints while a panic unwinds.
type panicFrame struct {
	Line, Col int
	Func      string
}

// yaegiPanicLine matches what yaegi writes to stderr for each frame of an
// unwinding panic ("12:3: panic: main.f(...)").
var yaegiPanicLine = regexp.MustCompile(`^(?:_\.go:)?(\d+):(\d+): panic: (.*)\(\.\.\.\)\n?$`)

// setEvents sends what comes next to ev and returns the Events it
// replaced.
func (o *output) setEvents(ev Events) (previous Events) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
	previous, o.ev = o.ev, ev
	o.frames = nil
	return previous
}

func (o *output) takeFrames() []panicFrame {
	o.mu.Lock()
	defer o.mu.Unlock()
	f := o.frames
	o.frames = nil
	return f
}

func (o *output) write(name string, p []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if name == "stderr" {
		if m := yaegiPanicLine.FindSubmatch(p); m != nil {
			line, _ := strconv.Atoi(string(m[1]))
			col, _ := strconv.Atoi(string(m[2]))
			o.frames = append(o.frames, panicFrame{Line: line, Col: col, Func: string(m[3])})
			return
		}
	}
	if o.name != name {
		o.flushLocked()
		o.name = name
	}
	o.pending = append(o.pending, p...)
	if len(o.pending) >= flushSize {
		o.flushLocked()
		return
	}
	if o.timer == nil {
		o.timer = time.AfterFunc(flushDelay, o.flushLater)
	}
}

func (o *output) flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
}

// flushLater is the timer's flush: it streams the pending text but the
// unfinished last line of stdout, which waits partialLineDelay more (once)
// in case it is a prompt.
func (o *output) flushLater() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.name == "stdout" && !o.held && len(o.pending) > 0 && o.pending[len(o.pending)-1] != '\n' {
		i := bytes.LastIndexByte(o.pending, '\n')
		if i >= 0 && o.ev != nil {
			o.ev.Stream(o.name, string(o.pending[:i+1]))
		}
		o.pending = append(o.pending[:0], o.pending[i+1:]...)
		o.held = true
		o.timer = time.AfterFunc(partialLineDelay, o.flushLater)
		return
	}
	o.flushLocked()
}

func (o *output) flushLocked() {
	o.held = false
	if o.timer != nil {
		o.timer.Stop()
		o.timer = nil
	}
	if len(o.pending) == 0 {
		return
	}
	text := string(o.pending)
	o.pending = o.pending[:0]
	if o.ev != nil {
		o.ev.Stream(o.name, text)
	}
}

// takePrompt flushes what the cell printed, except an unfinished last line
// of stdout, which it returns instead: the prompt of a read of standard
// input (fmt.Print("name? ") then fmt.Scanln(&name)), which the client
// shows beside the input box.
func (o *output) takePrompt() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	prompt := ""
	if o.name == "stdout" {
		i := bytes.LastIndexByte(o.pending, '\n')
		prompt = string(o.pending[i+1:])
		o.pending = o.pending[:i+1]
	}
	o.flushLocked()
	return prompt
}

// Display implements display.Publisher for the running cell.
func (o *output) Display(b display.Bundle, id string, update bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
	if o.ev != nil {
		o.ev.Display(b, id, update)
	}
}

// Clear implements display.Publisher for the running cell.
func (o *output) Clear(wait bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
	if o.ev != nil {
		o.ev.Clear(wait)
	}
}

// SendComm implements comm.Sender for the running cell: pending text is
// flushed first, so that an Output widget's msg_id changes after the text
// printed while it captured.
func (o *output) SendComm(m comm.Message) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
	if ce, ok := o.ev.(CommEvents); ok {
		ce.Comm(m)
	}
}

// Stream implements display.Streamer: text for the cell's stdout or
// stderr, in order with what the cell prints.
func (o *output) Stream(name, text string) { o.write(name, []byte(text)) }

// streamWriter is the io.Writer yaegi gets as Stdout or Stderr.
type streamWriter struct {
	o    *output
	name string
}

func (w streamWriter) Write(p []byte) (int, error) {
	w.o.write(w.name, p)
	return len(p), nil
}
