package interp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
)

// flushDelay bounds how long printed text waits before it is streamed:
// short enough to look live, long enough to batch a loop's many Println
// calls into a few messages.
const flushDelay = 20 * time.Millisecond

// flushSize is the buffered amount that is streamed at once.
const flushSize = 8 << 10

// streamChunk bounds one stream message: a large write (a 300 MiB string
// printed at once) goes out in pieces of at most this size, so that no
// process on its way to the client (the worker, the kernel) holds it whole.
const streamChunk = 64 << 10

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
	for len(p) > 0 {
		n := min(len(p), streamChunk-len(o.pending))
		o.pending = append(o.pending, p[:n]...)
		p = p[n:]
		if len(o.pending) >= flushSize {
			o.flushWhole()
		}
	}
	if len(o.pending) > 0 && o.timer == nil {
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

// flushWhole streams the pending text but an incomplete UTF-8 sequence
// at its end, which the next write completes: a chunk cut inside a
// character would reach the client as two replacement characters.
func (o *output) flushWhole() {
	cut := len(o.pending)
	for i := len(o.pending) - 1; i >= 0 && i >= len(o.pending)-utf8.UTFMax; i-- {
		if utf8.RuneStart(o.pending[i]) {
			if !utf8.FullRune(o.pending[i:]) {
				cut = i
			}
			break
		}
	}
	if cut == 0 {
		return
	}
	rest := len(o.pending) - cut
	var tail [utf8.UTFMax]byte
	copy(tail[:], o.pending[cut:])
	o.pending = o.pending[:cut]
	o.flushLocked()
	o.pending = append(o.pending, tail[:rest]...)
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

// OutputLimitEnv is the environment variable that bounds what one cell may
// print and display (bytes of stream text and display data): bytes or a
// number with a unit (4MiB, 64MiB). A kernelspec sets it in its "env"
// (gobayes install --output-limit 64MiB). The kernel stops passing a
// cell's output on past it, with a notice, as Notebook's iopub data-rate
// limit does; the cell keeps running.
const OutputLimitEnv = "GOBAYES_OUTPUT_LIMIT"

// DefaultOutputLimit is the output limit when OutputLimitEnv is unset:
// far more than a person reads, less than a browser tab stays usable with.
const DefaultOutputLimit = 16 << 20

// OutputLimitFromEnv parses a GOBAYES_OUTPUT_LIMIT value; "" gives
// DefaultOutputLimit.
func OutputLimitFromEnv(v string) (int64, error) {
	if strings.TrimSpace(v) == "" {
		return DefaultOutputLimit, nil
	}
	n, ok := ParseBytes(v)
	if !ok {
		return 0, fmt.Errorf("interp: %s=%q is not a size; write bytes, 4MiB or 64MiB", OutputLimitEnv, v)
	}
	return n, nil
}

// BundleSize is about the bytes a display's data takes on the wire: what
// the output limit counts of it.
func BundleSize(b display.Bundle) int64 {
	var n int64
	for mime, v := range b.Data {
		n += int64(len(mime))
		switch x := v.(type) {
		case string:
			n += int64(len(x))
		case []byte:
			n += int64(len(x))
		default:
			raw, _ := json.Marshal(x)
			n += int64(len(raw))
		}
	}
	return n
}

// TooLargeToShow is the bundle shown instead of a display or value of
// size bytes, more than the output limit lets through at once.
func TooLargeToShow(size, limit int64) display.Bundle {
	msg := fmt.Sprintf("[gobayes] not shown: this output is %s, more than the output limit of %s; show a part of it, or raise the limit (%s in the kernelspec's env)",
		FormatBytes(uint64(size)), FormatBytes(uint64(limit)), OutputLimitEnv)
	return display.Bundle{Data: map[string]any{display.MIMEText: msg}, Metadata: map[string]any{}}
}

// connected reports whether a cell's Events were ever attached: rich
// output then reaches a notebook (ppl's live tables are worth making).
func (o *output) connected() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ev != nil
}
