package kernel

import (
	"encoding/binary"
	"net"
	"sync"
)

// routerSocket is a ROUTER socket (shell, control, stdin) that the kernel
// serves itself on its guarded listener. Each connection's reader
// goroutine collects a message's frames, puts the peer's identity in
// front and hands the message to got; a reply's first frame names the
// peer it is written to, from the goroutine that sends it. zmq4's ROUTER
// passed each message through a goroutine and a channel to the kernel's
// receive loop, and wrote each reply from a goroutine of its own that the
// sender waited for: three hand-offs on every request's path.
type routerSocket struct {
	l   *guardListener
	cfg *wireConfig
	got func(frames [][]byte)
	// open is closed once got may be called (Serve has its sink); until
	// then the readers wait.
	open      chan struct{}
	deliverMu sync.Mutex // one message at a time to got, as a receive loop would

	mu     sync.Mutex
	peers  map[string][]*guardConn // by identity
	next   uint32                  // for identities the kernel gives
	closed bool
	frame  []byte // the message being sent, framed; reused

	accepting sync.WaitGroup // servePeers
}

// listenRouter makes a ROUTER socket on the raw listener l, whose
// connections are checked as cfg says; got receives each message once
// start has been called.
func listenRouter(l net.Listener, cfg wireConfig, got func([][]byte)) *routerSocket {
	g := newGuardListener(l, cfg)
	r := &routerSocket{l: g, cfg: &g.cfg, got: got, open: make(chan struct{}), peers: map[string][]*guardConn{}}
	servePeers(g, "ROUTER", &r.accepting, r.serve)
	return r
}

// start lets the messages received reach got.
func (r *routerSocket) start() { close(r.open) }

func (r *routerSocket) serve(c *guardConn) {
	defer c.Close()
	fr := frameReader{c: c}
	ready, err := fr.handshake()
	if err != nil {
		return
	}
	id := readyProperty(ready, "Identity")
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	if id == "" {
		// A peer that names itself not gets a name no peer can choose, as
		// libzmq gives: a zero byte, then a number.
		r.next++
		id = string(binary.BigEndian.AppendUint32([]byte{0}, r.next))
	}
	r.peers[id] = append(r.peers[id], c)
	r.mu.Unlock()
	defer r.remove(id, c)

	msg := [][]byte{[]byte(id)}
	for {
		flags, body, err := fr.frame()
		if err != nil {
			return
		}
		msg = append(msg, body)
		if flags&flagMore != 0 {
			continue
		}
		select {
		case <-r.open:
		case <-r.l.done:
			return
		}
		r.deliverMu.Lock()
		r.got(msg)
		r.deliverMu.Unlock()
		msg = [][]byte{[]byte(id)}
	}
}

func (r *routerSocket) remove(id string, c *guardConn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cs := r.peers[id]
	for i, x := range cs {
		if x == c {
			cs = append(cs[:i], cs[i+1:]...)
			break
		}
	}
	if len(cs) == 0 {
		delete(r.peers, id)
	} else {
		r.peers[id] = cs
	}
}

// Send writes frames[1:] to the peers whose identity is frames[0]. A
// message for a peer that is not connected is dropped, as ZeroMQ's
// ROUTER does; a peer whose write fails is dropped.
func (r *routerSocket) Send(frames [][]byte) error {
	if len(frames) < 2 {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	cs := r.peers[string(frames[0])]
	if r.closed || len(cs) == 0 {
		return nil
	}
	r.frame = appendFrames(r.frame[:0], frames[1:])
	var err error
	for _, c := range cs {
		if _, werr := c.Write(r.frame); werr != nil && err == nil {
			err = werr // guardConn.Write closed it; its reader removes it
		}
	}
	if cap(r.frame) > 1<<20 {
		r.frame = nil // do not keep a large message's buffer
	}
	return err
}

// Close closes the listener and every connection.
func (r *routerSocket) Close() error {
	err := r.l.Close()
	r.accepting.Wait()
	r.mu.Lock()
	r.closed = true
	var cs []*guardConn
	for _, p := range r.peers {
		cs = append(cs, p...)
	}
	r.mu.Unlock()
	for _, c := range cs {
		c.Close()
	}
	return err
}
