package kernel

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"time"

	"github.com/go-zeromq/zmq4"
)

// sockets are the five ZeroMQ sockets of a kernel, bound to the addresses
// of the connection file.
type sockets struct {
	shell, control, stdin, hb zmq4.Socket
	iopub                     *pubSocket // the kernel's own (pub.go)
	files                     []string   // the ipc transport's socket files, removed on close
}

// sendTimeout bounds a send to a client that has gone away.
const sendTimeout = 10 * time.Second

// bind makes the sockets and binds them. Each socket's context carries
// what its listener checks of the peers' bytes (zmtp.go): the Socket-Types
// that may connect, the largest message, the handshake's deadline.
func bind(ctx context.Context, info ConnectionInfo, cfg Config, lg *log.Logger) (*sockets, error) {
	opt := zmq4.WithTimeout(sendTimeout)
	wire := func(name string, maxMessage int64, peers ...string) context.Context {
		subscriptionsOnly := name == "iopub"
		note := ""
		if maxMessage == cfg.MaxMessage {
			note = " (Config.MaxMessage)"
		}
		return withWire(ctx, wireConfig{role: wireRole{name: name, peers: peers, maxMessage: maxMessage, limitNote: note,
			subscriptionsOnly: subscriptionsOnly},
			handshake: cfg.HandshakeTimeout, write: cfg.WriteTimeout, log: lg})
	}
	dealers := []string{"DEALER", "REQ", "ROUTER"} // what may connect to a ROUTER
	s := &sockets{
		shell:   zmq4.NewRouter(wire("shell", cfg.MaxMessage, dealers...), opt),
		control: zmq4.NewRouter(wire("control", cfg.MaxMessage, dealers...), opt),
		stdin:   zmq4.NewRouter(wire("stdin", cfg.MaxMessage, dealers...), opt),
		hb:      zmq4.NewRep(wire("hb", hbMaxMessage, "REQ", "DEALER"), opt),
	}
	for _, b := range []struct {
		name string
		sock zmq4.Socket
		port int
	}{
		{"shell", s.shell, info.ShellPort}, {"control", s.control, info.ControlPort},
		{"stdin", s.stdin, info.StdinPort}, {"iopub", nil, info.IOPubPort}, {"hb", s.hb, info.HBPort},
	} {
		var err error
		if b.sock == nil {
			var l net.Listener
			if l, err = info.listenRaw(b.port); err == nil {
				s.iopub = listenPub(l, wireFrom(wire(b.name, iopubMaxMessage, "SUB", "XSUB")))
			}
		} else {
			err = b.sock.Listen(info.listenEndpoint(b.port))
		}
		if err != nil {
			s.close()
			return nil, fmt.Errorf("kernel: cannot bind the %s socket to %s (is another kernel using the port?): %w",
				b.name, info.Endpoint(b.port), err)
		}
		if f := info.ipcFile(b.port); f != "" { // ours only once bound: another kernel's is not removed
			s.files = append(s.files, f)
		}
	}
	return s, nil
}

func (s *sockets) Send(ch Channel, frames [][]byte) error {
	var sock zmq4.Socket
	switch ch {
	case Shell:
		sock = s.shell
	case Control:
		sock = s.control
	case IOPub:
		return s.iopub.Send(frames)
	case Stdin:
		sock = s.stdin
	}
	return sock.SendMulti(zmq4.NewMsgFrom(frames...))
}

// WaitSubscriber waits at most d for a client to subscribe to iopub and
// reports whether one has.
func (s *sockets) WaitSubscriber(d time.Duration) bool {
	return s.iopub.WaitSubscriber(d)
}

func (s *sockets) close() {
	for _, sock := range []zmq4.Socket{s.shell, s.control, s.stdin, s.hb} {
		sock.Close()
	}
	if s.iopub != nil {
		s.iopub.Close()
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
	socks, err := bind(ctx, info, k.cfg, k.log)
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

	recvLoop := func(sock zmq4.Socket, got func([][]byte)) {
		for {
			msg, err := sock.Recv()
			if err != nil {
				if ctx.Err() != nil || errors.Is(err, context.Canceled) {
					return
				}
				k.log.Printf("kernel: receive: %v", err)
				continue
			}
			got(msg.Frames)
		}
	}
	go recvLoop(socks.shell, k.Enqueue)
	go recvLoop(socks.control, func(f [][]byte) { k.Handle(Control, 0, f) })
	go recvLoop(socks.stdin, k.HandleStdin)
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
