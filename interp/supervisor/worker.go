package supervisor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp"
)

// workerMemoryEnv carries the worker's memory limit in bytes from the
// supervisor to the child.
const workerMemoryEnv = "GOBAYES_WORKER_MEMORY_LIMIT"

// WorkerMain is the entry point of the interpreter's child process (the
// `gobayes worker` command): it serves one interp.Session to the supervisor
// over the inherited pipes until the supervisor goes away, and returns the
// exit code.
func WorkerMain() int {
	// The pipes arrive blocking. Made non-blocking before os.NewFile, they
	// are read and written through the runtime's poller: the goroutine
	// waiting for the next request parks instead of holding a thread in
	// read(2), and the cell's goroutine it has just started runs at once
	// rather than after the scheduler takes the processor back.
	syscall.SetNonblock(workerRequestFD, true)
	syscall.SetNonblock(workerReplyFD, true)
	in := os.NewFile(workerRequestFD, "requests")
	out := os.NewFile(workerReplyFD, "replies")
	if _, err := in.Stat(); err != nil {
		fmt.Fprintln(os.Stderr, "interp: the worker must be started by the kernel (it reads requests on fd 3)")
		return 2
	}
	// yaegi reports some unsupported syntax with log.Panic, which the
	// session recovers and explains; the log line itself is noise.
	log.SetOutput(yaegiLogFilter{os.Stderr})
	var limit int64
	if v := os.Getenv(workerMemoryEnv); v != "" {
		if l, err := strconv.ParseInt(v, 10, 64); err == nil && l > 0 {
			limit = l
		}
	}
	// The session refuses single requests the limit cannot hold before
	// they are made; the limit itself is applied once the session exists.
	s, err := interp.NewSession(interp.Options{MemoryLimit: limit})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if limit > 0 {
		applyMemoryLimit(limit)
	}
	// A bad value is the kernel's to report; here it means the default.
	if l, err := interp.OutputLimitFromEnv(os.Getenv(interp.OutputLimitEnv)); err == nil {
		outputLimit = l
	}
	// Decoding the documentation index takes ~0.1 s; do it before the
	// first inspect request asks.
	go interp.PreloadDocs()
	w := &worker{s: s, enc: json.NewEncoder(out)}
	return w.serve(in)
}

// applyMemoryLimit makes the garbage collector work hard near the limit
// and makes the kernel refuse address space beyond it, so a runaway cell
// ends in the Go runtime's "out of memory" (which the supervisor reports)
// rather than in the system's OOM killer.
//
// The collector's soft limit sits below the guard's share: a heap that
// passes the guard then holds that much live data, not garbage waiting
// for a collection (a million-row model's programs and frames left 5 GiB
// live behind a 9.8 GiB heap, and the guard stopped the cell).
func applyMemoryLimit(limit int64) {
	memoryLimit = limit
	debug.SetMemoryLimit(int64(float64(limit) * (guardShare - 0.05)))
	limitAddressSpace(limit)
}

// memoryLimit is the worker's limit in bytes (0: none set).
var memoryLimit int64

// outputLimit bounds one display or value sent to the supervisor (the
// kernel's output limit, interp.OutputLimitEnv): a larger one is replaced by
// a notice, so that no reply line makes the kernel hold more than that.
var outputLimit int64 = interp.DefaultOutputLimit

// bounded is b, or a notice in its place when it is over outputLimit.
func bounded(b display.Bundle) display.Bundle {
	if n := interp.BundleSize(b); n > outputLimit {
		return interp.TooLargeToShow(n, outputLimit)
	}
	return b
}

// guardShare is the share of the memory limit at which a cell is stopped
// before the limit ends the worker (and the session with it). The
// session's checks of single requests (interp's allocGuardShare) refuse
// what would take the heap past the same share.
const guardShare = 0.75

// guardMemory watches the heap while a cell runs and, once it passes
// guardShare of the limit, stops the cell (cancel) and reports how much it
// held; stop ends the watch. Stopped at the guard, the cell ends as an
// interrupted one does, with the session's state kept, instead of as an
// out-of-memory crash that starts a fresh interpreter.
func guardMemory(cancel context.CancelFunc) (stop func() (tripped bool, held uint64)) {
	if memoryLimit <= 0 {
		return func() (bool, uint64) { return false, 0 }
	}
	guard := uint64(float64(memoryLimit) * guardShare)
	// A timer rather than a goroutine with a ticker: most cells end before
	// the first look, and then the guard has cost no goroutine.
	var (
		mu      sync.Mutex
		t       *time.Timer
		stopped bool
		trip    bool
		peak    uint64
		sample  = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	)
	mu.Lock()
	t = time.AfterFunc(guardPeriod, func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > guard {
			// The heap counts dead objects not yet swept: collect once
			// and look again before stopping the cell.
			mu.Unlock()
			runtime.GC()
			mu.Lock()
			if stopped {
				return
			}
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > guard {
				peak, trip = v, true
				cancel()
				return
			}
		}
		t.Reset(guardPeriod)
	})
	mu.Unlock()
	return func() (bool, uint64) {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		t.Stop()
		return trip, peak
	}
}

// guardPeriod is how often the memory guard looks at the heap.
const guardPeriod = 20 * time.Millisecond

// memoryGuardError is the cell's error when the guard stopped it.
func memoryGuardError(held uint64) *interp.Error {
	msg := fmt.Sprintf("the cell was stopped holding %s, %.0f%% of the interpreter's memory limit of %s, before the limit would end the session; variables keep the values they had. Free memory (set large values to nil), work on less at a time, or raise the limit (%s, e.g. %s=75%%)",
		formatBytes(int64(held)), 100*float64(held)/float64(memoryLimit), formatBytes(memoryLimit), MemoryLimitEnv, MemoryLimitEnv)
	return &interp.Error{Name: "MemoryLimit", Value: msg, Traceback: []string{"\x1b[0;31mMemoryLimit: " + msg + "\x1b[0m"}}
}

// yaegiLogFilter drops the lines yaegi logs before the panics the session
// turns into errors ("nil type", "nil reflect type").
type yaegiLogFilter struct{ w io.Writer }

func (f yaegiLogFilter) Write(p []byte) (int, error) {
	if bytes.HasSuffix(p, []byte(" nil type\n")) || bytes.HasSuffix(p, []byte(" nil reflect type\n")) {
		return len(p), nil
	}
	return f.w.Write(p)
}

type worker struct {
	s     *interp.Session
	encMu sync.Mutex
	enc   *json.Encoder

	mu     sync.Mutex
	cancel context.CancelFunc         // of the running cell, nil when none
	inputs map[int64]chan wireRequest // reads of standard input waiting for their line, by request id
}

func (w *worker) send(r wireReply) {
	w.encMu.Lock()
	defer w.encMu.Unlock()
	if err := w.enc.Encode(r); err != nil {
		// The supervisor is gone; nobody is left to serve.
		os.Exit(0)
	}
}

func (w *worker) serve(in io.Reader) int {
	dec := json.NewDecoder(bufio.NewReader(in))
	var cells sync.WaitGroup
	for {
		var req wireRequest
		if err := dec.Decode(&req); err != nil {
			if err == io.EOF {
				return 0
			}
			fmt.Fprintln(os.Stderr, "interp: worker: bad request:", err)
			return 2
		}
		switch req.Op {
		case opComm:
			ctx, cancel := context.WithCancel(context.Background())
			w.mu.Lock()
			w.cancel = cancel
			w.mu.Unlock()
			cells.Add(1)
			go func(req wireRequest) {
				defer cells.Done()
				defer cancel()
				var e *interp.Error
				if req.Comm == nil {
					e = &interp.Error{Name: "ProtocolError", Value: "interp: worker: a comm request without a message"}
				} else {
					e = w.s.Comm(ctx, *req.Comm, workerEvents{w, req.ID, req.MsgID})
				}
				w.send(wireReply{ID: req.ID, Kind: replyDone, Err: e})
			}(req)
		case opCommInfo:
			w.send(wireReply{ID: req.ID, Kind: replyDone, Comms: w.s.CommInfo(req.Code)})
		case opExecute, opEvaluate:
			ctx, cancel := context.WithCancel(context.Background())
			w.mu.Lock()
			w.cancel = cancel
			w.mu.Unlock()
			cells.Add(1)
			go func(req wireRequest) {
				defer cells.Done()
				defer cancel()
				if req.Op == opExecute {
					stop := guardMemory(cancel)
					r := w.s.Execute(ctx, req.Code, workerEvents{w, req.ID, req.MsgID})
					if tripped, held := stop(); tripped {
						r = interp.Result{Err: memoryGuardError(held)}
						runtime.GC() // what the stopped cell held, back
						debug.FreeOSMemory()
					}
					if r.Value != nil {
						v := bounded(*r.Value)
						r.Value = &v
					}
					w.send(wireReply{ID: req.ID, Kind: replyDone, Result: &r})
				} else {
					b, err := w.s.Evaluate(ctx, req.Code)
					b = bounded(b)
					w.send(wireReply{ID: req.ID, Kind: replyDone, Bundle: &b, Err: err})
				}
			}(req)
		case opInput:
			w.mu.Lock()
			if ch := w.inputs[req.ID]; ch != nil {
				select {
				case ch <- req:
				default: // an answer already came; the client sends one per request
				}
			}
			w.mu.Unlock()
		case opInterrupt:
			w.mu.Lock()
			if w.cancel != nil {
				w.cancel()
			}
			w.mu.Unlock()
		case opComplete:
			c := w.s.Complete(req.Code, req.Cursor)
			w.send(wireReply{ID: req.ID, Kind: replyDone, Completion: &c})
		case opInspect:
			b, found := w.s.Inspect(req.Code, req.Cursor, req.Detail)
			w.send(wireReply{ID: req.ID, Kind: replyDone, Bundle: &b, Found: found})
		case opIsComplete:
			status, indent := w.s.IsComplete(req.Code)
			w.send(wireReply{ID: req.ID, Kind: replyDone, Status: status, Indent: indent})
		case opReset:
			go func(id int64) {
				var e *interp.Error
				if err := w.s.Reset(); err != nil {
					e = &interp.Error{Name: "ResetFailed", Value: err.Error()}
				}
				w.send(wireReply{ID: id, Kind: replyDone, Err: e})
			}(req.ID)
		default:
			w.send(wireReply{ID: req.ID, Kind: replyDone, Err: &interp.Error{Name: "ProtocolError", Value: "interp: worker: unknown operation " + req.Op}})
		}
	}
}

// workerEvents forwards a cell's events to the supervisor.
type workerEvents struct {
	w     *worker
	id    int64
	msgID string // the client's request, for comm.Request
}

var _ interp.CommEvents = workerEvents{}

func (e workerEvents) Comm(m comm.Message) {
	e.w.send(wireReply{ID: e.id, Kind: replyComm, Comm: &m})
}

func (e workerEvents) MsgID() string { return e.msgID }

func (e workerEvents) Stream(name, text string) {
	e.w.send(wireReply{ID: e.id, Kind: replyStream, Name: name, Text: text})
}

func (e workerEvents) Display(b display.Bundle, id string, update bool) {
	b = bounded(b)
	e.w.send(wireReply{ID: e.id, Kind: replyDisplay, Bundle: &b, DisplayID: id, Update: update})
}

func (e workerEvents) Clear(wait bool) {
	e.w.send(wireReply{ID: e.id, Kind: replyClear, Wait: wait})
}

// Input asks the supervisor, and through it the client, for a line of
// input; the supervisor answers interp.ErrNoInput when its Events cannot
// ask.
func (e workerEvents) Input(ctx context.Context, prompt string, password bool) (string, error) {
	ch := make(chan wireRequest, 1)
	e.w.mu.Lock()
	if e.w.inputs == nil {
		e.w.inputs = map[int64]chan wireRequest{}
	}
	e.w.inputs[e.id] = ch
	e.w.mu.Unlock()
	defer func() {
		e.w.mu.Lock()
		delete(e.w.inputs, e.id)
		e.w.mu.Unlock()
	}()
	e.w.send(wireReply{ID: e.id, Kind: replyInput, Text: prompt, Password: password})
	select {
	case r := <-ch:
		return r.Input, inputError(r.InputErr)
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
