package kernel

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"slices"
	"strings"
	"testing"
	"time"
)

// rawPeer is a client that speaks ZMTP by hand, so that a test sees
// exactly what the kernel writes to it: libzmq's and zmq4's SUB sockets
// filter by topic again on their side, and their ROUTER-facing sockets
// hide identities.
type rawPeer struct {
	t *testing.T
	c net.Conn
}

// rawDial connects to port as a socketType with the READY properties
// props, sends then, and reads the kernel's greeting and READY, which must
// name wantType.
func (lk *liveKernel) rawDial(t *testing.T, port int, socketType, wantType string, props []byte, then []byte) *rawPeer {
	t.Helper()
	b := append(zmtpGreetingBytes(), zmtpReady(append(zmtpProperty("Socket-Type", socketType), props...))...)
	s := &rawPeer{t: t, c: lk.rawSend(t, port, append(b, then...))}
	s.c.SetReadDeadline(time.Now().Add(liveness))
	g := make([]byte, zmtpGreeting)
	if _, err := io.ReadFull(s.c, g); err != nil {
		t.Fatalf("no greeting: %v", err)
	}
	if cmd := s.frames(); len(cmd) != 1 || !bytes.HasPrefix(cmd[0], []byte("\x05READY")) ||
		!bytes.Contains(cmd[0], zmtpProperty("Socket-Type", wantType)) {
		t.Fatalf("the kernel's READY is %q, want one naming Socket-Type %s", cmd, wantType)
	}
	return s
}

func (lk *liveKernel) rawSubscribe(t *testing.T, topics ...string) *rawPeer {
	t.Helper()
	var b []byte
	for _, topic := range topics {
		b = append(b, zmtpFrame([]byte("\x01"+topic), false, false)...)
	}
	return lk.rawDial(t, lk.info.IOPubPort, "SUB", "PUB", nil, b)
}

// frames reads one message (or command) and returns its frames.
func (s *rawPeer) frames() [][]byte {
	s.t.Helper()
	var out [][]byte
	for {
		var hdr [9]byte
		if _, err := io.ReadFull(s.c, hdr[:2]); err != nil {
			s.t.Fatalf("reading iopub: %v", err)
		}
		size := uint64(hdr[1])
		if hdr[0]&flagLong != 0 {
			if _, err := io.ReadFull(s.c, hdr[2:]); err != nil {
				s.t.Fatalf("reading iopub: %v", err)
			}
			size = binary.BigEndian.Uint64(hdr[1:])
		}
		body := make([]byte, size)
		if _, err := io.ReadFull(s.c, body); err != nil {
			s.t.Fatalf("reading iopub: %v", err)
		}
		out = append(out, body)
		if hdr[0]&flagMore == 0 {
			return out
		}
	}
}

// untilIdle returns the topics and types of the messages read up to the
// next idle status, leaving out the kernel's "starting" (which may or may
// not reach a subscriber that joins as the kernel starts).
func (s *rawPeer) untilIdle(lk *liveKernel) (topics []string, types []string) {
	for {
		f := s.frames()
		m, err := Decode(f, lk.signer)
		if err != nil {
			s.t.Fatalf("a message on iopub does not decode: %v", err)
		}
		if m.Header.MsgType == "status" && strings.Contains(string(m.Content), `"starting"`) {
			continue
		}
		topics = append(topics, string(f[0]))
		types = append(types, m.Header.MsgType)
		if m.Header.MsgType == "status" && strings.Contains(string(m.Content), `"idle"`) {
			return
		}
	}
}

// TestPubFiltersByTopic: a subscriber gets the messages whose topic frame
// starts with one of its subscriptions, and no others; one subscribed to
// everything gets every message of a cell, in order.
func TestPubFiltersByTopic(t *testing.T) {
	lk := serveKernel(t, Config{})
	status := lk.rawSubscribe(t, "kernel.stat")
	all := lk.rawSubscribe(t, "")
	both := lk.rawSubscribe(t, "kernel.stream", "kernel.status", "kernel.stream")
	// The subscriptions are read by the kernel asynchronously: wait until
	// a request's busy and idle reach each of them.
	deadline := time.Now().Add(liveness)
	for lk.k.sink.(*sockets).iopub.subscribed.Load() < 3 {
		if time.Now().After(deadline) {
			t.Fatal("the subscriptions never reached the kernel")
		}
		time.Sleep(time.Millisecond)
	}
	lk.execute(t, "print marker")

	topics, types := status.untilIdle(lk)
	for i, topic := range topics {
		if !strings.HasPrefix(topic, "kernel.stat") || types[i] != "status" {
			t.Errorf("a subscriber of kernel.stat got %s (topic %q)", types[i], topic)
		}
	}
	if len(types) != 2 {
		t.Errorf("a subscriber of kernel.stat got %v, want busy and idle", types)
	}
	_, types = all.untilIdle(lk)
	if want := "status execute_input stream status"; strings.Join(types, " ") != want {
		t.Errorf("a subscriber of everything got %v, want %s", types, want)
	}
	_, types = both.untilIdle(lk)
	if want := "status stream status"; strings.Join(types, " ") != want {
		t.Errorf("a subscriber of stream and status got %v, want %s", types, want)
	}
}

// TestPubUnsubscribe: ZeroMQ counts subscriptions; a topic subscribed
// twice and unsubscribed once still delivers, and once more stops it.
func TestPubUnsubscribe(t *testing.T) {
	lk := serveKernel(t, Config{})
	s := lk.rawSubscribe(t, "kernel.status", "kernel.status", "")
	unsub := func(topic string) {
		if _, err := s.c.Write(zmtpFrame([]byte("\x00"+topic), false, false)); err != nil {
			t.Fatal(err)
		}
	}
	unsub("") // everything but status stops
	unsub("kernel.status")
	// A topic no message has, subscribed last: once the kernel holds it,
	// it has read the frames before.
	if _, err := s.c.Write(zmtpFrame([]byte("\x01sentinel"), false, false)); err != nil {
		t.Fatal(err)
	}
	sock := lk.k.sink.(*sockets).iopub
	deadline := time.Now().Add(liveness)
	for {
		sock.mu.Lock()
		var held []string
		if len(sock.subs) == 1 {
			held = append(held, *sock.subs[0].topics.Load()...)
		}
		sock.mu.Unlock()
		if slices.Contains(held, "sentinel") {
			slices.Sort(held)
			if strings.Join(held, ",") != "kernel.status,sentinel" {
				t.Fatalf("the kernel holds the topics %q, want kernel.status and sentinel", held)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the subscriptions never reached the kernel (it holds %q)", held)
		}
		time.Sleep(time.Millisecond)
	}
	lk.execute(t, "print marker")
	if _, types := s.untilIdle(lk); strings.Join(types, " ") != "status status" {
		t.Errorf("after unsubscribing everything and one of two status subscriptions got %v, want busy and idle", types)
	}
	unsub("kernel.status")
	unsub("sentinel")
	for sock.subscribed.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the last unsubscription never reached the kernel")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestPubBoundsTopics: a subscriber may not make the kernel hold topics
// without end; past maxTopicBytes it is dropped, with a log line, and the
// kernel serves on.
func TestPubBoundsTopics(t *testing.T) {
	lk := serveKernel(t, Config{})
	b := append(zmtpGreetingBytes(), zmtpReady(zmtpProperty("Socket-Type", "SUB"))...)
	topic := strings.Repeat("t", 1000)
	for i := 0; i < 2*maxTopicBytes/1000; i++ {
		b = append(b, zmtpFrame([]byte("\x01"+topic+string(rune('a'+i%26))+string(rune('a'+i/26))), false, false)...)
	}
	c := lk.rawSend(t, lk.info.IOPubPort, b)
	awaitClose(t, c, "a subscriber holding more topics than the bound")
	if !strings.Contains(lk.log.String(), "subscriptions passed") {
		t.Errorf("no log line for the subscriber dropped; log:\n%s", lk.log.String())
	}
	lk.execute(t, "print still")
}
