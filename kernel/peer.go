package kernel

import (
	"encoding/binary"
	"io"
	"sync"
)

// The sockets the kernel serves itself (iopub in pub.go; shell, control
// and stdin in router.go) share this: connections come from a
// guardListener, whose handshake has read and checked the peer's greeting
// and READY; the kernel then sends its own READY and reads the peer's
// frames, which the guard has checked and bounded, from the guardConn.

// zmtpReadyOf is the READY command a socket of type socketType sends
// after its greeting.
func zmtpReadyOf(socketType string) []byte {
	body := append([]byte("\x05READY\x0bSocket-Type"), 0, 0, 0, byte(len(socketType)))
	body = append(body, socketType...)
	return append([]byte{flagCommand, byte(len(body))}, body...)
}

// servePeers accepts the connections of l until it is closed, sends each
// the READY of socketType and serves it with serve in a goroutine of its
// own. done is marked when the accepting stops.
func servePeers(l *guardListener, socketType string, done *sync.WaitGroup, serve func(*guardConn)) {
	ready := zmtpReadyOf(socketType)
	done.Add(1)
	go func() {
		defer done.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			g := c.(*guardConn)
			g.wmu.Lock()
			g.skipWrite = 0 // the listener sent the greeting; nobody else writes one
			g.wmu.Unlock()
			if _, err := g.Write(ready); err != nil {
				g.Close()
				continue
			}
			go serve(g)
		}
	}()
}

// frameReader reads the frames of a guarded connection.
type frameReader struct {
	c   io.Reader
	hdr [9]byte
}

// handshake skips the greeting and returns the READY's body; the guard
// has checked both.
func (r *frameReader) handshake() ([]byte, error) {
	if _, err := io.ReadFull(r.c, make([]byte, zmtpGreeting)); err != nil {
		return nil, err
	}
	_, body, err := r.frame()
	return body, err
}

// frame reads one frame: its flags and body (a new slice).
func (r *frameReader) frame() (flags byte, body []byte, err error) {
	if _, err := io.ReadFull(r.c, r.hdr[:2]); err != nil {
		return 0, nil, err
	}
	size := uint64(r.hdr[1])
	if r.hdr[0]&flagLong != 0 {
		if _, err := io.ReadFull(r.c, r.hdr[2:9]); err != nil {
			return 0, nil, err
		}
		size = binary.BigEndian.Uint64(r.hdr[1:9])
	}
	body = make([]byte, size) // the guard has bounded size by the channel's limit
	if _, err := io.ReadFull(r.c, body); err != nil {
		return 0, nil, err
	}
	return r.hdr[0], body, nil
}

// readyProperty is the value of the property name of a READY body that
// checkReady has accepted, "" when it has none.
func readyProperty(body []byte, name string) string {
	p := body[6:]
	for len(p) > 0 {
		n := int(p[0])
		key := string(p[1 : 1+n])
		vlen := int(binary.BigEndian.Uint32(p[1+n:]))
		p = p[1+n+4:]
		if key == name {
			return string(p[:vlen])
		}
		p = p[vlen:]
	}
	return ""
}

// appendFrames appends the ZMTP frames of a message with the bodies
// frames to b.
func appendFrames(b []byte, frames [][]byte) []byte {
	for i, f := range frames {
		var flags byte
		if i < len(frames)-1 {
			flags = flagMore
		}
		if len(f) > 255 {
			b = append(b, flags|flagLong)
			b = binary.BigEndian.AppendUint64(b, uint64(len(f)))
		} else {
			b = append(b, flags, byte(len(f)))
		}
		b = append(b, f...)
	}
	return b
}
