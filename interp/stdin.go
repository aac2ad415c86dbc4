package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
	"unicode/utf8"
)

// InputEvents is the Events of a client that can ask the person running a
// cell for a line of text (Jupyter's input_request). A cell that reads
// os.Stdin, or calls fmt.Scan, fmt.Scanln or fmt.Scanf, waits for it.
// Events that do not implement it refuse input (see ErrNoInput).
type InputEvents interface {
	Events
	// Input asks for one line of text, shown after prompt; with password
	// the client hides what is typed. It returns the line without its
	// newline, an error wrapping ErrNoInput when the request that runs the
	// cell does not allow input, or ctx's error when the cell is
	// interrupted while it waits.
	Input(ctx context.Context, prompt string, password bool) (string, error)
}

// ErrNoInput is Input's answer when nobody can type: the client did not
// allow input (allow_stdin false, as nbclient, nbconvert and papermill
// send) or nothing is running a cell.
var ErrNoInput = errors.New("interp: the client does not allow input requests")

// errNoInputRead is what a cell's read of standard input returns when no
// input can come. It wraps io.EOF, so that code which tests
// errors.Is(err, io.EOF) sees the end of its input, and says why.
var errNoInputRead = fmt.Errorf("interp: no input: this client does not allow input requests (allow_stdin is false, as in nbclient and nbconvert); put the input in a variable instead of reading standard input: %w", io.EOF)

// noInputNotice is shown once per cell on stderr when a read is refused,
// so that a cell ignoring the read's error still learns why it got nothing.
const noInputNotice = "interp: this cell read standard input, but the client does not allow input requests (allow_stdin is false, as in nbclient and nbconvert); the read returned an error. Put the input in a variable instead.\n"

// errReadAfterCell is a read of standard input by a goroutine that
// outlived its cell: no client is asked for it.
var errReadAfterCell = fmt.Errorf("interp: standard input was read after its cell ended (by a goroutine the cell started); only a running cell can ask for input: %w", io.EOF)

// errInputInterrupted is a read's error when the cell was interrupted
// while it waited for input.
var errInputInterrupted = errors.New("interp: the cell was interrupted while it waited for input")

// interruptWait is how long a read whose wait was interrupted waits for
// the interruption of its cell.
const interruptWait = 5 * time.Second

// cellInput is the interpreter's standard input (os.Stdin in cells, and
// what fmt.Scan reads). A read with nothing left asks the running cell's
// client for a line; the line and its newline are then read by as many
// reads as take them. It is an io.RuneScanner so that fmt's scanning
// functions read no further than they need. What one cell typed and did
// not read is dropped when the next cell starts.
type cellInput struct {
	out *output // its unfinished last line of stdout becomes the prompt

	reading sync.Mutex // one request for input at a time

	mu       sync.Mutex // guards the fields below
	ctx      context.Context
	cancel   context.CancelFunc
	ev       Events
	line     []byte // the last line typed, with its newline
	pos      int    // how much of line has been read
	lastRune int    // size of the rune ReadRune returned last, for UnreadRune; 0 none
	refused  bool   // noInputNotice was shown in this cell
	cell     uint64 // counts begin calls: which cell a read belongs to
}

// begin gives the input to a cell running under ctx with events ev.
func (c *cellInput) begin(ctx context.Context, ev Events) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ctx, c.cancel = context.WithCancel(ctx)
	c.ev = ev
	c.line, c.pos, c.lastRune, c.refused = nil, 0, 0, false
	c.cell++
}

// end takes the input from the cell that ran: a read still waiting (in a
// goroutine the cell left behind) ends.
func (c *cellInput) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancel != nil {
		c.cancel()
	}
	c.ctx, c.cancel, c.ev = nil, nil, nil
	c.line, c.pos, c.lastRune = nil, 0, 0
	c.cell++
}

// fill makes sure there is something to read, asking the client for a
// line when everything typed has been read.
func (c *cellInput) fill() error {
	c.reading.Lock()
	defer c.reading.Unlock()
	c.mu.Lock()
	if c.pos < len(c.line) {
		c.mu.Unlock()
		return nil
	}
	ctx, ev, cell := c.ctx, c.ev, c.cell
	c.mu.Unlock()
	if ev == nil {
		return errReadAfterCell
	}
	in, ok := ev.(InputEvents)
	if !ok {
		return c.refuse(cell)
	}
	text, err := in.Input(ctx, c.out.takePrompt(), false)
	switch {
	case errors.Is(err, ErrNoInput):
		return c.refuse(cell)
	case err != nil && (ctx.Err() != nil || errors.Is(err, context.Canceled)):
		// In a worker process the client's answer that the wait was
		// interrupted can come before the interruption of the cell
		// itself: wait for it, so that the cell stops here rather than
		// run on past the read (interruptWait bounds the wait, should
		// the interruption never come).
		select {
		case <-ctx.Done():
		case <-time.After(interruptWait):
		}
		return errInputInterrupted
	case err != nil:
		return fmt.Errorf("interp: reading standard input: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cell != cell {
		return errReadAfterCell // the cell ended while its client answered
	}
	c.line, c.pos, c.lastRune = append([]byte(text), '\n'), 0, 0
	return nil
}

// refuse is a read of cell number cell without a client to answer it.
func (c *cellInput) refuse(cell uint64) error {
	c.out.flush()
	c.mu.Lock()
	first := !c.refused && c.cell == cell
	c.refused = true
	c.mu.Unlock()
	if first {
		c.out.write("stderr", []byte(noInputNotice))
	}
	return errNoInputRead
}

// Read implements io.Reader.
func (c *cellInput) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if err := c.fill(); err != nil {
		return 0, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n := copy(p, c.line[c.pos:])
	c.pos += n
	c.lastRune = 0
	return n, nil
}

// ReadRune implements io.RuneReader.
func (c *cellInput) ReadRune() (rune, int, error) {
	if err := c.fill(); err != nil {
		return 0, 0, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	r, size := utf8.DecodeRune(c.line[c.pos:])
	c.pos += size
	c.lastRune = size
	return r, size, nil
}

// UnreadRune implements io.RuneScanner.
func (c *cellInput) UnreadRune() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lastRune == 0 {
		return errors.New("interp: UnreadRune of standard input without a ReadRune before it")
	}
	c.pos -= c.lastRune
	c.lastRune = 0
	return nil
}
