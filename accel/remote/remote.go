package remote

import (
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/ir"
)

var (
	_ accel.Backend  = (*Client)(nil)
	_ accel.Compiled = (*Program)(nil)
)

// WorkerName is the CUDA worker binary `make cuda` builds.
const WorkerName = "gobayes-cuda"

func init() {
	accel.Register("cuda", func() (accel.Backend, error) { return StartWorker("cuda", WorkerName) })
}

// Ops of the protocol.
const (
	OpHello    = "hello"
	OpCompile  = "compile"
	OpBlock    = "block" // one block of rows of the next sharded compile
	OpEval     = "eval"
	OpLeapfrog = "leapfrog"
	OpWalk     = "walk"    // a segment of random-walk Metropolis (accel.Walker)
	OpIterate  = "iterate" // an iteration of lockstep HMC (accel.Iterator)
	OpNUTS     = "nuts"    // a segment of lockstep NUTS (accel.NUTSRunner)
	OpSuits    = "suits"   // whether walks, iterations and NUTS of B chains suit the device
	OpClose    = "close"
)

// Request is one call from the client.
type Request struct {
	Op      string
	Handle  int         // the compiled program (OpEval, OpLeapfrog, OpClose)
	Program *ir.Program // OpCompile
	// Sharded makes OpCompile a sharded compile (accel.ShardedBackend):
	// Program is the main program, and the blocks of rows are the ones
	// sent before it by OpBlock, one per request, so that no message holds
	// all the data at once.
	Sharded bool
	B       int       // OpEval: batch size
	Xs      []float64 // OpEval: positions
	Grad    bool      // OpEval: gradients wanted
	Traj    *accel.Trajectories
	Walk    *accel.Walk         // OpWalk
	Iter    *accel.HMCIteration // OpIterate
	NUTS    *accel.NUTSSegment  // OpNUTS
}

// Response answers one Request; Err is the backend's error text.
type Response struct {
	Err    string
	Name   string // OpHello: the backend's name
	Info   string // OpHello: the device, for the notebook's message
	Handle int
	Dim    int
	Lps    []float64
	Grads  []float64
	Traj   *accel.Trajectories
	Walk   *accel.Walk         // OpWalk
	Iter   *accel.HMCIteration // OpIterate
	NUTS   *accel.NUTSSegment  // OpNUTS
	// OpCompile: the program runs walks and HMC iterations on its device
	// (accel.Walker and accel.Iterator).
	Device bool
	// OpSuits: walks, iterations and NUTS of B chains suit the device.
	Walks, Iterates, RunsNUTS bool
	// OpCompile: the program also runs NUTS on its device.
	NUTSDevice bool
}

// Client is a backend in another process.
type Client struct {
	name, info string
	mu         sync.Mutex // one request at a time on the pipe
	enc        *gob.Encoder
	dec        *gob.Decoder
	closer     io.Closer
	cmd        *exec.Cmd
}

// Name is the remote backend's name.
func (c *Client) Name() string { return c.name }

// Info describes the remote device (from the worker's hello).
func (c *Client) Info() string { return c.info }

// FindWorker returns the path of the worker binary name: the environment
// variable GOBAYES_CUDA_WORKER, a file beside the running executable, or
// PATH, in that order.
func FindWorker(name string) (string, error) {
	if p := os.Getenv("GOBAYES_CUDA_WORKER"); p != "" {
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%w: the %s worker was not found (GOBAYES_CUDA_WORKER, beside the executable, PATH); build it with `make cuda` on a machine with the CUDA toolkit",
		accel.ErrNotInstalled, name)
}

// StartWorker starts the worker binary and greets it; the error says why
// it could not start (no binary, no CUDA driver, no device).
func StartWorker(backend, name string) (*Client, error) {
	path, err := FindWorker(name)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w: starting %s: %v", accel.ErrUnavailable, path, err)
	}
	c, err := NewClient(out, in)
	if err != nil {
		in.Close()
		cmd.Wait()
		return nil, fmt.Errorf("%w: the %s worker %s did not start: %v; its output: %q",
			accel.ErrUnavailable, backend, path, err, stderr.String())
	}
	c.cmd = cmd
	return c, nil
}

// NewClient speaks the protocol over r and w (a worker's stdout and
// stdin) and greets the server.
func NewClient(r io.Reader, w io.WriteCloser) (*Client, error) {
	c := &Client{enc: gob.NewEncoder(w), dec: gob.NewDecoder(r), closer: w}
	resp, err := c.call(&Request{Op: OpHello})
	if err != nil {
		return nil, err
	}
	c.name, c.info = resp.Name, resp.Info
	return c, nil
}

// ErrStopped marks a call that failed because the worker's end of the
// link is gone (the process ended, or the connection broke).
var ErrStopped = errors.New("the worker has stopped")

func (c *Client) call(req *Request) (*Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.enc.Encode(req); err != nil {
		return nil, fmt.Errorf("remote: sending %s: %v (%w)", req.Op, err, ErrStopped)
	}
	var resp Response
	if err := c.dec.Decode(&resp); err != nil {
		return nil, fmt.Errorf("remote: reading the answer to %s: %v (%w)", req.Op, err, ErrStopped)
	}
	if resp.Err != "" {
		return nil, errors.New(resp.Err)
	}
	return &resp, nil
}

// Compile sends the program to the worker.
func (c *Client) Compile(p *ir.Program) (accel.Compiled, error) {
	resp, err := c.call(&Request{Op: OpCompile, Program: p})
	if err != nil {
		return nil, err
	}
	return program(c, resp), nil
}

// CompileSharded sends a sharded log density (main and its blocks of
// rows) to a worker whose backend places the blocks itself
// (accel.ShardedBackend, such as an MPI job); other workers refuse it.
func (c *Client) CompileSharded(main *ir.Program, blocks []*ir.Program) (accel.Compiled, error) {
	for _, b := range blocks {
		if _, err := c.call(&Request{Op: OpBlock, Program: b}); err != nil {
			return nil, err
		}
	}
	resp, err := c.call(&Request{Op: OpCompile, Program: main, Sharded: true})
	if err != nil {
		return nil, err
	}
	return program(c, resp), nil
}

// Shutdown closes the pipe and waits for the worker.
func (c *Client) Shutdown() error {
	err := c.closer.Close()
	if c.cmd != nil {
		err = c.cmd.Wait()
	}
	return err
}

// Program is a program compiled in the worker.
type Program struct {
	c      *Client
	handle int
	dim    int
}

// Dim is the position length.
func (p *Program) Dim() int { return p.dim }

// LogDensityGrad evaluates a batch in the worker.
func (p *Program) LogDensityGrad(xs, lps, grads []float64) error {
	if err := accel.CheckBatch(p.dim, xs, lps, grads); err != nil {
		return err
	}
	resp, err := p.c.call(&Request{Op: OpEval, Handle: p.handle, B: len(lps), Xs: xs, Grad: grads != nil})
	if err != nil {
		return err
	}
	if len(resp.Lps) != len(lps) || grads != nil && len(resp.Grads) != len(grads) {
		return fmt.Errorf("remote: the worker answered %d log densities and %d gradient values for a batch of %d", len(resp.Lps), len(resp.Grads), len(lps))
	}
	copy(lps, resp.Lps)
	copy(grads, resp.Grads)
	return nil
}

// Leapfrog runs the trajectories in the worker.
func (p *Program) Leapfrog(t *accel.Trajectories) error {
	if err := t.Check(p.dim); err != nil {
		return err
	}
	resp, err := p.c.call(&Request{Op: OpLeapfrog, Handle: p.handle, Traj: t})
	if err != nil {
		return err
	}
	r := resp.Traj
	if r == nil || r.Check(p.dim) != nil || len(r.LogDensity) != len(t.LogDensity) {
		return fmt.Errorf("remote: the worker answered a malformed trajectory batch")
	}
	copy(t.Q, r.Q)
	copy(t.P, r.P)
	copy(t.Grad, r.Grad)
	copy(t.LogDensity, r.LogDensity)
	copy(t.Steps, r.Steps)
	return nil
}

// program is the client's side of a compiled program: a DeviceProgram
// where the worker's runs the samplers' steps on its device.
func program(c *Client, resp *Response) accel.Compiled {
	p := &Program{c: c, handle: resp.Handle, dim: resp.Dim}
	switch {
	case resp.Device && resp.NUTSDevice:
		return &NUTSProgram{&DeviceProgram{p}}
	case resp.Device:
		return &DeviceProgram{p}
	}
	return p
}

// DeviceProgram is a Program whose worker runs the samplers' steps next
// to the chains (accel.Walker, accel.Iterator): a segment of random-walk
// steps or an HMC iteration is one round trip, the chains' state staying
// in the worker.
type DeviceProgram struct{ *Program }

// suits asks the worker whether walks and iterations of n chains suit its
// device.
func (p *DeviceProgram) suits(n int) (walks, iterates bool) {
	resp, err := p.c.call(&Request{Op: OpSuits, Handle: p.handle, B: n})
	if err != nil {
		return false, false
	}
	return resp.Walks, resp.Iterates
}

// Walks asks the worker (accel.Walker).
func (p *DeviceProgram) Walks(n int) bool { w, _ := p.suits(n); return w }

// Iterates asks the worker (accel.Iterator).
func (p *DeviceProgram) Iterates(n int) bool { _, i := p.suits(n); return i }

// Iterate runs an HMC iteration in the worker. Only what the call needs
// travels: the metric and the state when loading; back, the sums, the
// kept chains' draw, and the state when reading.
func (p *DeviceProgram) Iterate(it *accel.HMCIteration) error {
	req := *it
	req.SumX, req.SumAXp, req.CrossMean, req.CrossVar = nil, nil, nil, nil
	req.KeptX, req.KeptLP, req.KeptAlpha, req.KeptDiv, req.KeptEnergy = nil, nil, nil, nil, nil
	req.Mean, req.M2 = nil, nil
	if !it.Load {
		req.X, req.Grad, req.LP = nil, nil, nil
	}
	resp, err := p.c.call(&Request{Op: OpIterate, Handle: p.handle, Iter: &req})
	if err != nil {
		return err
	}
	r, d := resp.Iter, p.dim
	switch {
	case r == nil,
		it.Warm && it.Steps > 0 && (len(r.SumX) != d || len(r.SumAXp) != d || len(r.CrossMean) != d || len(r.CrossVar) != d),
		it.Keep > 0 && it.Steps > 0 && (len(r.KeptX) != d*it.Keep || len(r.KeptLP) != it.Keep || len(r.KeptAlpha) != it.Keep ||
			len(r.KeptDiv) != it.Keep || len(r.KeptEnergy) != it.Keep),
		it.Read && (len(r.X) != len(it.X) || len(r.Grad) != len(it.Grad) || len(r.LP) != len(it.LP) ||
			len(r.Mean) != len(it.Mean) || len(r.M2) != len(it.M2)):
		return fmt.Errorf("remote: the worker answered a malformed HMC iteration")
	}
	it.SumA, it.SumInvA, it.Criterion = r.SumA, r.SumInvA, r.Criterion
	it.SumX, it.SumAXp, it.CrossMean, it.CrossVar = r.SumX, r.SumAXp, r.CrossMean, r.CrossVar
	it.KeptX, it.KeptLP, it.KeptAlpha, it.KeptDiv, it.KeptEnergy = r.KeptX, r.KeptLP, r.KeptAlpha, r.KeptDiv, r.KeptEnergy
	if it.Read {
		copy(it.X, r.X)
		copy(it.Grad, r.Grad)
		copy(it.LP, r.LP)
		copy(it.Mean, r.Mean)
		copy(it.M2, r.M2)
	}
	return nil
}

// Walk runs a segment in the worker. Only what the call needs travels:
// the scales, the state when loading; back, the count, the kept chains'
// draws, and the state when reading.
func (p *DeviceProgram) Walk(w *accel.Walk) error {
	if err := w.Check(p.dim); err != nil {
		return err
	}
	req := *w
	req.KeptX, req.KeptLP, req.KeptAcc, req.Mean, req.M2 = nil, nil, nil, nil, nil
	if !w.Load {
		req.X, req.LP = nil, nil
	}
	resp, err := p.c.call(&Request{Op: OpWalk, Handle: p.handle, Walk: &req})
	if err != nil {
		return err
	}
	r := resp.Walk
	nx, nl := w.KeptLen(p.dim)
	if r == nil || len(r.KeptX) != nx || len(r.KeptLP) != nl || len(r.KeptAcc) != nl ||
		w.Read && (len(r.X) != len(w.X) || len(r.LP) != len(w.LP) || len(r.Mean) != len(w.Mean) || len(r.M2) != len(w.M2)) {
		return fmt.Errorf("remote: the worker answered a malformed walk")
	}
	w.Accepted, w.KeptX, w.KeptLP, w.KeptAcc = r.Accepted, r.KeptX, r.KeptLP, r.KeptAcc
	if w.Read {
		copy(w.X, r.X)
		copy(w.LP, r.LP)
		copy(w.Mean, r.Mean)
		copy(w.M2, r.M2)
	}
	return nil
}

// NUTSProgram is a DeviceProgram whose worker also runs NUTS next to the
// chains (accel.NUTSRunner): a segment of iterations is one round trip.
type NUTSProgram struct{ *DeviceProgram }

// RunsNUTS asks the worker (accel.NUTSRunner).
func (p *NUTSProgram) RunsNUTS(n int) bool {
	resp, err := p.c.call(&Request{Op: OpSuits, Handle: p.handle, B: n})
	return err == nil && resp.RunsNUTS
}

// RunNUTS runs a segment in the worker. Only what the call needs
// travels: the state when loading; back, the kept chains' draws, the
// heuristic's failure, and the state when reading.
func (p *NUTSProgram) RunNUTS(s *accel.NUTSSegment) error {
	if err := s.Check(p.dim); err != nil {
		return err
	}
	req := *s
	req.KeptX, req.KeptStats = nil, nil
	req.Mean, req.M2, req.StepSizes, req.InvMetric, req.GradEvals = nil, nil, nil, nil, nil
	if !s.Load {
		req.X, req.Grad, req.LP = nil, nil, nil
	}
	resp, err := p.c.call(&Request{Op: OpNUTS, Handle: p.handle, NUTS: &req})
	if err != nil {
		return err
	}
	r, d, n := resp.NUTS, p.dim, s.Chains
	nk := 0
	if s.Steps > 0 {
		nk = s.Steps * s.Keep
	}
	if r == nil || len(r.KeptX) != nk*d || len(r.KeptStats) != nk*accel.NUTSKeptStats ||
		s.Read && (len(r.X) != n*d || len(r.Grad) != n*d || len(r.LP) != n || len(r.Mean) != n*d || len(r.M2) != n*d ||
			len(r.StepSizes) != n || len(r.InvMetric) != n*d || len(r.GradEvals) != n) {
		return fmt.Errorf("remote: the worker answered a malformed NUTS segment")
	}
	s.KeptX, s.KeptStats, s.Failed, s.FailedStepSize = r.KeptX, r.KeptStats, r.Failed, r.FailedStepSize
	if s.Read {
		for _, v := range [][2][]float64{{s.X, r.X}, {s.Grad, r.Grad}, {s.LP, r.LP}, {s.Mean, r.Mean}, {s.M2, r.M2},
			{s.StepSizes, r.StepSizes}, {s.InvMetric, r.InvMetric}, {s.GradEvals, r.GradEvals}} {
			copy(v[0], v[1])
		}
	}
	return nil
}

// Close frees the program in the worker.
func (p *Program) Close() error {
	_, err := p.c.call(&Request{Op: OpClose, Handle: p.handle})
	return err
}

// InProcess serves b behind the worker protocol in a goroutine, through
// in-memory pipes, and returns a client of it: the protocol without a
// worker process (tests; a backend that must be reached through the
// protocol). stop closes the pipes and returns Serve's error.
func InProcess(b accel.Backend, info string) (c *Client, stop func() error, err error) {
	cr, sw := io.Pipe() // server → client
	sr, cw := io.Pipe() // client → server
	done := make(chan error, 1)
	go func() {
		done <- Serve(sr, sw, b, info)
		sw.Close()
	}()
	c, err = NewClient(cr, cw)
	if err != nil {
		cw.Close()
		<-done
		return nil, nil, err
	}
	return c, func() error {
		cw.Close()
		return <-done
	}, nil
}

// Serve answers requests from r on w with backend b until r ends; info
// describes the device in the hello. The worker binary's main calls it
// with stdin and stdout.
func Serve(r io.Reader, w io.Writer, b accel.Backend, info string) error {
	dec, enc := gob.NewDecoder(r), gob.NewEncoder(w)
	progs := map[int]accel.Compiled{}
	next := 0
	var pending []*ir.Program // blocks of the next sharded compile (OpBlock)
	defer func() {
		for _, c := range progs {
			c.Close()
		}
	}()
	for {
		var req Request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		var resp Response
		fail := func(err error) { resp.Err = err.Error() }
		switch req.Op {
		case OpHello:
			resp.Name, resp.Info = b.Name(), info
		case OpCompile:
			if req.Program == nil {
				fail(fmt.Errorf("remote: compile without a program"))
				break
			}
			var c accel.Compiled
			var err error
			if req.Sharded {
				blocks := pending
				pending = nil
				sb, ok := b.(accel.ShardedBackend)
				if !ok {
					fail(fmt.Errorf("remote: the %s backend does not place the blocks of a sharded model", b.Name()))
					break
				}
				c, err = sb.CompileSharded(req.Program, blocks)
			} else {
				c, err = b.Compile(req.Program)
			}
			if err != nil {
				fail(err)
				break
			}
			next++
			progs[next] = c
			resp.Handle, resp.Dim = next, c.Dim()
			_, walks := c.(accel.Walker)
			_, iterates := c.(accel.Iterator)
			resp.Device = walks && iterates
			_, resp.NUTSDevice = c.(accel.NUTSRunner)
		case OpBlock:
			if req.Program == nil {
				fail(fmt.Errorf("remote: a block without a program"))
				break
			}
			pending = append(pending, req.Program)
		case OpEval, OpLeapfrog, OpWalk, OpIterate, OpNUTS, OpSuits, OpClose:
			c, ok := progs[req.Handle]
			if !ok {
				fail(fmt.Errorf("remote: no program %d in the worker", req.Handle))
				break
			}
			switch req.Op {
			case OpEval:
				resp.Lps = make([]float64, req.B)
				if req.Grad {
					resp.Grads = make([]float64, req.B*c.Dim())
				}
				if err := c.LogDensityGrad(req.Xs, resp.Lps, resp.Grads); err != nil {
					fail(err)
				}
			case OpLeapfrog:
				if req.Traj == nil {
					fail(fmt.Errorf("remote: leapfrog without trajectories"))
				} else if err := c.Leapfrog(req.Traj); err != nil {
					fail(err)
				} else {
					resp.Traj = req.Traj
				}
			case OpWalk:
				wk, ok := c.(accel.Walker)
				w := req.Walk
				switch {
				case !ok:
					fail(fmt.Errorf("remote: the %s backend does not run walks", b.Name()))
				case w == nil:
					fail(fmt.Errorf("remote: walk without its parameters"))
				default:
					n, d := w.Chains, c.Dim()
					if w.Read && !w.Load && n > 0 && n*d > 0 {
						w.X, w.LP = make([]float64, n*d), make([]float64, n)
					}
					if w.Read && n > 0 {
						w.Mean, w.M2 = make([]float64, n*d), make([]float64, n*d)
					}
					if err := wk.Walk(w); err != nil {
						fail(err)
					} else {
						w.Scale = nil
						if !w.Read {
							w.X, w.LP = nil, nil
						}
						resp.Walk = w
					}
				}
			case OpSuits:
				if wk, ok := c.(accel.Walker); ok {
					resp.Walks = wk.Walks(req.B)
				}
				if ik, ok := c.(accel.Iterator); ok {
					resp.Iterates = ik.Iterates(req.B)
				}
				if nr, ok := c.(accel.NUTSRunner); ok {
					resp.RunsNUTS = nr.RunsNUTS(req.B)
				}
			case OpNUTS:
				nr, ok := c.(accel.NUTSRunner)
				s := req.NUTS
				switch {
				case !ok:
					fail(fmt.Errorf("remote: the %s backend does not run NUTS", b.Name()))
				case s == nil:
					fail(fmt.Errorf("remote: NUTS without its parameters"))
				default:
					n, d := s.Chains, c.Dim()
					if s.Read && n > 0 {
						if !s.Load {
							s.X, s.Grad, s.LP = make([]float64, n*d), make([]float64, n*d), make([]float64, n)
						}
						s.Mean, s.M2, s.InvMetric = make([]float64, n*d), make([]float64, n*d), make([]float64, n*d)
						s.StepSizes, s.GradEvals = make([]float64, n), make([]float64, n)
					}
					if err := nr.RunNUTS(s); err != nil {
						fail(err)
					} else {
						if !s.Read {
							s.X, s.Grad, s.LP = nil, nil, nil
						}
						resp.NUTS = s
					}
				}
			case OpIterate:
				ik, ok := c.(accel.Iterator)
				it := req.Iter
				switch {
				case !ok:
					fail(fmt.Errorf("remote: the %s backend does not run HMC iterations", b.Name()))
				case it == nil:
					fail(fmt.Errorf("remote: iterate without its parameters"))
				default:
					n, d := it.Chains, c.Dim()
					if it.Read && n > 0 {
						if !it.Load {
							it.X, it.Grad, it.LP = make([]float64, n*d), make([]float64, n*d), make([]float64, n)
						}
						it.Mean, it.M2 = make([]float64, n*d), make([]float64, n*d)
					}
					if err := ik.Iterate(it); err != nil {
						fail(err)
					} else {
						it.InvMetric, it.SqrtInvMetric = nil, nil
						if !it.Read {
							it.X, it.Grad, it.LP = nil, nil, nil
						}
						resp.Iter = it
					}
				}
			case OpClose:
				delete(progs, req.Handle)
				if err := c.Close(); err != nil {
					fail(err)
				}
			}
		default:
			fail(fmt.Errorf("remote: unknown request %q", req.Op))
		}
		if err := enc.Encode(&resp); err != nil {
			return err
		}
	}
}

// limitedBuffer keeps the first 4 KiB written to it (a worker's stderr).
type limitedBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := 4096 - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (b *limitedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
