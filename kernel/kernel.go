package kernel

import (
	"context"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobayes/gobayes/interp"
)

// Channel names one of the sockets a message travels on.
type Channel int

// The channels of the protocol (heartbeat carries no messages).
const (
	Shell Channel = iota
	Control
	IOPub
	Stdin
)

func (c Channel) String() string {
	return [...]string{"shell", "control", "iopub", "stdin"}[c]
}

// Sink sends encoded frames on a channel. The ZeroMQ sockets are the real
// one; tests record frames instead.
type Sink interface {
	Send(ch Channel, frames [][]byte) error
}

// Config is what a Kernel needs. Zero fields take the documented defaults.
type Config struct {
	// Engine runs the cells. Required.
	Engine interp.Engine
	// Scheme and Key come from the connection file; an empty Key disables
	// signing.
	Scheme, Key string
	// Origin makes message headers; zero means DefaultOrigin().
	Origin Origin
	// Version is the implementation version shown in kernel_info.
	Version string
	// GoVersion is language_info.version; "" means the running Go version.
	GoVersion string
	// AbortGrace is how long a failed cell with stop_on_error waits, before
	// its reply, for execute requests a client sent right after it: those
	// are aborted with the ones already queued (ipykernel flushes its socket
	// for the same reason). A client that waits for the reply before
	// sending is never affected. Zero means 50ms; negative means none.
	AbortGrace time.Duration
	// MaxMessage bounds a message received on shell, control or stdin:
	// a peer that sends a larger one, signed or not, is disconnected before
	// its bytes are kept. Zero means DefaultMaxMessage (64 MiB). iopub and
	// heartbeat take a few KiB, whatever this says.
	MaxMessage int64
	// HandshakeTimeout bounds the time a new connection has to send its
	// ZMTP greeting and READY; zero means DefaultHandshakeTimeout (10 s).
	HandshakeTimeout time.Duration
	// WriteTimeout is how long a peer may leave what the kernel writes to
	// it untaken (its buffers full) before it is disconnected: zmq4 sends
	// to iopub's subscribers one after another, so one that stops reading
	// would stop everyone's output. Zero means DefaultWriteTimeout (10 s).
	WriteTimeout time.Duration
	// OutputLimit bounds what one cell may print and display (bytes of
	// stream text and of new display data; clear_output starts the count
	// again, and a display update replaces what it updates, so only its
	// own size counts). Past it the cell's output is dropped, with one
	// notice, while the cell runs on. Zero means interp.DefaultOutputLimit;
	// negative means none.
	OutputLimit int64
	// MaxCell bounds the source of an execute_request: a larger one is
	// answered with an error (ename CellTooLarge) and not run. Zero means
	// DefaultMaxCell; it is never more than MaxMessage.
	MaxCell int
	// HistoryLimit bounds the bytes of source and output the kernel keeps
	// for history_request: the oldest cells are forgotten past it. Zero
	// means DefaultHistoryLimit.
	HistoryLimit int
	// Log receives what the kernel wants a person to know (dropped
	// messages, send failures); nil means standard error.
	Log *log.Logger
}

// Kernel dispatches requests to handlers, one per message type, and
// publishes on iopub. Shell requests run one at a time, in order; control
// requests are served at once, also while a cell runs.
type Kernel struct {
	engine interp.Engine
	signer *Signer
	origin Origin
	cfg    Config
	log    *log.Logger
	sink   Sink

	sendMu [4]sync.Mutex  // one sender per channel at a time keeps frames whole
	info   ConnectionInfo // set by Serve; answers connect_request

	mu          sync.Mutex
	cancelCell  context.CancelFunc // cancels the running cell; nil when idle
	cellDone    chan struct{}      // closed when the running cell ends; nil when idle
	stop        chan struct{}      // closed by a shutdown request
	stopOnce    sync.Once
	restart     bool
	starting    sync.Once
	abortBefore uint64     // shell requests queued before this sequence number are aborted
	input       *inputWait // the input_request waiting for its reply; nil when none

	queueMu  sync.Mutex
	queue    []queued      // shell requests received, not yet handled
	queued   chan struct{} // signalled when queue grows
	received uint64        // sequence number of the last shell request received

	iopubChecked atomic.Bool // the first request has waited for an iopub subscriber
	bulky        atomic.Bool // a large message passed: give memory back after the request
	replays      replayGuard // signatures seen, to drop a message sent twice

	// Owned by the shell goroutine.
	executionCount int
	history        History
}

// New returns a kernel sending through sink (nil until Serve binds the
// sockets; tests pass their own).
func New(cfg Config, sink Sink) (*Kernel, error) {
	if cfg.Engine == nil {
		return nil, fmt.Errorf("kernel: Config.Engine is nil; pass the interpreter the kernel runs cells in")
	}
	s, err := NewSigner(cfg.Scheme, cfg.Key)
	if err != nil {
		return nil, err
	}
	if cfg.Origin.Now == nil {
		cfg.Origin = DefaultOrigin()
	}
	if cfg.GoVersion == "" {
		cfg.GoVersion = strings.TrimPrefix(runtime.Version(), "go")
	}
	if cfg.AbortGrace == 0 {
		cfg.AbortGrace = 50 * time.Millisecond
	}
	if cfg.MaxMessage <= 0 {
		cfg.MaxMessage = DefaultMaxMessage
	}
	if cfg.HandshakeTimeout <= 0 {
		cfg.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = DefaultWriteTimeout
	}
	if cfg.OutputLimit == 0 {
		cfg.OutputLimit = interp.DefaultOutputLimit
	}
	if cfg.MaxCell <= 0 {
		cfg.MaxCell = DefaultMaxCell
	}
	cfg.MaxCell = int(min(int64(cfg.MaxCell), cfg.MaxMessage))
	if cfg.HistoryLimit <= 0 {
		cfg.HistoryLimit = DefaultHistoryLimit
	}
	if cfg.Version == "" {
		cfg.Version = "devel"
	}
	lg := cfg.Log
	if lg == nil {
		lg = log.New(os.Stderr, "", log.LstdFlags)
	}
	return &Kernel{
		engine: cfg.Engine, signer: s, origin: cfg.Origin, cfg: cfg, log: lg, sink: sink,
		stop: make(chan struct{}), queued: make(chan struct{}, 1),
		history: History{Limit: cfg.HistoryLimit},
	}, nil
}

// Stopped is closed once a shutdown request has been answered.
func (k *Kernel) Stopped() <-chan struct{} { return k.stop }

// RestartRequested reports whether the shutdown that stopped the kernel
// asked for a restart.
func (k *Kernel) RestartRequested() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.restart
}

// Interrupt cancels the running cell, if any (interrupt_request, SIGINT).
func (k *Kernel) Interrupt() {
	k.mu.Lock()
	cancel := k.cancelCell
	k.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// startCell records a running cell and returns its context.
func (k *Kernel) startCell() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	k.mu.Lock()
	k.cancelCell, k.cellDone = cancel, done
	k.mu.Unlock()
	return ctx, func() {
		k.mu.Lock()
		k.cancelCell, k.cellDone = nil, nil
		k.mu.Unlock()
		cancel()
		close(done)
	}
}

// waitCell waits at most d for the running cell, if any, to end.
func (k *Kernel) waitCell(d time.Duration) {
	k.mu.Lock()
	done := k.cellDone
	k.mu.Unlock()
	if done == nil {
		return
	}
	select {
	case <-done:
	case <-time.After(d):
	}
}

// PublishStarting publishes status "starting", once per kernel.
func (k *Kernel) PublishStarting() {
	k.starting.Do(func() { k.publishStatus("starting", nil) })
}

// send encodes m and sends it on ch, logging (not returning) failures: a
// client that went away must not stop the kernel.
func (k *Kernel) send(ch Channel, m Message) {
	frames, err := m.Encode(k.signer)
	if err != nil {
		k.log.Printf("kernel: cannot encode %s: %v", m.Header.MsgType, err)
		return
	}
	if framesSize(frames) > bulkyMessage {
		k.bulky.Store(true)
	}
	k.sendMu[ch].Lock()
	err = k.sink.Send(ch, frames)
	k.sendMu[ch].Unlock()
	if err != nil {
		k.log.Printf("kernel: cannot send %s on %s: %v", m.Header.MsgType, ch, err)
	}
}

// reply sends a reply of type msgType to req on channel ch.
func (k *Kernel) reply(ch Channel, req *Message, msgType string, content any) {
	m, err := k.origin.Message(msgType, req, content)
	if err != nil {
		k.log.Print(err)
		return
	}
	k.send(ch, m)
}

// publish sends a message on iopub whose parent is req (nil for none).
func (k *Kernel) publish(msgType string, req *Message, content any) {
	m, err := k.origin.Message(msgType, req, content)
	if err != nil {
		k.log.Print(err)
		return
	}
	// On iopub the leading frame is a topic, not a routing identity;
	// clients subscribe to every topic.
	m.Identities = [][]byte{[]byte("kernel." + msgType)}
	k.send(IOPub, m)
}

func (k *Kernel) publishStatus(state string, req *Message) {
	content, ok := statusContent[state]
	if !ok {
		content = rawContent(`{"execution_state":` + string(appendJSONString(nil, state)) + `}`)
	}
	k.publish("status", req, content)
}

// handler answers one message type.
type handler func(k *Kernel, ch Channel, req *Message)

// shellHandlers are the requests served on the shell channel, one at a time.
var shellHandlers = map[string]handler{
	"kernel_info_request": (*Kernel).kernelInfo,
	"execute_request":     (*Kernel).execute,
	"complete_request":    (*Kernel).complete,
	"inspect_request":     (*Kernel).inspect,
	"is_complete_request": (*Kernel).isComplete,
	"history_request":     (*Kernel).historyRequest,
	"comm_info_request":   (*Kernel).commInfo,
	"comm_open":           (*Kernel).commRequest,
	"comm_msg":            (*Kernel).commRequest,
	"comm_close":          (*Kernel).commRequest,
	"connect_request":     (*Kernel).connect,
	"shutdown_request":    (*Kernel).shutdown,
}

// controlHandlers are served at once, even while a cell runs; none of them
// touches the interpreter's state except shutdown, which first interrupts.
var controlHandlers = map[string]handler{
	"kernel_info_request": (*Kernel).kernelInfo,
	"interrupt_request":   (*Kernel).interrupt,
	"shutdown_request":    (*Kernel).shutdown,
	"comm_info_request":   (*Kernel).commInfo,
	"connect_request":     (*Kernel).connect,
}

type queued struct {
	seq uint64
	req Message
}

// Enqueue checks a shell request and queues it; RunShell handles the
// queue in order. The order of arrival decides which queued executes an
// error aborts. A message that does not verify is dropped here, so that
// what waits behind a running cell is only what the key holder sent.
func (k *Kernel) Enqueue(frames [][]byte) {
	req, ok := k.receive(Shell, frames)
	if !ok {
		return
	}
	k.queueMu.Lock()
	k.received++
	k.queue = append(k.queue, queued{k.received, req})
	k.queueMu.Unlock()
	select {
	case k.queued <- struct{}{}:
	default:
	}
}

// RunShell handles queued shell requests one at a time until ctx is done or
// a shutdown request has been answered.
func (k *Kernel) RunShell(ctx context.Context) {
	for {
		k.queueMu.Lock()
		var next *queued
		if len(k.queue) > 0 {
			next = &k.queue[0]
			k.queue = k.queue[1:]
		}
		k.queueMu.Unlock()
		if next != nil {
			k.dispatch(Shell, next.seq, &next.req)
			continue
		}
		select {
		case <-k.queued:
		case <-ctx.Done():
			return
		case <-k.stop:
			return
		}
	}
}

// receive decodes frames received on ch and checks them: a message that
// does not verify, or that repeats the signature of one received before
// (a replay), is dropped and logged.
func (k *Kernel) receive(ch Channel, frames [][]byte) (Message, bool) {
	m, err := Decode(frames, k.signer)
	if err != nil {
		k.log.Printf("kernel: on %s: %v", ch, err)
		return m, false
	}
	if k.signer.Enabled() && !k.replays.first(m.sig) {
		k.log.Printf("kernel: on %s: %s %q replays a message received before (same signature); dropped",
			ch, m.Header.MsgType, m.Header.MsgID)
		return m, false
	}
	return m, true
}

// Handle checks and dispatches one message received on ch (Shell or
// Control); seq is its Enqueue order (0 on control). A message that does
// not verify, or is a replay, is dropped and logged.
func (k *Kernel) Handle(ch Channel, seq uint64, frames [][]byte) {
	req, ok := k.receive(ch, frames)
	if !ok {
		return
	}
	k.dispatch(ch, seq, &req)
}

// dispatch hands a checked message to its handler, busy and idle around.
func (k *Kernel) dispatch(ch Channel, seq uint64, req *Message) {
	handlers := shellHandlers
	if ch == Control {
		handlers = controlHandlers
	}
	h, ok := handlers[req.Header.MsgType]
	if !ok {
		k.log.Printf("kernel: on %s: message type %q is not supported; ignored", ch, req.Header.MsgType)
		return
	}
	k.awaitIOPub()
	if len(req.Content) > bulkyMessage {
		k.bulky.Store(true)
	}
	defer k.releaseMemory()
	k.publishStatus("busy", req)
	defer k.publishStatus("idle", req)
	defer func() {
		// A bug in a handler or the engine must not take the kernel down.
		if p := recover(); p != nil {
			k.log.Printf("kernel: handling %s: panic: %v", req.Header.MsgType, p)
		}
	}()
	switch {
	case ch == Shell && req.Header.MsgType == "execute_request" && k.aborted(seq):
		k.abortExecute(req)
	case req.Header.MsgType != "execute_request" && len(req.Content) > k.cfg.MaxCell+requestSlack:
		k.refuseLarge(ch, req)
	default:
		h(k, ch, req)
	}
}

// requestSlack is what a request other than an execute may carry beyond
// Config.MaxCell (its code, for complete and inspect) before it is refused.
const requestSlack = 64 << 10

// refuseLarge answers a request (not an execute: its source is checked
// by execute) whose content is over the limit with an error reply; a comm
// message gets none, as for any content the kernel cannot take.
func (k *Kernel) refuseLarge(ch Channel, req *Message) {
	typ := req.Header.MsgType
	msg := fmt.Sprintf("kernel: the %s is %s, more than the kernel takes (%s); it was ignored. Send less at a time",
		typ, interp.FormatBytes(uint64(len(req.Content))), interp.FormatBytes(uint64(k.cfg.MaxCell+requestSlack)))
	k.log.Print(msg)
	if !strings.HasSuffix(typ, "_request") {
		return
	}
	k.reply(ch, req, strings.TrimSuffix(typ, "_request")+"_reply", map[string]any{
		"status": "error", "ename": "RequestTooLarge", "evalue": msg, "traceback": []string{},
	})
}

// bulkyMessage is the size of a message (received or sent) after which
// the kernel gives its memory back to the system at the end of the request.
const bulkyMessage = 1 << 20

// releaseMemory returns the memory a large message took to the system,
// after the request it came or went with: the kernel holds a few MiB
// between requests, and without this what a 5 MB cell or a large
// history_reply passed through stays in its footprint for minutes. The
// full collection this takes (milliseconds) runs after idle, and only
// after such messages.
func (k *Kernel) releaseMemory() {
	if k.bulky.Swap(false) {
		debug.FreeOSMemory()
	}
}

func framesSize(frames [][]byte) int {
	n := 0
	for _, f := range frames {
		n += len(f)
	}
	return n
}

// subscriberWaiter is a Sink that can tell when a client listens on iopub.
type subscriberWaiter interface {
	WaitSubscriber(d time.Duration) bool
}

// iopubWait bounds how long the first request waits for a subscriber.
const iopubWait = 250 * time.Millisecond

// awaitIOPub makes the first request wait, briefly, until a client has
// subscribed to iopub. A PUB socket drops what it sends before then, and a
// client's subscription arrives a moment after its first request:
// jupyter_client would miss the status of its first kernel_info_request and
// wait 0.2 s or more before asking again. Only the first request waits.
func (k *Kernel) awaitIOPub() {
	if k.iopubChecked.Load() {
		return
	}
	if w, ok := k.sink.(subscriberWaiter); ok {
		w.WaitSubscriber(iopubWait)
	}
	k.iopubChecked.Store(true)
}

func (k *Kernel) aborted(seq uint64) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return seq < k.abortBefore
}

// abortQueued makes every execute_request received so far answer
// "aborted", as ipykernel does after an error when stop_on_error is set.
func (k *Kernel) abortQueued() {
	k.queueMu.Lock()
	next := k.received + 1
	k.queueMu.Unlock()
	k.mu.Lock()
	if next > k.abortBefore {
		k.abortBefore = next
	}
	k.mu.Unlock()
}

// abortExecute answers an execute_request that will not run. The reply has
// no execution_count, as ipykernel's: a front end numbers a cell by it, and
// Notebook would show the cell that never ran as In [2]: with no output.
func (k *Kernel) abortExecute(req *Message) {
	k.reply(Shell, req, "execute_reply", map[string]any{
		"status": "aborted",
		"ename":  "ExecutionAborted", "evalue": "an earlier cell failed and stop_on_error was set", "traceback": []string{},
	})
}

// decode decodes req's content into v. When that fails (content that is
// not JSON, a field of the wrong type) it logs why, answers a request with
// an error reply on ch saying which field is wrong, so that the client
// does not wait forever, and returns false.
func (k *Kernel) decode(ch Channel, req *Message, v any) bool {
	err := req.decodeContent(v)
	if err == nil {
		return true
	}
	k.log.Print(err)
	typ := req.Header.MsgType
	if !strings.HasSuffix(typ, "_request") {
		return false // comm messages and input_reply have no reply
	}
	content := map[string]any{
		"status": "error", "ename": "InvalidRequest", "evalue": err.Error(), "traceback": []string{},
	}
	if typ == "execute_request" {
		content["execution_count"] = k.executionCount
		content["payload"] = []any{}
		content["user_expressions"] = map[string]any{}
	}
	k.reply(ch, req, strings.TrimSuffix(typ, "_request")+"_reply", content)
	return false
}
