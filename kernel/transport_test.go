package kernel

import (
	"bytes"
	"encoding/binary"
	"math/rand"
	"net"
	"testing"
)

// recordConn is a net.Conn that keeps each write.
type recordConn struct {
	net.Conn
	writes [][]byte
}

func (c *recordConn) Write(p []byte) (int, error) {
	c.writes = append(c.writes, append([]byte(nil), p...))
	return len(p), nil
}

// zmtpFrame is a frame as ZMTP 3 writes it.
func zmtpFrame(body []byte, more, command bool) []byte {
	var flags byte
	if more {
		flags |= flagMore
	}
	if command {
		flags |= 0x04
	}
	if len(body) > 255 {
		flags |= flagLong
		h := make([]byte, 9)
		h[0] = flags
		binary.BigEndian.PutUint64(h[1:], uint64(len(body)))
		return append(h, body...)
	}
	return append([]byte{flags, byte(len(body))}, body...)
}

// TestWholeConnWritesWholeMessages writes a greeting, a command and
// messages of short, empty and long frames in pieces of every size, and
// checks that the connection below sees the same bytes, written only at
// the ends of the greeting, the command and each message.
func TestWholeConnWritesWholeMessages(t *testing.T) {
	greeting := bytes.Repeat([]byte{0x7f}, zmtpGreeting)
	command := zmtpFrame([]byte("\x05READY"), false, true)
	var messages [][]byte
	for _, sizes := range [][]int{{5}, {0, 3, 300}, {1000, 0}, {255, 256, 70000}} {
		var m []byte
		for i, n := range sizes {
			m = append(m, zmtpFrame(bytes.Repeat([]byte{byte('a' + i)}, n), i < len(sizes)-1, false)...)
		}
		messages = append(messages, m)
	}
	units := append([][]byte{greeting, command}, messages...)
	stream := bytes.Join(units, nil)
	for _, piece := range []int{1, 2, 3, 7, 64, 100, 1 << 20} {
		rc := &recordConn{}
		c := newWholeConn(rc)
		rng := rand.New(rand.NewSource(int64(piece)))
		for i := 0; i < len(stream); {
			n := min(1+rng.Intn(piece), len(stream)-i)
			if _, err := c.Write(stream[i : i+n]); err != nil {
				t.Fatal(err)
			}
			i += n
		}
		if got := bytes.Join(rc.writes, nil); !bytes.Equal(got, stream) {
			t.Fatalf("pieces of up to %d: the bytes written differ from the stream", piece)
		}
		// Every write ends at the end of a unit.
		ends := map[int]bool{}
		at := 0
		for _, u := range units {
			at += len(u)
			ends[at] = true
		}
		at = 0
		for _, w := range rc.writes {
			at += len(w)
			if !ends[at] {
				t.Fatalf("pieces of up to %d: a write ends at byte %d, inside a message", piece, at)
			}
		}
		if piece == 1<<20 && len(rc.writes) != 1 {
			t.Errorf("the whole stream in one piece took %d writes, want 1", len(rc.writes))
		}
	}
}
