package kernel

import (
	"bufio"
	"context"
	"encoding/binary"
	"net"
	"strconv"
	"sync"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"
)

// wholeTCP is the transport the heartbeat (the one socket left to zmq4)
// listens on: TCP whose
// connections write each ZeroMQ message in one system call and read
// through a buffer. zmq4 writes a ROUTER socket's message (a reply on
// shell) as two writes per frame, a dozen TCP segments that the client's
// ZeroMQ wakes up for one by one, and reads every frame with two reads;
// on a busy machine those system calls and wake-ups were a large part of
// a cell's round trip.
const wholeTCP = "gobayes+tcp"

// wholeIPC is the same over Unix domain sockets, for connection files
// whose transport is ipc: their listeners are guarded as the TCP ones.
const wholeIPC = "gobayes+ipc"

func init() {
	if err := zmq4.RegisterTransport(wholeTCP, wholeTransport{transport.New("tcp")}); err != nil {
		panic("kernel: " + err.Error())
	}
	if err := zmq4.RegisterTransport(wholeIPC, wholeTransport{transport.New("unix")}); err != nil {
		panic("kernel: " + err.Error())
	}
}

// listenEndpoint is the endpoint a kernel socket binds for port: the
// connection file's, over wholeTCP or wholeIPC.
func (c ConnectionInfo) listenEndpoint(port int) string {
	if c.Transport == "ipc" {
		return wholeIPC + "://" + c.IP + "-" + strconv.Itoa(port)
	}
	return wholeTCP + "://" + c.IP + ":" + strconv.Itoa(port)
}

// listenRaw listens on the address of port without zmq4: for the sockets
// the kernel serves itself (iopub).
func (c ConnectionInfo) listenRaw(port int) (net.Listener, error) {
	if c.Transport == "ipc" {
		return net.Listen("unix", c.IP+"-"+strconv.Itoa(port))
	}
	addr, err := transport.New("tcp").Addr(c.IP + ":" + strconv.Itoa(port))
	if err != nil {
		return nil, err
	}
	return net.Listen("tcp", addr)
}

// ipcFile is the file of port's Unix domain socket, "" over TCP. zmq4
// removes the files of its own ipc transport only.
func (c ConnectionInfo) ipcFile(port int) string {
	if c.Transport != "ipc" {
		return ""
	}
	return c.IP + "-" + strconv.Itoa(port)
}

type wholeTransport struct{ inner transport.Transport }

func (t wholeTransport) Dial(ctx context.Context, d transport.Dialer, addr string) (net.Conn, error) {
	c, err := t.inner.Dial(ctx, d, addr)
	if err != nil {
		return nil, err
	}
	return newWholeConn(c), nil
}

// Listen listens on addr behind a guardListener (zmtp.go), configured by
// the wireConfig in ctx, which is the context of the socket.
func (t wholeTransport) Listen(ctx context.Context, addr string) (net.Listener, error) {
	l, err := t.inner.Listen(ctx, addr)
	if err != nil {
		return nil, err
	}
	return wholeListener{newGuardListener(l, wireFrom(ctx))}, nil
}

func (t wholeTransport) Addr(ep string) (string, error) { return t.inner.Addr(ep) }

type wholeListener struct{ net.Listener }

func (l wholeListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return newWholeConn(c), nil
}

// ZMTP 3 framing: a 64-byte greeting, then frames of a flags byte, a size
// (one byte, or eight with flagLong) and the body. A frame without
// flagMore ends a message (or is a command).
const (
	zmtpGreeting = 64
	flagMore     = 0x01
	flagLong     = 0x02
)

// wholeConn buffers what is written until a ZeroMQ message (or the
// greeting, or a command) is complete and then writes it at once; reads go
// through a buffer.
type wholeConn struct {
	net.Conn
	r *bufio.Reader

	mu       sync.Mutex
	buf      []byte // written, not yet sent: whole messages are sent at once
	parsed   int    // bytes of buf the framing has been followed through
	greeting int    // greeting bytes still to come
	body     uint64 // bytes of the current frame's body still to come
	more     bool   // the current frame is not a message's last
	inBody   bool   // parsed is inside a frame's body
}

func newWholeConn(c net.Conn) *wholeConn {
	return &wholeConn{Conn: c, r: bufio.NewReaderSize(c, 32<<10), greeting: zmtpGreeting}
}

func (c *wholeConn) Read(p []byte) (int, error) { return c.r.Read(p) }

func (c *wholeConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf = append(c.buf, p...)
	end := 0 // buf[:end] is whole messages
parse:
	for c.parsed < len(c.buf) {
		avail := len(c.buf) - c.parsed
		switch {
		case c.greeting > 0:
			n := min(avail, c.greeting)
			c.greeting -= n
			c.parsed += n
			if c.greeting == 0 {
				end = c.parsed
			}
		case c.inBody:
			n := min(uint64(avail), c.body)
			c.body -= n
			c.parsed += int(n)
			if c.body == 0 {
				c.inBody = false
				if !c.more {
					end = c.parsed
				}
			}
		default: // a frame's header
			flags := c.buf[c.parsed]
			hdr := 2
			if flags&flagLong != 0 {
				hdr = 9
			}
			if avail < hdr {
				break parse // wait for the rest of the header
			}
			if hdr == 2 {
				c.body = uint64(c.buf[c.parsed+1])
			} else {
				c.body = binary.BigEndian.Uint64(c.buf[c.parsed+1 : c.parsed+9])
			}
			c.more = flags&flagMore != 0
			c.parsed += hdr
			c.inBody = true
			if c.body == 0 {
				c.inBody = false
				if !c.more {
					end = c.parsed
				}
			}
		}
	}
	if end == 0 {
		return len(p), nil
	}
	_, err := c.Conn.Write(c.buf[:end])
	rest := copy(c.buf, c.buf[end:])
	c.buf = c.buf[:rest]
	c.parsed -= end
	if cap(c.buf) > 1<<20 && rest < 1<<10 {
		c.buf = append([]byte(nil), c.buf...) // do not keep a large message's buffer
	}
	if err != nil {
		return 0, err
	}
	return len(p), nil
}
