package kernel

import (
	"bytes"
	"io"
	"log"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/security/null"
)

// streamConn is a net.Conn whose peer sent a fixed byte stream and then
// closed; what is written to it is dropped.
type streamConn struct {
	r *bytes.Reader
}

func (c *streamConn) Read(p []byte) (int, error)       { return c.r.Read(p) }
func (c *streamConn) Write(p []byte) (int, error)      { return len(p), nil }
func (c *streamConn) Close() error                     { return nil }
func (c *streamConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (c *streamConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (c *streamConn) SetDeadline(time.Time) error      { return nil }
func (c *streamConn) SetReadDeadline(time.Time) error  { return nil }
func (c *streamConn) SetWriteDeadline(time.Time) error { return nil }

// zmtpRoles are the kinds of listener the kernel has, with small limits
// so that a fuzzer reaches them.
var zmtpRoles = []struct {
	typ  zmq4.SocketType
	role wireRole
}{
	{zmq4.Router, wireRole{name: "shell", peers: []string{"DEALER", "REQ", "ROUTER"}, maxMessage: 4 << 10}},
	{zmq4.Pub, wireRole{name: "iopub", peers: []string{"SUB", "XSUB"}, maxMessage: 1 << 10, subscriptionsOnly: true}},
	{zmq4.Rep, wireRole{name: "hb", peers: []string{"REQ", "DEALER"}, maxMessage: 256}},
}

// FuzzZMTPStream runs any byte stream through a guardConn and then zmq4's
// own handshake and framing, in memory, many times faster than FuzzZMTP
// over TCP: zmq4 must never panic on what the guard lets through, and no
// message it returns may be over the role's limit (or, on iopub, other
// than a subscription). Run it longer with
//
//	go test -run='^$' -fuzz='^FuzzZMTPStream$' -fuzztime=10m -parallel=1 ./kernel/
func FuzzZMTPStream(f *testing.F) {
	sub := append(zmtpGreetingBytes(), zmtpReady(zmtpProperty("Socket-Type", "SUB"))...)
	req := append(zmtpGreetingBytes(), zmtpReady(zmtpProperty("Socket-Type", "REQ"))...)
	long := []byte{0x06, 0x40, 0, 0, 0, 0, 0, 0, 0}
	for _, s := range [][]byte{
		{},
		append(zmtpGreetingBytes(), long...),
		append(zmtpGreetingBytes(), 0x04, 0x06, 0x05, 'R', 'E', 'A', 'D', 'Y'),
		append(zmtpGreetingBytes(), zmtpReady(zmtpProperty("Socket-Type", "DEALER"), []byte{0x01, 'X'})...),
		append(handshake(), 0x01, 'X'),
		append(handshake(), zmtpFrame([]byte("a"), true, false)...),
		append(handshake(), append(zmtpFrame([]byte("id"), true, false), zmtpFrame(bytes.Repeat([]byte("b"), 300), false, false)...)...),
		append(handshake(), zmtpFrame([]byte("\x04PING\x00\x10"), false, true)...),
		append(sub, zmtpFrame([]byte("\x01"), false, false)...),
		append(req, append(zmtpFrame(nil, true, false), zmtpFrame([]byte("ping"), false, false)...)...),
	} {
		for r := range zmtpRoles {
			f.Add(byte(r), s)
		}
	}
	quiet := log.New(io.Discard, "", 0)
	f.Fuzz(func(t *testing.T, role byte, stream []byte) {
		r := zmtpRoles[int(role)%len(zmtpRoles)]
		cfg := wireConfig{role: r.role, handshake: time.Second, log: quiet}
		g := &guardConn{Conn: &streamConn{bytes.NewReader(stream)}, cfg: &cfg}
		if err := g.handshake(); err != nil {
			return
		}
		c, err := zmq4.Open(newWholeConn(g), null.Security(), r.typ, zmq4.SocketIdentity("kernel"), true, nil)
		if err != nil {
			t.Fatalf("zmq4 refused a handshake the guard passed: %v", err)
		}
		for {
			msg, err := c.RecvMsg()
			if err != nil {
				return
			}
			size := 0
			for _, fr := range msg.Frames {
				size += len(fr) + frameCost
			}
			if int64(size) > r.role.maxMessage {
				t.Fatalf("a message of %d bytes (with frame costs) passed a limit of %d", size, r.role.maxMessage)
			}
			if r.role.subscriptionsOnly && (len(msg.Frames) != 1 || len(msg.Frames[0]) == 0 || msg.Frames[0][0] > 1) {
				t.Fatalf("%s passed a message that is not a subscription: %q", r.role.name, msg.Frames)
			}
		}
	})
}

// TestCheckReady: what a READY must carry to reach zmq4, whose own
// parsing panics on a property cut short and on a missing or unknown
// Socket-Type.
func TestCheckReady(t *testing.T) {
	ready := func(props ...[]byte) []byte { return append([]byte("\x05READY"), bytes.Join(props, nil)...) }
	st := func(v string) []byte { return zmtpProperty("Socket-Type", v) }
	routerPeers := []string{"DEALER", "REQ", "ROUTER"}
	for _, tc := range []struct {
		name string
		body []byte
		ok   bool
	}{
		{"libzmq's DEALER", ready(st("DEALER"), zmtpProperty("Identity", "")), true},
		{"a REQ with an identity", ready(zmtpProperty("Identity", "client-1"), st("REQ")), true},
		{"application metadata", ready(st("DEALER"), zmtpProperty("X-Hostname", "lab")), true},
		{"not READY", append([]byte("\x05HELLO"), st("DEALER")...), false},
		{"no properties", ready(), false},
		{"no Socket-Type", ready(zmtpProperty("Identity", "x")), false},
		{"an unknown Socket-Type", ready(st("TOASTER")), false},
		{"a socket that cannot connect to a ROUTER", ready(st("SUB")), false},
		{"two Socket-Types", ready(st("DEALER"), st("REQ")), false},
		{"Socket-Type spelt otherwise", ready(zmtpProperty("SOCKET-TYPE", "DEALER")), false},
		{"a name cut short", ready(st("DEALER"), []byte{0x05, 'X'}), false},
		{"a value length cut short", ready(st("DEALER"), []byte{0x01, 'X', 0, 0}), false},
		{"a value cut short", ready(st("DEALER"), []byte{0x01, 'X', 0, 0, 0, 9, 'a'}), false},
		{"an empty name", ready(st("DEALER"), []byte{0x00, 0, 0, 0, 0}), false},
		{"an Identity over 255 bytes", ready(st("DEALER"), zmtpProperty("Identity", strings.Repeat("i", 256))), false},
	} {
		if err := checkReady(tc.body, routerPeers); (err == nil) != tc.ok {
			t.Errorf("%s: checkReady says %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

// TestCheckGreeting: a greeting is checked as its bytes arrive, so that a
// peer speaking something else is dropped at its first wrong byte.
func TestCheckGreeting(t *testing.T) {
	good := zmtpGreetingBytes()
	with := func(i int, b byte) []byte { g := append([]byte{}, good...); g[i] = b; return g }
	for _, tc := range []struct {
		name string
		g    []byte
		ok   bool
	}{
		{"ZMTP 3.0 NULL", good, true},
		{"ZMTP 3.1", with(11, 1), true},
		{"as server", with(32, 1), true},
		{"its first byte only", good[:1], true},
		{"HTTP", []byte("GET / HTTP/1.1\r\n"), false},
		{"a wrong signature end", with(9, 0), false},
		{"ZMTP 2", with(10, 2), false},
		{"PLAIN", append(append(append([]byte{}, good[:12]...), "PLAIN"...), good[17:]...), false},
		{"an as-server flag of 2", with(32, 2), false},
	} {
		if err := checkGreeting(tc.g); (err == nil) != tc.ok {
			t.Errorf("%s: checkGreeting says %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

// TestDropLog: at most dropLines lines a second; the lines held back are
// counted on the next line written.
func TestDropLog(t *testing.T) {
	var buf bytes.Buffer
	now := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	d := &dropLog{log: log.New(&buf, "", 0), now: func() time.Time { return now }}
	for i := 0; i < 25; i++ {
		d.Printf("drop %d", i)
	}
	now = now.Add(time.Second)
	d.Printf("drop 25")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != dropLines+1 {
		t.Fatalf("%d lines written, want %d:\n%s", len(lines), dropLines+1, buf.String())
	}
	if want := "drop 25 (and 15 more connections dropped, not logged)"; lines[dropLines] != want {
		t.Errorf("last line %q, want %q", lines[dropLines], want)
	}
}
