package kernel

import (
	"strings"
	"testing"
)

// rawRequest is the frames of a signed request of msgType (after any
// routing frames a peer adds itself).
func (lk *liveKernel) rawRequest(t *testing.T, msgType, content string) []byte {
	t.Helper()
	m, err := DefaultOrigin().Message(msgType, nil, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	m.Content = []byte(content)
	frames, err := m.Encode(lk.signer)
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	for i, f := range frames {
		b = append(b, zmtpFrame(f, i < len(frames)-1, false)...)
	}
	return b
}

// reply reads the next message and returns its type and the frames
// before the delimiter.
func (s *rawPeer) reply(lk *liveKernel) (string, [][]byte) {
	s.t.Helper()
	f := s.frames()
	m, err := Decode(f, lk.signer)
	if err != nil {
		s.t.Fatalf("a reply does not decode: %v", err)
	}
	return m.Header.MsgType, m.Identities
}

// TestRouterRoutesByIdentity: replies on shell reach the peer that asked,
// named by the Identity of its READY or by one the kernel gave it, and
// carry no routing frame of the kernel's; a REQ's empty delimiter frame
// comes back as it went.
func TestRouterRoutesByIdentity(t *testing.T) {
	lk := serveKernel(t, Config{})
	named := lk.rawDial(t, lk.info.ShellPort, "DEALER", "ROUTER", zmtpProperty("Identity", "alice"), nil)
	anon := lk.rawDial(t, lk.info.ShellPort, "DEALER", "ROUTER", nil, nil)
	req := lk.rawDial(t, lk.info.ShellPort, "REQ", "ROUTER", nil, nil)
	ask := func(p *rawPeer, prefix []byte, msgType string) {
		if _, err := p.c.Write(append(prefix, lk.rawRequest(t, msgType, "{}")...)); err != nil {
			t.Fatal(err)
		}
	}
	ask(anon, nil, "kernel_info_request")
	ask(named, nil, "comm_info_request")
	ask(req, zmtpFrame(nil, true, false), "connect_request")
	for _, c := range []struct {
		p       *rawPeer
		want    string
		routing int // frames before the delimiter
	}{{named, "comm_info_reply", 0}, {anon, "kernel_info_reply", 0}, {req, "connect_reply", 1}} {
		got, ids := c.p.reply(lk)
		if got != c.want || len(ids) != c.routing {
			t.Errorf("got %s with %d routing frames %q, want %s with %d", got, len(ids), ids, c.want, c.routing)
		}
	}
	if strings.Contains(lk.log.String(), "panic") {
		t.Errorf("kernel log:\n%s", lk.log.String())
	}
}
