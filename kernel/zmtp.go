package kernel

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"sync"
	"time"
)

// The kernel's listeners check ZMTP before zmq4 sees a byte of it. zmq4
// v0.17.0 trusts its peer: it allocates whatever a frame header announces,
// panics on a READY without a known Socket-Type or with a property cut
// short, keeps a connection whose handshake failed open, and does each
// handshake inside its accept loop with no deadline, so one silent peer
// locks every other client out. A guardListener does the handshake's
// reading itself, one goroutine per connection under a deadline, and
// hands zmq4 only connections whose greeting and READY have arrived and
// are well formed; a guardConn then gives zmq4 whole frames only, within
// the limits, and drops the connection, with a log line, at the first
// byte that is not.

// Defaults of the wire's limits.
const (
	// DefaultMaxMessage bounds a message on shell, control and stdin. A
	// browser's messages pass through jupyter_server's websocket, which
	// Tornado caps at 10 MiB by default; 64 MiB leaves room for clients
	// that talk ZeroMQ directly (nbclient, scripts) with large cells or
	// widget buffers, and bounds what one unsigned message can hold.
	DefaultMaxMessage = 64 << 20
	// DefaultHandshakeTimeout bounds the time from a connection's accept
	// to its READY. A client sends both at once; 10 s allows for a loaded
	// machine, and past it the connection is dropped.
	DefaultHandshakeTimeout = 10 * time.Second
	// DefaultWriteTimeout bounds how long one write to a peer may wait
	// for the peer to take bytes. The kernel's socket buffers hold
	// megabytes: a write waits only when the peer has stopped reading.
	DefaultWriteTimeout = 10 * time.Second

	// iopubMaxMessage bounds what a subscriber sends: subscriptions, whose
	// topics Jupyter clients leave empty.
	iopubMaxMessage = 4 << 10
	// hbMaxMessage bounds a heartbeat: jupyter_client sends "ping".
	hbMaxMessage = 1 << 10
	// maxCommand bounds a ZMTP command (READY, PING): a READY carries
	// Socket-Type, an Identity of at most 255 bytes and, rarely, a few
	// properties of the client's own.
	maxCommand = 16 << 10
	// frameCost is what holding one frame costs zmq4 beyond its bytes (its
	// slice header and its share of the slices that collect the frames),
	// counted against the message limit so that a message of millions of
	// empty frames is refused too.
	frameCost = 64
	// maxConns bounds the connections of one port, in handshake or
	// established: each costs a goroutine, buffers and a file descriptor.
	// Jupyter opens one per channel and client.
	maxConns = 128
)

// wireRole is what a listener knows of the socket it serves.
type wireRole struct {
	name       string   // the channel, for the log
	peers      []string // the Socket-Types that may connect
	maxMessage int64
	limitNote  string // what sets maxMessage, for the log
	// subscriptionsOnly: the peer may send subscriptions only (one frame
	// starting with 0 or 1). zmq4's PUB socket queues anything else for a
	// reader the kernel does not have, ten deep, and then blocks the
	// connection's goroutine for good.
	subscriptionsOnly bool
}

// wireConfig travels to the transport in the context a socket is made
// with, which zmq4 passes to Listen.
type wireConfig struct {
	role      wireRole
	handshake time.Duration
	write     time.Duration // the longest one write may wait
	log       *log.Logger
	drops     *dropLog // set by the listener; nil logs every line
}

// dropLog writes the lines that say a connection was dropped, at most
// dropLines a second: anyone who can reach a port can have connections
// dropped as fast as they open them, and must not fill the log. The lines
// held back are counted on the next one written.
type dropLog struct {
	log *log.Logger
	now func() time.Time

	mu      sync.Mutex
	second  time.Time // the start of the current second
	written int       // lines written in it
	held    int       // lines held back since the last one written
}

const dropLines = 10

func (d *dropLog) Printf(format string, args ...any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.now()
	if now.Sub(d.second) >= time.Second {
		d.second, d.written = now, 0
	}
	if d.written == dropLines {
		d.held++
		return
	}
	d.written++
	line := fmt.Sprintf(format, args...)
	if d.held > 0 {
		line += fmt.Sprintf(" (and %d more connections dropped, not logged)", d.held)
		d.held = 0
	}
	d.log.Print(line)
}

// dropf logs that a connection was dropped, through cfg.drops.
func (cfg *wireConfig) dropf(format string, args ...any) {
	if cfg.drops != nil {
		cfg.drops.Printf(format, args...)
		return
	}
	cfg.log.Printf(format, args...)
}

type wireKey struct{}

func withWire(ctx context.Context, w wireConfig) context.Context {
	return context.WithValue(ctx, wireKey{}, w)
}

// wireFrom returns the wire configuration of ctx, the defaults of a
// ROUTER socket when it has none.
func wireFrom(ctx context.Context) wireConfig {
	w, _ := ctx.Value(wireKey{}).(wireConfig)
	if w.role.name == "" {
		w.role = wireRole{name: "router", peers: []string{"DEALER", "REQ", "ROUTER"}, maxMessage: DefaultMaxMessage}
	}
	if w.handshake <= 0 {
		w.handshake = DefaultHandshakeTimeout
	}
	if w.write <= 0 {
		w.write = DefaultWriteTimeout
	}
	if w.log == nil {
		w.log = log.New(os.Stderr, "", log.LstdFlags)
	}
	return w
}

// guardListener accepts connections in its own goroutine, runs each
// handshake in a goroutine of its own, and hands zmq4 (through Accept) the
// connections whose handshake arrived whole.
type guardListener struct {
	net.Listener
	cfg   wireConfig
	ready chan *guardConn
	done  chan struct{}
	once  sync.Once
	conns chan struct{} // a token per open connection

	mu      sync.Mutex
	pending map[*guardConn]struct{} // in their handshake: closed with the listener
}

func newGuardListener(l net.Listener, cfg wireConfig) *guardListener {
	cfg.drops = &dropLog{log: cfg.log, now: time.Now}
	g := &guardListener{Listener: l, cfg: cfg, ready: make(chan *guardConn),
		done: make(chan struct{}), conns: make(chan struct{}, maxConns), pending: map[*guardConn]struct{}{}}
	go g.run()
	return g
}

func (l *guardListener) run() {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			select {
			case <-l.done:
				return
			default:
			}
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of file descriptors, for example: wait, then go on.
			l.cfg.log.Printf("kernel: on %s: accept: %v", l.cfg.role.name, err)
			time.Sleep(50 * time.Millisecond)
			continue
		}
		select {
		case l.conns <- struct{}{}:
		default:
			l.cfg.dropf("kernel: on %s: connection from %s dropped: %d connections are open already", l.cfg.role.name, c.RemoteAddr(), maxConns)
			c.Close()
			continue
		}
		go l.handshake(c)
	}
}

func (l *guardListener) handshake(c net.Conn) {
	g := &guardConn{Conn: c, cfg: &l.cfg, release: func() { <-l.conns }}
	l.mu.Lock()
	if l.pending == nil { // closed
		l.mu.Unlock()
		g.Close()
		return
	}
	l.pending[g] = struct{}{}
	l.mu.Unlock()
	err := g.handshake()
	l.mu.Lock()
	closed := l.pending == nil
	delete(l.pending, g)
	l.mu.Unlock()
	if closed {
		g.Close()
		return
	}
	if err != nil {
		g.refuse(err)
		g.Close()
		return
	}
	select {
	case l.ready <- g:
	case <-l.done:
		g.Close()
	}
}

// Accept returns the next connection whose handshake has arrived.
func (l *guardListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ready:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *guardListener) Close() error {
	var err error
	l.once.Do(func() {
		close(l.done)
		err = l.Listener.Close()
		l.mu.Lock()
		for g := range l.pending {
			g.Conn.Close() // its handshake goroutine ends and releases it
		}
		l.pending = nil
		l.mu.Unlock()
	})
	return err
}

// ZMTP 3 bits beyond transport.go's.
const (
	flagCommand  = 0x04
	flagReserved = 0xf8
)

// zmtpNullGreeting is the greeting zmq4 sends with the NULL mechanism:
// the listener sends it before reading the peer's (a libzmq client sends
// the rest of its greeting only after it has seen the start of ours), and
// drops zmq4's copy.
var zmtpNullGreeting = func() []byte {
	g := make([]byte, zmtpGreeting)
	g[0], g[9], g[10], g[11] = 0xff, 0x7f, 3, 0
	copy(g[12:], "NULL")
	return g
}()

// Where a guardConn is in the stream it reads.
const (
	phaseGreeting = iota
	phaseReady
	phaseFrames
)

// errDropped ends the reads of a connection the guard has dropped; it
// wraps io.EOF so that zmq4 marks the connection closed.
var errDropped = fmt.Errorf("kernel: connection dropped: %w", io.EOF)

// guardConn reads the peer's bytes ahead of zmq4 and gives it only whole,
// checked units: the greeting, the READY, then whole frames. A frame's
// bytes are in memory only once they have arrived, so what a peer
// announces costs nothing until it is sent, and nothing past the limits
// is kept.
type guardConn struct {
	net.Conn
	cfg     *wireConfig
	release func() // frees the listener's token; once

	buf    []byte // read from the peer, not yet given to zmq4
	off    int    // buf[:off] has been given to zmq4
	ready  int    // buf[off:ready] is checked and whole: zmq4 may read it
	phase  int
	msg    int64 // bytes (and frame costs) of the message being received
	err    error // the stream has ended, or was refused
	closed sync.Once

	wmu       sync.Mutex
	skipWrite int // bytes of zmq4's greeting still to drop
}

// handshake sends the greeting and reads until the peer's greeting and
// READY have arrived and are well formed, all within the deadline.
func (c *guardConn) handshake() error {
	c.SetDeadline(time.Now().Add(c.cfg.handshake))
	c.skipWrite = zmtpGreeting
	if _, err := c.Conn.Write(zmtpNullGreeting); err != nil {
		return fmt.Errorf("sending the greeting: %w", err)
	}
	for c.phase != phaseFrames {
		if err := c.fill(); err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return fmt.Errorf("no greeting and READY within the handshake deadline of %v", c.cfg.handshake)
			}
			return err
		}
	}
	c.SetDeadline(time.Time{})
	return nil
}

// refuse logs why the connection is dropped.
func (c *guardConn) refuse(err error) {
	if errors.Is(err, io.EOF) {
		err = fmt.Errorf("the peer closed it during the handshake")
	}
	c.cfg.dropf("kernel: on %s: connection from %s dropped: %v", c.cfg.role.name, c.RemoteAddr(), err)
}

// Read gives zmq4 checked bytes only, reading and checking more from the
// peer when none are left.
func (c *guardConn) Read(p []byte) (int, error) {
	for c.ready == c.off {
		if c.err != nil {
			return 0, c.err
		}
		if err := c.fill(); err != nil {
			if !errors.Is(err, io.EOF) && !isNetClosed(err) {
				var ne net.Error
				if !errors.As(err, &ne) {
					c.refuse(err) // a violation of the protocol or a limit
					err = errDropped
				}
			}
			c.err = err
			c.Conn.Close()
		}
	}
	n := copy(p, c.buf[c.off:c.ready])
	c.off += n
	if c.off == len(c.buf) {
		c.buf, c.off, c.ready = c.buf[:0], 0, 0
		if cap(c.buf) > 64<<10 {
			c.buf = nil // do not keep a large frame's buffer
		}
	}
	return n, nil
}

func isNetClosed(err error) bool { return errors.Is(err, net.ErrClosed) }

// fill reads once from the peer and checks what has arrived; it returns
// an error when the read fails or the bytes break the protocol or a limit.
func (c *guardConn) fill() error {
	if c.off > 0 { // move the unread bytes to the front
		n := copy(c.buf, c.buf[c.off:])
		c.buf, c.ready, c.off = c.buf[:n], c.ready-c.off, 0
	}
	if len(c.buf) == cap(c.buf) {
		// Grow by doubling, never far past what the unit being received
		// needs: memory follows what has arrived, not what was announced.
		want := max(2*cap(c.buf), 4<<10)
		if need := c.needed(); need > 0 {
			want = min(want, need+32<<10)
		}
		want = max(want, len(c.buf)+4<<10)
		nb := make([]byte, len(c.buf), want)
		copy(nb, c.buf)
		c.buf = nb
	}
	n, err := c.Conn.Read(c.buf[len(c.buf):cap(c.buf)])
	c.buf = c.buf[:len(c.buf)+n]
	if serr := c.scan(); serr != nil {
		return serr
	}
	if err != nil {
		return err
	}
	return nil
}

// needed is the length buf must reach for the unit at ready to be whole,
// 0 when its header has not arrived.
func (c *guardConn) needed() int {
	rest := c.buf[c.ready:]
	switch {
	case c.phase == phaseGreeting:
		return c.ready + zmtpGreeting
	case len(rest) < 2:
		return 0
	case rest[0]&flagLong == 0:
		return c.ready + 2 + int(rest[1])
	case len(rest) < 9:
		return 0
	default:
		size := binary.BigEndian.Uint64(rest[1:9])
		if size > uint64(c.cfg.role.maxMessage) {
			return 0 // scan refuses it
		}
		return c.ready + 9 + int(size)
	}
}

// scan checks the units that have arrived whole and marks them ready.
func (c *guardConn) scan() error {
	for {
		rest := c.buf[c.ready:]
		if c.phase == phaseGreeting {
			if err := checkGreeting(rest); err != nil {
				return err
			}
			if len(rest) < zmtpGreeting {
				return nil
			}
			c.ready += zmtpGreeting
			c.phase = phaseReady
			continue
		}
		if len(rest) < 2 {
			return nil
		}
		flags := rest[0]
		if flags&flagReserved != 0 {
			return fmt.Errorf("frame flags %#02x set reserved bits", flags)
		}
		command := flags&flagCommand != 0
		if command && flags&flagMore != 0 {
			return fmt.Errorf("a command frame has the MORE flag")
		}
		if command && c.msg > 0 {
			return fmt.Errorf("a command frame inside a message")
		}
		if c.phase == phaseReady && !command {
			return fmt.Errorf("the first frame after the greeting is not a command (want READY)")
		}
		hdr, size := 2, uint64(rest[1])
		if flags&flagLong != 0 {
			if len(rest) < 9 {
				return nil
			}
			hdr, size = 9, binary.BigEndian.Uint64(rest[1:9])
		}
		if command {
			if size > maxCommand {
				return fmt.Errorf("a command of %d bytes is over the limit of %d", size, maxCommand)
			}
		} else if size > uint64(c.cfg.role.maxMessage) || c.msg+int64(size)+frameCost > c.cfg.role.maxMessage {
			return fmt.Errorf("a frame of %d bytes takes its message over the limit of %d bytes on %s%s",
				size, c.cfg.role.maxMessage, c.cfg.role.name, c.cfg.role.limitNote)
		}
		if uint64(len(rest)-hdr) < size {
			return nil // the body is on its way
		}
		body := rest[hdr : hdr+int(size)]
		switch {
		case c.phase == phaseReady:
			if err := checkReady(body, c.cfg.role.peers); err != nil {
				return err
			}
			c.phase = phaseFrames
		case command:
			if len(body) == 0 || int(body[0]) > len(body)-1 {
				return fmt.Errorf("a command's name is cut short")
			}
			// zmq4's sockets take a command after the handshake (a PING)
			// for a message; none of them answers it. Leave it out.
			c.buf = append(c.buf[:c.ready], c.buf[c.ready+hdr+int(size):]...)
			continue
		case c.cfg.role.subscriptionsOnly && (flags&flagMore != 0 || size == 0 || body[0] > 1):
			return fmt.Errorf("%s takes subscriptions only", c.cfg.role.name)
		case flags&flagMore != 0:
			c.msg += int64(size) + frameCost
		default:
			c.msg = 0
		}
		c.ready += hdr + int(size)
	}
}

// checkGreeting checks the part of a ZMTP 3 greeting that has arrived:
// the signature, a version of 3.0 or later, the NULL mechanism and an
// as-server flag of 0 or 1 (zmq4's checks, made before zmq4 reads it).
func checkGreeting(g []byte) error {
	if len(g) > 0 && g[0] != 0xff || len(g) > 9 && g[9] != 0x7f {
		return fmt.Errorf("not a ZMTP 3 greeting")
	}
	if len(g) > 10 && g[10] < 3 {
		return fmt.Errorf("ZMTP version %d, want 3", g[10])
	}
	if len(g) >= 33 {
		if !bytes.Equal(g[12:32], zmtpNullGreeting[12:32]) {
			return fmt.Errorf("security mechanism %q, want NULL", bytes.TrimRight(g[12:32], "\x00"))
		}
		if g[32] > 1 {
			return fmt.Errorf("as-server flag %d, want 0 or 1", g[32])
		}
	}
	return nil
}

// checkReady checks a READY command's body: its name, then properties of
// a name (1 to 255 bytes) and a value whose lengths fit the body, among
// them exactly one Socket-Type, spelt so, naming a socket that may
// connect to this one, and an Identity of at most 255 bytes.
func checkReady(body []byte, peers []string) error {
	if len(body) < 6 || string(body[:6]) != "\x05READY" {
		return fmt.Errorf("the handshake's command is not READY")
	}
	p := body[6:]
	socketType := ""
	for len(p) > 0 {
		n := int(p[0])
		if n == 0 || len(p) < 1+n+4 {
			return fmt.Errorf("a READY property is cut short")
		}
		name := string(p[1 : 1+n])
		vlen := binary.BigEndian.Uint32(p[1+n:])
		p = p[1+n+4:]
		if uint64(vlen) > uint64(len(p)) {
			return fmt.Errorf("the READY property %q is cut short", name)
		}
		value := string(p[:vlen])
		p = p[vlen:]
		switch {
		case name == "Socket-Type":
			if socketType != "" {
				return fmt.Errorf("READY has two Socket-Types")
			}
			socketType = value
		case len(name) == len("Socket-Type") && bytes.EqualFold([]byte(name), []byte("Socket-Type")):
			return fmt.Errorf("READY spells Socket-Type %q", name)
		case bytes.EqualFold([]byte(name), []byte("Identity")) && len(value) > 255:
			return fmt.Errorf("an Identity of %d bytes, over 255", len(value))
		}
	}
	if socketType == "" {
		return fmt.Errorf("READY has no Socket-Type")
	}
	for _, s := range peers {
		if socketType == s {
			return nil
		}
	}
	return fmt.Errorf("a %q socket cannot connect here (want one of %v)", socketType, peers)
}

// Write drops zmq4's copy of the greeting (the listener sent it), gives
// each write cfg.write to complete, and closes the connection when a write
// fails: zmq4 does not close a connection whose handshake failed, and
// would wait forever on a peer that does not read.
func (c *guardConn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	n := len(p)
	if c.skipWrite > 0 {
		k := min(c.skipWrite, len(p))
		c.skipWrite -= k
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	for len(p) > 0 {
		// The deadline is on progress, chunk by chunk, not on the whole
		// of a large message to a client on a slow link.
		chunk := p[:min(len(p), writeChunk)]
		c.Conn.SetWriteDeadline(time.Now().Add(c.cfg.write))
		k, err := c.Conn.Write(chunk)
		p = p[k:]
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				c.cfg.dropf("kernel: on %s: connection from %s dropped: it took nothing the kernel sent for %v",
					c.cfg.role.name, c.RemoteAddr(), c.cfg.write)
			}
			c.Close()
			return 0, err
		}
	}
	return n, nil
}

// writeChunk is how much one write deadline covers.
const writeChunk = 256 << 10

// Close closes the connection and frees its place in the listener, once.
func (c *guardConn) Close() error {
	err := c.Conn.Close()
	c.closed.Do(func() {
		if c.release != nil {
			c.release()
		}
	})
	return err
}
