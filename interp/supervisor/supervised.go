package supervisor

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp"
)

// MemoryLimitEnv is the environment variable that sets the interpreter's
// memory limit when Options.MemoryLimit is 0: bytes, or a number
// with a unit (512MiB, 4GiB, 4G), or a share of the usable memory (25%).
// A kernelspec sets it in its "env" (gobayes install --memory-limit 4GiB).
const MemoryLimitEnv = "GOBAYES_MEMORY_LIMIT"

// defaultMemoryShare is the share of the usable memory (usableMemory) the
// interpreter may use when nothing else is configured.
const defaultMemoryShare = 0.5

// hubMemoryEnv is where JupyterHub's spawners put a single-user server's
// memory limit in bytes (Spawner.mem_limit); its kernels inherit it.
const hubMemoryEnv = "MEM_LIMIT"

// usableMemory is the memory this kernel may use: the machine's (phys),
// or less where a container's cgroup limit or JupyterHub's MEM_LIMIT (hub)
// allows less; 0 for phys and cgroup means unknown or none. With nothing
// known it is 8 GiB.
func usableMemory(phys, cgroup int64, hub string) int64 {
	m := phys
	if m <= 0 {
		m = 8 << 30
	}
	if cgroup > 0 && cgroup < m {
		m = cgroup
	}
	if h, err := strconv.ParseInt(strings.TrimSpace(hub), 10, 64); err == nil && h > 0 && h < m {
		m = h
	}
	return m
}

// interruptGrace is how long an interrupted cell may take to stop before
// the worker is killed and restarted (a cell blocked in compiled code does
// not see the interrupt).
const interruptGrace = 2 * time.Second

// Options configures New.
type Options struct {
	// Command starts the worker, which must call WorkerMain (for the gobayes
	// binary: its path and "worker").
	Command []string
	// MemoryLimit caps the worker's memory in bytes; 0 means the
	// GOBAYES_MEMORY_LIMIT environment variable, or half the usable memory:
	// the machine's, or the container's or JupyterHub's limit (MEM_LIMIT)
	// where that is less.
	MemoryLimit int64
	// Env is the worker's environment; nil means this process's.
	Env []string
}

// Supervised is an interp.Engine whose Session runs in a child process.
// When the child dies (a panic in a goroutine a cell started, a fatal
// runtime error, running out of memory) the cell ends with an
// InterpreterCrashed error and a fresh child serves the next request.
type Supervised struct {
	opts  Options
	limit int64
	ids   atomic.Int64

	mu     sync.Mutex
	child  *child
	closed bool
	notice string // a crash between cells, told with the next cell's output
}

var _ interp.Engine = (*Supervised)(nil)

// New starts the worker in the background and returns at once.
func New(opts Options) (*Supervised, error) {
	if len(opts.Command) == 0 {
		return nil, errors.New("interp: supervisor.Options.Command is empty; pass the worker command, e.g. {os.Args[0], \"worker\"}")
	}
	limit := opts.MemoryLimit
	if limit == 0 {
		var err error
		if limit, err = MemoryLimitFromEnv(os.Getenv(MemoryLimitEnv)); err != nil {
			return nil, err
		}
	}
	s := &Supervised{opts: opts, limit: limit}
	if _, err := s.current(); err != nil {
		return nil, err
	}
	return s, nil
}

// MemoryLimit is the worker's memory limit in bytes.
func (s *Supervised) MemoryLimit() int64 { return s.limit }

// MemoryLimitFromEnv parses a GOBAYES_MEMORY_LIMIT value; "" gives the
// default share of the usable memory.
func MemoryLimitFromEnv(v string) (int64, error) {
	v = strings.TrimSpace(v)
	phys := usableMemory(physicalMemory(), cgroupMemory(), os.Getenv(hubMemoryEnv))
	if v == "" {
		return int64(float64(phys) * defaultMemoryShare), nil
	}
	bad := fmt.Errorf("interp: %s=%q is not a memory size; write bytes, 512MiB, 4GiB or 50%%", MemoryLimitEnv, v)
	if p, ok := strings.CutSuffix(v, "%"); ok {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f <= 0 || f > 100 {
			return 0, bad
		}
		return int64(float64(phys) * f / 100), nil
	}
	n, ok := interp.ParseBytes(v)
	if !ok {
		return 0, bad
	}
	return n, nil
}

// current returns the live child, starting one when there is none.
func (s *Supervised) current() (*child, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("interp: the interpreter is closed")
	}
	if s.child != nil && !s.child.exited() {
		return s.child, nil
	}
	if s.child != nil && !s.child.wasReported() {
		s.notice = "the interpreter crashed after the previous cell (" + s.child.reason() + "); its state was reset — run the cells you need again\n"
	}
	c, err := startChild(s.opts, s.limit)
	if err != nil {
		return nil, err
	}
	s.child = c
	return c, nil
}

// crashError is the cell error for a child that died.
func crashError(reason string) *interp.Error {
	msg := "the interpreter crashed (" + reason + "); its state was reset — run the cells you need again"
	return &interp.Error{Name: "InterpreterCrashed", Value: msg, Traceback: []string{"\x1b[0;31mInterpreterCrashed: " + msg + "\x1b[0m"}}
}

// call sends a request and waits for its answer, passing events to ev.
// When ctx ends it interrupts the child, and kills it when the interrupt
// does not take.
func (s *Supervised) call(ctx context.Context, req wireRequest, ev interp.Events) (wireReply, *interp.Error) {
	c, err := s.current()
	if err != nil {
		return wireReply{}, &interp.Error{Name: "InterpreterUnavailable", Value: err.Error()}
	}
	s.mu.Lock()
	notice := s.notice
	if ev != nil {
		s.notice = ""
	}
	s.mu.Unlock()
	if notice != "" && ev != nil {
		ev.Stream("stderr", notice)
	}
	// A request for input the client is still answering ends with the call.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req.ID = s.ids.Add(1)
	replies := c.register(req.ID, ev)
	defer c.unregister(req.ID)
	if err := c.send(req); err != nil {
		<-c.dead
		c.markReported()
		s.restartInBackground(c)
		return wireReply{}, crashError(c.reason())
	}
	done := ctx.Done()
	var grace <-chan time.Time
	for {
		select {
		case p := <-replies:
			r := *p
			if r.Kind == replyDone {
				return r, nil
			}
			if r.Kind == replyInput {
				c.askInput(ctx, req.ID, ev, r)
				continue
			}
			deliver(ev, r)
		case <-done:
			done = nil
			_ = c.send(wireRequest{Op: opInterrupt})
			grace = time.After(interruptGrace)
		case <-grace:
			c.kill("the cell did not stop within " + interruptGrace.String() + " of the interrupt, so the interpreter was restarted")
		case <-c.dead:
			// Events sent before the child died are still worth showing.
			for {
				select {
				case p := <-replies:
					r := *p
					if r.Kind == replyDone {
						return r, nil
					}
					deliver(ev, r)
					continue
				default:
				}
				break
			}
			c.markReported()
			s.restartInBackground(c)
			return wireReply{}, crashError(c.reason())
		}
	}
}

// askInput answers the child's request for a line of standard input (r)
// with what ev's client types, or with interp.ErrNoInput when ev cannot ask. The
// client is asked in the background, so that an interrupt or the child's
// death is still seen while the person types; when ctx ends first, the
// child's read has been interrupted and the late answer is ignored there.
func (c *child) askInput(ctx context.Context, id int64, ev interp.Events, r wireReply) {
	in, ok := ev.(interp.InputEvents)
	if !ok {
		_ = c.send(wireRequest{ID: id, Op: opInput, InputErr: inputNotAllowed})
		return
	}
	go func() {
		text, err := in.Input(ctx, r.Text, r.Password)
		_ = c.send(wireRequest{ID: id, Op: opInput, Input: text, InputErr: inputErrorCode(err)})
	}()
}

func deliver(ev interp.Events, r wireReply) {
	if ev == nil {
		return
	}
	switch r.Kind {
	case replyStream:
		ev.Stream(r.Name, r.Text)
	case replyDisplay:
		if r.Bundle != nil {
			ev.Display(*r.Bundle, r.DisplayID, r.Update)
		}
	case replyClear:
		ev.Clear(r.Wait)
	case replyComm:
		if ce, ok := ev.(interp.CommEvents); ok && r.Comm != nil {
			ce.Comm(*r.Comm)
		}
	}
}

// restartInBackground starts a fresh child after c died, so the next cell
// does not wait for the interpreter's start.
func (s *Supervised) restartInBackground(c *child) {
	go func() {
		s.mu.Lock()
		stale := s.child == c
		s.mu.Unlock()
		if stale {
			_, _ = s.current()
		}
	}()
}

// Execute runs a cell in the child. See interp.Engine.
func (s *Supervised) Execute(ctx context.Context, code string, ev interp.Events) interp.Result {
	r, err := s.call(ctx, wireRequest{Op: opExecute, Code: code, MsgID: msgID(ev)}, ev)
	if err != nil {
		return interp.Result{Err: err}
	}
	if r.Result == nil {
		return interp.Result{Err: &interp.Error{Name: "ProtocolError", Value: "interp: the worker answered an execute without a result"}}
	}
	return *r.Result
}

// msgID is the client's request ev answers, "" when ev cannot tell.
func msgID(ev interp.Events) string {
	if ce, ok := ev.(interp.CommEvents); ok {
		return ce.MsgID()
	}
	return ""
}

// Comm delivers a client's comm message to the session in the child. See
// interp.Engine.
func (s *Supervised) Comm(ctx context.Context, m comm.Message, ev interp.Events) *interp.Error {
	r, err := s.call(ctx, wireRequest{Op: opComm, Comm: &m, MsgID: msgID(ev)}, ev)
	if err != nil {
		return err
	}
	return r.Err
}

// CommInfo lists the open comms of the session in the child; none when it
// cannot answer. See interp.Engine.
func (s *Supervised) CommInfo(target string) map[string]string {
	r, err := s.call(context.Background(), wireRequest{Op: opCommInfo, Code: target}, nil)
	if err != nil || r.Comms == nil {
		return map[string]string{}
	}
	return r.Comms
}

// Evaluate computes one expression in the child. See interp.Engine.
func (s *Supervised) Evaluate(ctx context.Context, expr string) (display.Bundle, *interp.Error) {
	r, err := s.call(ctx, wireRequest{Op: opEvaluate, Code: expr}, nil)
	if err != nil {
		return display.Bundle{}, err
	}
	if r.Err != nil {
		return display.Bundle{}, r.Err
	}
	if r.Bundle == nil {
		return display.Render(nil), nil
	}
	return *r.Bundle, nil
}

// Complete asks the child for completions. See interp.Engine.
func (s *Supervised) Complete(code string, cursor int) interp.Completion {
	r, err := s.call(context.Background(), wireRequest{Op: opComplete, Code: code, Cursor: cursor}, nil)
	if err != nil || r.Completion == nil {
		return interp.Completion{Start: cursor, End: cursor}
	}
	return *r.Completion
}

// Inspect asks the child for documentation. See interp.Engine.
func (s *Supervised) Inspect(code string, cursor int, detail int) (display.Bundle, bool) {
	r, err := s.call(context.Background(), wireRequest{Op: opInspect, Code: code, Cursor: cursor, Detail: detail}, nil)
	if err != nil || r.Bundle == nil {
		return display.Bundle{}, false
	}
	return *r.Bundle, r.Found
}

// IsComplete needs no interpreter state, so it is answered here without a
// round trip to the child.
func (s *Supervised) IsComplete(code string) (status, indent string) {
	return interp.IsComplete(code)
}

// Reset replaces the child with a fresh one: quicker and more thorough than
// resetting the session inside it.
func (s *Supervised) Reset() error {
	s.mu.Lock()
	c := s.child
	s.child = nil
	s.mu.Unlock()
	if c != nil {
		c.stop()
	}
	_, err := s.current()
	return err
}

// Close stops the child.
func (s *Supervised) Close() error {
	s.mu.Lock()
	c := s.child
	s.child = nil
	s.closed = true
	s.mu.Unlock()
	if c != nil {
		c.stop()
	}
	return nil
}

// child is one worker process.
type child struct {
	cmd   *exec.Cmd
	limit int64

	sendMu sync.Mutex
	req    io.WriteCloser
	enc    *json.Encoder

	mu      sync.Mutex
	waiting map[int64]chan *wireReply
	events  interp.Events // of the running cell: where the child's raw stdout and stderr go
	tail    []string
	crash   string // the runtime's first crash line ("panic: ...", "fatal error: ...")
	crashed bool   // stderr showed a Go runtime crash; later lines are kept, not shown
	killMsg string

	dead     chan struct{}
	deadOnce sync.Once
	why      string
	reported bool // a cell was told of its death, or it was stopped on purpose
}

func (c *child) markReported() {
	c.mu.Lock()
	c.reported = true
	c.mu.Unlock()
}

func (c *child) wasReported() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reported || c.killMsg != ""
}

// tailLines is how many of the child's last stderr lines explain a crash.
const tailLines = 40

func startChild(opts Options, limit int64) (*child, error) {
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("interp: starting the interpreter: %w", err)
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, fmt.Errorf("interp: starting the interpreter: %w", err)
	}
	cmd := exec.Command(opts.Command[0], opts.Command[1:]...)
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(append([]string{}, env...), workerMemoryEnv+"="+strconv.FormatInt(limit, 10))
	cmd.ExtraFiles = []*os.File{reqR, repW} // fds 3 and 4
	cmd.SysProcAttr = childProcAttr()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("interp: starting the interpreter: %w", err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("interp: starting the interpreter: %w", err)
	}
	if err := cmd.Start(); err != nil {
		reqR.Close()
		reqW.Close()
		repR.Close()
		repW.Close()
		return nil, fmt.Errorf("interp: starting the interpreter %q: %w", opts.Command[0], err)
	}
	reqR.Close()
	repW.Close()
	c := &child{cmd: cmd, limit: limit, req: reqW, enc: json.NewEncoder(reqW), waiting: map[int64]chan *wireReply{}, dead: make(chan struct{})}
	var pipes sync.WaitGroup
	pipes.Add(3)
	go func() { defer pipes.Done(); c.readReplies(repR) }()
	go func() { defer pipes.Done(); c.readRaw(stdout, "stdout") }()
	go func() { defer pipes.Done(); c.readRaw(stderr, "stderr") }()
	go func() {
		pipes.Wait()
		err := cmd.Wait()
		c.finish(err)
	}()
	return c, nil
}

func (c *child) exited() bool {
	select {
	case <-c.dead:
		return true
	default:
		return false
	}
}

func (c *child) register(id int64, ev interp.Events) chan *wireReply {
	// Pointers: a buffer of 256 wireReply values was 50 KB allocated per
	// request.
	ch := make(chan *wireReply, 256)
	c.mu.Lock()
	c.waiting[id] = ch
	if ev != nil {
		c.events = ev
	}
	c.mu.Unlock()
	return ch
}

func (c *child) unregister(id int64) {
	c.mu.Lock()
	delete(c.waiting, id)
	c.mu.Unlock()
}

func (c *child) send(r wireRequest) error {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	return c.enc.Encode(r)
}

func (c *child) readReplies(r io.Reader) {
	dec := json.NewDecoder(bufio.NewReader(r))
	for {
		var rep wireReply
		if err := dec.Decode(&rep); err != nil {
			return
		}
		c.mu.Lock()
		ch, late := c.waiting[rep.ID], c.events
		c.mu.Unlock()
		switch {
		case ch != nil:
			ch <- &rep
		case rep.Kind != replyDone:
			// Output of a goroutine that outlived its cell goes where the
			// latest cell's output goes, as in IPython.
			deliver(late, rep)
		}
	}
}

// readRaw forwards what the child writes to its own stdout and stderr
// (compiled code printing directly) to the running cell, and keeps the last
// stderr lines to explain a crash. Once stderr shows the Go runtime's crash
// report, the rest is kept for the reason but not shown.
func (c *child) readRaw(r io.Reader, name string) {
	br := bufio.NewReaderSize(r, 64<<10)
	var carry []byte // an incomplete UTF-8 sequence that ended the last piece
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer arrives in pieces; each is
			// passed on at once so the child never blocks on a full pipe,
			// cut where a character begins.
			cut := len(chunk)
			for i := len(chunk) - 1; i >= 0 && i >= len(chunk)-utf8.UTFMax; i-- {
				if utf8.RuneStart(chunk[i]) {
					if !utf8.FullRune(chunk[i:]) {
						cut = i
					}
					break
				}
			}
			text := string(carry) + string(chunk[:cut])
			carry = append(carry[:0], chunk[cut:]...)
			if text != "" {
				c.rawLine(name, text)
			}
			continue
		}
		if len(chunk) > 0 || len(carry) > 0 {
			c.rawLine(name, string(carry)+string(chunk))
			carry = carry[:0]
		}
		if err != nil {
			return
		}
	}
}

func (c *child) rawLine(name, text string) {
	c.mu.Lock()
	if name == "stderr" {
		line := strings.TrimRight(text, "\n")
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
			if !c.crashed {
				c.crash = line
			}
			c.crashed = true
		}
		c.tail = append(c.tail, line)
		if len(c.tail) > tailLines {
			c.tail = c.tail[len(c.tail)-tailLines:]
		}
	}
	ev, quiet := c.events, c.crashed && name == "stderr"
	c.mu.Unlock()
	if ev != nil && !quiet {
		ev.Stream(name, text)
	}
}

func (c *child) kill(msg string) {
	c.mu.Lock()
	if c.killMsg == "" {
		c.killMsg = msg
	}
	c.mu.Unlock()
	_ = c.cmd.Process.Kill()
}

// stop ends the child quietly: closing its requests makes it exit; a kill
// follows if it does not.
func (c *child) stop() {
	c.mu.Lock()
	if c.killMsg == "" {
		c.killMsg = "the interpreter was stopped"
	}
	c.mu.Unlock()
	c.req.Close()
	select {
	case <-c.dead:
	case <-time.After(time.Second):
		_ = c.cmd.Process.Kill()
		<-c.dead
	}
}

func (c *child) finish(waitErr error) {
	c.mu.Lock()
	c.why = c.explain(waitErr)
	c.mu.Unlock()
	c.deadOnce.Do(func() { close(c.dead) })
}

func (c *child) reason() string {
	<-c.dead
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.why
}

// explain says why the child ended, from its exit status and its last
// stderr lines. Called with c.mu held.
func (c *child) explain(waitErr error) string {
	if c.killMsg != "" {
		return c.killMsg
	}
	status := "it exited"
	var exitErr *exec.ExitError
	if errors.As(waitErr, &exitErr) {
		status = exitErr.Error()
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			status = "killed by SIGKILL, perhaps by the system's out-of-memory killer"
		}
	} else if waitErr != nil {
		status = waitErr.Error()
	}
	for _, l := range append([]string{c.crash}, c.tail...) {
		if strings.Contains(l, "out of memory") || strings.Contains(l, "cannot allocate memory") {
			peak := ""
			if rss := peakRSS(c.cmd.ProcessState); rss > 0 {
				peak = fmt.Sprintf(" (it held %s at most)", formatBytes(rss))
			}
			return fmt.Sprintf("out of memory: the cell needed more than the interpreter's limit of %s%s; set %s (e.g. %s=75%%) to change it", formatBytes(c.limit), peak, MemoryLimitEnv, MemoryLimitEnv)
		}
	}
	for _, l := range append([]string{c.crash}, c.tail...) {
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") {
			hint := ""
			if strings.HasPrefix(l, "panic: ") {
				hint = ", in a goroutine the cell started (recover inside the goroutine to keep the session)"
			}
			l = strings.NewReplacer(" [recovered, repanicked]", "", " [recovered]", "").Replace(strings.TrimSpace(l))
			return l + hint + "; " + status
		}
	}
	var last []string
	for i := len(c.tail) - 1; i >= 0 && len(last) < 3; i-- {
		if t := strings.TrimSpace(c.tail[i]); t != "" {
			last = append([]string{t}, last...)
		}
	}
	if len(last) > 0 {
		return status + "; its last words: " + strings.Join(last, " / ")
	}
	return status
}

// formatBytes is interp's spelling of a size.
func formatBytes(n int64) string { return interp.FormatBytes(uint64(max(n, 0))) }
