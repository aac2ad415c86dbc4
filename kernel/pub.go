package kernel

import (
	"bytes"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// pubSocket is iopub's PUB side, written by the kernel itself on the
// connections its guardListener has accepted: a message is framed once
// and written to each subscriber whose topics match, in the goroutine that
// publishes it. zmq4's PUB socket puts each message on a queue without
// bound for a goroutine of its own to write; the hand-off cost a wake-up
// on every message of a cell's round trip and let a subscriber that
// stopped reading grow the kernel's memory. Here a subscriber that leaves
// a write untaken for the write timeout is dropped (guardConn.Write), and
// until then the publisher waits: a cell's output waits for the slowest
// subscriber, bounded by the timeout, as a pipe would.
type pubSocket struct {
	l   *guardListener
	cfg *wireConfig

	mu     sync.Mutex
	subs   []*subscriber
	closed bool
	frame  []byte // the message being sent, framed; reused

	subscribed atomic.Int32   // subscribers with at least one topic
	accepting  sync.WaitGroup // servePeers
}

// subscriber is one connection to iopub.
type subscriber struct {
	c *guardConn
	// topics is the set the peer subscribed to, as a list for the
	// publisher to read without a lock; the reader replaces it.
	topics atomic.Pointer[[]string]
	gone   bool // removed from the socket; under pubSocket.mu
}

// maxTopicBytes bounds the topics one subscriber may hold: Jupyter's
// clients subscribe to one, empty.
const maxTopicBytes = 64 << 10

// listenPub makes iopub's socket on the raw listener l, whose connections
// are checked as cfg says.
func listenPub(l net.Listener, cfg wireConfig) *pubSocket {
	g := newGuardListener(l, cfg)
	p := &pubSocket{l: g, cfg: &g.cfg}
	servePeers(g, "PUB", &p.accepting, func(c *guardConn) {
		s := &subscriber{c: c}
		s.topics.Store(&[]string{})
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			c.Close()
			return
		}
		p.subs = append(p.subs, s)
		p.mu.Unlock()
		p.read(s)
	})
	return p
}

// read follows a subscriber's subscriptions until its connection ends.
// The guard has checked them: one frame each, starting with 1
// (subscribe) or 0 (unsubscribe), within iopub's limit.
func (p *pubSocket) read(s *subscriber) {
	defer p.remove(s)
	defer s.c.Close()
	r := frameReader{c: s.c}
	if _, err := r.handshake(); err != nil {
		return
	}
	counts := map[string]int{} // ZeroMQ counts subscriptions to a topic
	bytesHeld := 0
	for {
		_, body, err := r.frame()
		if err != nil {
			return
		}
		topic := string(body[1:])
		n := counts[topic]
		if body[0] == 1 {
			if n == 0 {
				bytesHeld += len(topic) + 16
				if bytesHeld > maxTopicBytes {
					p.cfg.dropf("kernel: on %s: connection from %s dropped: its subscriptions passed %d bytes",
						p.cfg.role.name, s.c.RemoteAddr(), maxTopicBytes)
					return
				}
			}
			counts[topic] = n + 1
		} else if n > 0 {
			if n == 1 {
				delete(counts, topic)
				bytesHeld -= len(topic) + 16
			} else {
				counts[topic] = n - 1
			}
		}
		list := make([]string, 0, len(counts))
		for t := range counts {
			list = append(list, t)
		}
		p.setTopics(s, list)
	}
}

// setTopics replaces s's topics and keeps the count of subscribers that
// listen.
func (p *pubSocket) setTopics(s *subscriber, list []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s.gone {
		return
	}
	before := len(*s.topics.Load()) > 0
	s.topics.Store(&list)
	after := len(list) > 0
	switch {
	case after && !before:
		p.subscribed.Add(1)
	case before && !after:
		p.subscribed.Add(-1)
	}
}

func (p *pubSocket) remove(s *subscriber) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, x := range p.subs {
		if x == s {
			p.dropLocked(i)
			return
		}
	}
}

// dropLocked removes the subscriber at i; called with p.mu held.
func (p *pubSocket) dropLocked(i int) {
	s := p.subs[i]
	s.gone = true
	if len(*s.topics.Load()) > 0 {
		p.subscribed.Add(-1)
	}
	s.topics.Store(&[]string{})
	p.subs = append(p.subs[:i], p.subs[i+1:]...)
}

// wants reports whether s subscribed to a prefix of topic.
func (s *subscriber) wants(topic []byte) bool {
	for _, t := range *s.topics.Load() {
		if bytes.HasPrefix(topic, []byte(t)) {
			return true
		}
	}
	return false
}

// Send writes the message whose first frame is its topic to every
// subscriber of a prefix of that topic. A subscriber whose write fails
// is dropped; the others still get the message.
func (p *pubSocket) Send(frames [][]byte) error {
	if len(frames) == 0 {
		return fmt.Errorf("kernel: an iopub message needs a topic frame")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.subscribed.Load() == 0 {
		return nil
	}
	p.frame = appendFrames(p.frame[:0], frames)
	for i := 0; i < len(p.subs); {
		s := p.subs[i]
		if s.wants(frames[0]) {
			if _, err := s.c.Write(p.frame); err != nil {
				p.dropLocked(i) // guardConn.Write closed it; its reader ends too
				continue
			}
		}
		i++
	}
	if cap(p.frame) > 1<<20 {
		p.frame = nil // do not keep a large message's buffer
	}
	return nil
}

// WaitSubscriber waits at most d for a client to subscribe and reports
// whether one has.
func (p *pubSocket) WaitSubscriber(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for p.subscribed.Load() == 0 {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
	return true
}

// Close closes the listener and every subscriber's connection.
func (p *pubSocket) Close() error {
	err := p.l.Close()
	p.accepting.Wait()
	p.mu.Lock()
	p.closed = true
	subs := p.subs
	p.subs = nil
	p.mu.Unlock()
	for _, s := range subs {
		s.c.Close()
	}
	return err
}
