package kernel

import (
	"context"
	"encoding/json"
	"net"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ports []int
	var ls []net.Listener
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// TestServeOverZeroMQ talks to a served kernel through real ZeroMQ
// sockets, as a client does: heartbeat echo, a kernel_info request on shell
// with busy/idle on iopub, and shutdown on control.
func TestServeOverZeroMQ(t *testing.T) {
	p := freePorts(t, 5)
	info := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: p[0], ControlPort: p[1],
		IOPubPort: p[2], StdinPort: p[3], HBPort: p[4], SignatureScheme: "hmac-sha256", Key: testKey}
	k, err := New(Config{Engine: &scriptEngine{}, Scheme: info.SignatureScheme, Key: info.Key}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- k.Serve(ctx, info) }()

	dial := func(s zmq4.Socket, port int) {
		t.Helper()
		var err error
		for i := 0; i < 50; i++ { // the kernel may not be listening yet
			if err = s.Dial(info.Endpoint(port)); err == nil {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatal(err)
	}
	hb := zmq4.NewReq(ctx)
	defer hb.Close()
	dial(hb, info.HBPort)
	if err := hb.Send(zmq4.NewMsgString("ping")); err != nil {
		t.Fatal(err)
	}
	if m, err := hb.Recv(); err != nil || string(m.Bytes()) != "ping" {
		t.Fatalf("heartbeat echoed %q, %v; want ping", m.Bytes(), err)
	}

	sub := zmq4.NewSub(ctx)
	defer sub.Close()
	dial(sub, info.IOPubPort)
	sub.SetOption(zmq4.OptionSubscribe, "")
	shell := zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("client-shell")))
	defer shell.Close()
	dial(shell, info.ShellPort)
	control := zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("client-control")))
	defer control.Close()
	dial(control, info.ControlPort)

	signer, _ := NewSigner("hmac-sha256", testKey)
	client := DefaultOrigin()
	send := func(s zmq4.Socket, msgType string, content any) Message {
		t.Helper()
		m, _ := client.Message(msgType, nil, content)
		frames, _ := m.Encode(signer)
		if err := s.Send(zmq4.NewMsgFrom(frames...)); err != nil {
			t.Fatal(err)
		}
		return m
	}
	recv := func(s zmq4.Socket) Message {
		t.Helper()
		raw, err := s.Recv()
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(raw.Frames, signer)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}

	// The subscription reaches the kernel asynchronously: ask until the
	// busy status of a request arrives, as jupyter_client's wait_for_ready does.
	var req Message
	got := make(chan Message, 16)
	go func() {
		for {
			raw, err := sub.Recv()
			if err != nil {
				return
			}
			if m, err := Decode(raw.Frames, signer); err == nil {
				got <- m
			}
		}
	}()
	var states []string
	for attempt := 0; attempt < 50 && len(states) < 2; attempt++ {
		req = send(shell, "kernel_info_request", map[string]any{})
		reply := recv(shell)
		if reply.Header.MsgType != "kernel_info_reply" {
			t.Fatalf("got %s, want kernel_info_reply", reply.Header.MsgType)
		}
		states = nil
		deadline := time.After(500 * time.Millisecond)
	collect:
		for len(states) < 2 {
			select {
			case m := <-got:
				var parent Header
				json.Unmarshal(m.Parent, &parent)
				if m.Header.MsgType == "status" && parent.MsgID == req.Header.MsgID {
					var c struct {
						State string `json:"execution_state"`
					}
					json.Unmarshal(m.Content, &c)
					states = append(states, c.State)
				}
			case <-deadline:
				break collect
			}
		}
	}
	if len(states) != 2 || states[0] != "busy" || states[1] != "idle" {
		t.Fatalf("iopub status around kernel_info: %v, want [busy idle]", states)
	}

	send(control, "shutdown_request", map[string]any{"restart": false})
	if r := recv(control); r.Header.MsgType != "shutdown_reply" {
		t.Fatalf("got %s on control, want shutdown_reply", r.Header.MsgType)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}
