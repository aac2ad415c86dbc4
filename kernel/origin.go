package kernel

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"
)

// Origin makes the headers of the messages the kernel sends: who sends them
// (Session, Username), when (Now) and under which id (NewID). Tests inject
// a fixed clock and a counter so that frames are reproducible. Now and
// NewID are called from several goroutines (shell and control) and must be
// safe for that.
type Origin struct {
	Session  string
	Username string
	Now      func() time.Time
	NewID    func() string
}

// DefaultOrigin is an Origin with a random session, the wall clock and
// random (version 4) UUIDs.
func DefaultOrigin() Origin {
	return Origin{Session: NewUUID(), Username: "gobayes", Now: time.Now, NewID: NewUUID}
}

// Header returns a fresh header for a message of type msgType.
func (o Origin) Header(msgType string) Header {
	return Header{
		MsgID:    o.NewID(),
		Session:  o.Session,
		Username: o.Username,
		Date:     o.Now().UTC().Format("2006-01-02T15:04:05.000000Z07:00"),
		MsgType:  msgType,
		Version:  ProtocolVersion,
	}
}

// Message returns a message of type msgType whose parent is parent (nil for
// none, as for the first status message) and whose content is content
// encoded as JSON (a rawContent is already). Identities are copied from
// the parent so that a reply on a ROUTER socket reaches the client that
// asked.
func (o Origin) Message(msgType string, parent *Message, content any) (Message, error) {
	c, ok := content.(rawContent)
	if !ok {
		var err error
		if c, err = marshal(content); err != nil {
			return Message{}, err
		}
	}
	m := Message{Header: o.Header(msgType), Parent: json.RawMessage("{}"), Metadata: json.RawMessage("{}"), Content: json.RawMessage(c)}
	if parent != nil {
		m.Parent = parent.RawHeader()
		m.Identities = parent.Identities
	}
	return m, nil
}

// NewUUID returns a random version 4 UUID.
func NewUUID() string {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		panic("kernel: no randomness for message ids: " + err.Error())
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:36], u[10:16])
	return string(b[:])
}
