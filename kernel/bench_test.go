package kernel

import (
	"context"
	"encoding/json"
	"syscall"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// BenchmarkExecuteRoundTrip measures the protocol alone: a Go client sends
// execute_request over ZeroMQ to a served kernel whose engine answers at
// once, and waits for the idle status on iopub (as bench/kernel does with
// jupyter_client and the real interpreter). What it reports is the kernel's
// and zmq4's share of a cell's round trip; cpu-ns/op is the process's CPU
// time (the kernel's and the client's, both under this process's GOGC) per
// round trip, which a loaded machine disturbs less than the wall time.
func BenchmarkExecuteRoundTrip(b *testing.B) {
	p := freePortsB(b, 5)
	info := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: p[0], ControlPort: p[1],
		IOPubPort: p[2], StdinPort: p[3], HBPort: p[4], SignatureScheme: "hmac-sha256", Key: testKey}
	k, err := New(Config{Engine: &scriptEngine{}, Scheme: info.SignatureScheme, Key: info.Key}, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go k.Serve(ctx, info)

	dial := func(s zmq4.Socket, port int) {
		for i := 0; i < 100; i++ {
			if err := s.Dial(info.Endpoint(port)); err == nil {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		b.Fatal("cannot dial the kernel")
	}
	sub := zmq4.NewSub(ctx)
	defer sub.Close()
	dial(sub, info.IOPubPort)
	sub.SetOption(zmq4.OptionSubscribe, "")
	shell := zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("bench")))
	defer shell.Close()
	dial(shell, info.ShellPort)
	signer, _ := NewSigner("hmac-sha256", testKey)
	client := DefaultOrigin()

	idle := make(chan string, 16) // msg_id of the requests that went idle
	go func() {
		for {
			raw, err := sub.Recv()
			if err != nil {
				return
			}
			got, err := Decode(raw.Frames, signer)
			if err != nil || got.Header.MsgType != "status" || string(got.Content) != `{"execution_state":"idle"}` {
				continue
			}
			var parent Header
			json.Unmarshal(got.Parent, &parent)
			idle <- parent.MsgID
		}
	}()
	replies := make(chan struct{}, 64)
	go func() {
		for {
			if _, err := shell.Recv(); err != nil {
				return
			}
			replies <- struct{}{}
		}
	}()
	roundTrip := func(timeout time.Duration) bool {
		m, _ := client.Message("execute_request", nil, map[string]any{"code": "value 2", "silent": false})
		frames, _ := m.Encode(signer)
		shell.Send(zmq4.NewMsgFrom(frames...))
		deadline := time.After(timeout)
		for got := false; !got; {
			select {
			case id := <-idle:
				got = id == m.Header.MsgID
			case <-deadline:
				return false
			}
		}
		select {
		case <-replies:
			return true
		case <-deadline:
			return false
		}
	}
	// The subscription reaches the kernel asynchronously: retry until one
	// round trip is seen whole.
	for i := 0; !roundTrip(200 * time.Millisecond); i++ {
		if i == 50 {
			b.Fatal("no idle status on iopub")
		}
	}
	cpu0 := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !roundTrip(10 * time.Second) {
			b.Fatal("round trip lost")
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
}

// processCPU is the user and system CPU time of this process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func freePortsB(b *testing.B, n int) []int {
	t := &testing.T{}
	ports := freePorts(t, n)
	if t.Failed() {
		b.Fatal("no free ports")
	}
	return ports
}
