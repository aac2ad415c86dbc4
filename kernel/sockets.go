package kernel

import (
	"context"
	"fmt"
	"log"
	"net"
	"os"
	"time"

	"github.com/go-zeromq/zmq4"
)

// sockets are the five ZeroMQ sockets of a kernel, bound to the addresses
// of the connection file. The kernel serves shell, control, stdin and
// iopub itself (router.go, pub.go); the heartbeat is zmq4's.
type sockets struct {
	shell, control, stdin *routerSocket
	iopub                 *pubSocket
	hb                    zmq4.Socket
	files                 []string // the ipc transport's socket files, removed on close
}

// sendTimeout bounds a heartbeat's send to a client that has gone away.
const sendTimeout = 10 * time.Second

// receivers are what the ROUTER sockets hand their messages to.
type receivers struct {
	shell, control, stdin func(frames [][]byte)
}

// bind makes the sockets and binds them. Each listener checks what the
// channel's peers send (zmtp.go): the Socket-Types that may connect, the
// largest message, the handshake's deadline. Messages reach got once
// start is called.
func bind(ctx context.Context, info ConnectionInfo, cfg Config, lg *log.Logger, got receivers) (*sockets, error) {
	wire := func(name string, maxMessage int64, peers ...string) wireConfig {
		note := ""
		if maxMessage == cfg.MaxMessage {
			note = " (Config.MaxMessage)"
		}
		return wireConfig{role: wireRole{name: name, peers: peers, maxMessage: maxMessage, limitNote: note,
			subscriptionsOnly: name == "iopub"},
			handshake: cfg.HandshakeTimeout, write: cfg.WriteTimeout, log: lg}
	}
	dealers := []string{"DEALER", "REQ", "ROUTER"} // what may connect to a ROUTER
	s := &sockets{}
	for _, b := range []struct {
		name string
		port int
		make func(l net.Listener)
	}{
		{"shell", info.ShellPort, func(l net.Listener) { s.shell = listenRouter(l, wire("shell", cfg.MaxMessage, dealers...), got.shell) }},
		{"control", info.ControlPort, func(l net.Listener) {
			s.control = listenRouter(l, wire("control", cfg.MaxMessage, dealers...), got.control)
		}},
		{"stdin", info.StdinPort, func(l net.Listener) { s.stdin = listenRouter(l, wire("stdin", cfg.MaxMessage, dealers...), got.stdin) }},
		{"iopub", info.IOPubPort, func(l net.Listener) { s.iopub = listenPub(l, wire("iopub", iopubMaxMessage, "SUB", "XSUB")) }},
	} {
		l, err := info.listenRaw(b.port)
		if err != nil {
			s.close()
			return nil, bindError(b.name, info, b.port, err)
		}
		b.make(l)
		if f := info.ipcFile(b.port); f != "" { // ours only once bound: another kernel's is not removed
			s.files = append(s.files, f)
		}
	}
	s.hb = zmq4.NewRep(withWire(ctx, wire("hb", hbMaxMessage, "REQ", "DEALER")), zmq4.WithTimeout(sendTimeout))
	if err := s.hb.Listen(info.listenEndpoint(info.HBPort)); err != nil {
		s.close()
		return nil, bindError("hb", info, info.HBPort, err)
	}
	if f := info.ipcFile(info.HBPort); f != "" {
		s.files = append(s.files, f)
	}
	return s, nil
}

func bindError(name string, info ConnectionInfo, port int, err error) error {
	return fmt.Errorf("kernel: cannot bind the %s socket to %s (is another kernel using the port?): %w",
		name, info.Endpoint(port), err)
}

// start lets received messages reach the receivers.
func (s *sockets) start() {
	for _, r := range []*routerSocket{s.shell, s.control, s.stdin} {
		r.start()
	}
}

func (s *sockets) Send(ch Channel, frames [][]byte) error {
	switch ch {
	case Shell:
		return s.shell.Send(frames)
	case Control:
		return s.control.Send(frames)
	case Stdin:
		return s.stdin.Send(frames)
	default:
		return s.iopub.Send(frames)
	}
}

// WaitSubscriber waits at most d for a client to subscribe to iopub and
// reports whether one has.
func (s *sockets) WaitSubscriber(d time.Duration) bool {
	return s.iopub.WaitSubscriber(d)
}

func (s *sockets) close() {
	for _, r := range []*routerSocket{s.shell, s.control, s.stdin} {
		if r != nil {
			r.Close()
		}
	}
	if s.iopub != nil {
		s.iopub.Close()
	}
	if s.hb != nil {
		s.hb.Close()
	}
	for _, f := range s.files {
		os.Remove(f)
	}
}

// Serve binds the sockets of info and serves until a shutdown request has
// been answered or ctx is done. The engine is closed on the way out.
func (k *Kernel) Serve(ctx context.Context, info ConnectionInfo) error {
	if err := info.check(); err != nil {
		return fmt.Errorf("kernel: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	socks, err := bind(ctx, info, k.cfg, k.log, receivers{
		shell:   k.Enqueue,
		control: func(f [][]byte) { k.Handle(Control, 0, f) },
		stdin:   k.HandleStdin,
	})
	if err != nil {
		return err
	}
	defer socks.close()
	if !k.signer.Enabled() {
		// As jupyter_client warns: with no key, anyone who can reach the
		// ports runs code as this user.
		k.log.Printf("kernel: WARNING: the connection file's key is empty: messages are not authenticated, " +
			"and anyone who can reach the kernel's ports can run code as this user")
	}
	k.sink = socks
	k.info = info
	socks.start()
	go func() {
		for {
			msg, err := socks.hb.Recv()
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				continue
			}
			socks.hb.Send(msg)
		}
	}()

	k.PublishStarting()
	shellDone := make(chan struct{})
	go func() { k.RunShell(ctx); close(shellDone) }()

	select {
	case <-k.stop:
	case <-ctx.Done():
	}
	k.Interrupt()
	select {
	case <-shellDone:
	case <-time.After(3 * time.Second):
		k.log.Printf("kernel: the running cell did not stop within 3s of shutdown")
	}
	if err := k.engine.Close(); err != nil {
		k.log.Printf("kernel: closing the interpreter: %v", err)
	}
	cancel()
	return nil
}
