package comm

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
)

// The message types a Message carries: the Jupyter protocol's names.
const (
	TypeOpen  = "comm_open"
	TypeMsg   = "comm_msg"
	TypeClose = "comm_close"
)

// Message is one comm message, in either direction. Data is the message's
// JSON object (content.data); TargetName is set on comm_open only. Binary
// buffers are not carried: the widgets built on comm need none.
type Message struct {
	Type       string         `json:"type"`
	CommID     string         `json:"comm_id"`
	TargetName string         `json:"target_name,omitempty"`
	Data       map[string]any `json:"data"`
}

// Sender takes the messages Go code sends to the client. The interpreter
// sets one while a cell or a comm handler runs.
type Sender interface {
	SendComm(m Message)
}

// Comm is one open comm.
type Comm struct {
	id, target string

	mu      sync.Mutex
	onMsg   func(data map[string]any)
	onClose func(data map[string]any)
	closed  bool
}

// ID is the comm's id (a widget's model id).
func (c *Comm) ID() string { return c.id }

// Target is the comm's target name.
func (c *Comm) Target() string { return c.target }

// Send sends data to the client as a comm_msg. A closed comm sends nothing.
func (c *Comm) Send(data map[string]any) {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if !closed {
		send(Message{Type: TypeMsg, CommID: c.id, Data: nonNil(data)})
	}
}

// Close closes the comm and tells the client (comm_close).
func (c *Comm) Close() {
	if c.forget() {
		send(Message{Type: TypeClose, CommID: c.id, Data: map[string]any{}})
	}
}

// OnMsg sets the handler of the client's comm_msg on c.
func (c *Comm) OnMsg(f func(data map[string]any)) {
	c.mu.Lock()
	c.onMsg = f
	c.mu.Unlock()
}

// OnClose sets the handler run when the client closes c.
func (c *Comm) OnClose(f func(data map[string]any)) {
	c.mu.Lock()
	c.onClose = f
	c.mu.Unlock()
}

// forget marks c closed and drops it from the registry; it reports whether
// c was open.
func (c *Comm) forget() bool {
	c.mu.Lock()
	was := !c.closed
	c.closed = true
	c.mu.Unlock()
	reg.mu.Lock()
	delete(reg.comms, c.id)
	reg.mu.Unlock()
	return was
}

// registry is the process's open comms, its targets and its sender.
type registry struct {
	mu      sync.Mutex
	comms   map[string]*Comm
	targets map[string]func(c *Comm, data map[string]any)
	sender  Sender
	request string
	newID   func() string
}

var reg = &registry{
	comms:   map[string]*Comm{},
	targets: map[string]func(*Comm, map[string]any){},
	newID:   randomID,
}

func randomID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// SetSender makes s the destination of messages sent from now on and
// returns the previous one, so that a caller can restore it.
func SetSender(s Sender) (previous Sender) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	previous, reg.sender = reg.sender, s
	return previous
}

// SetRequest records the msg_id of the client's request being served and
// returns the previous one.
func SetRequest(msgID string) (previous string) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	previous, reg.request = reg.request, msgID
	return previous
}

// Request is the msg_id of the client's request being served: the parent
// of what is published now. "" outside a kernel.
func Request() string {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	return reg.request
}

// SetIDSource replaces the source of new comm ids (random hex by default),
// so that tests get reproducible messages; nil restores the default. It
// returns the previous source.
func SetIDSource(f func() string) (previous func() string) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	previous = reg.newID
	if f == nil {
		f = randomID
	}
	reg.newID = f
	return previous
}

func send(m Message) {
	reg.mu.Lock()
	s := reg.sender
	reg.mu.Unlock()
	if s != nil {
		s.SendComm(m)
	}
}

func nonNil(data map[string]any) map[string]any {
	if data == nil {
		return map[string]any{}
	}
	return data
}

// Open opens a comm to target in the client (comm_open with data) and
// returns it.
func Open(target string, data map[string]any) *Comm {
	reg.mu.Lock()
	c := &Comm{id: reg.newID(), target: target}
	reg.comms[c.id] = c
	reg.mu.Unlock()
	send(Message{Type: TypeOpen, CommID: c.id, TargetName: target, Data: nonNil(data)})
	return c
}

// RegisterTarget makes open handle the comms the client opens with target
// name; a later registration replaces an earlier one.
func RegisterTarget(name string, open func(c *Comm, data map[string]any)) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	reg.targets[name] = open
}

// Deliver hands a message from the client to its comm: comm_open to the
// target's handler, comm_msg to the comm's OnMsg, comm_close to its OnClose
// (the comm is then forgotten). It returns an error, and runs nothing, for
// an unknown target or comm id; a handler's panic is the caller's to
// recover.
func Deliver(m Message) error {
	data := nonNil(m.Data)
	switch m.Type {
	case TypeOpen:
		reg.mu.Lock()
		open := reg.targets[m.TargetName]
		_, dup := reg.comms[m.CommID]
		var c *Comm
		if open != nil && !dup && m.CommID != "" {
			c = &Comm{id: m.CommID, target: m.TargetName}
			reg.comms[c.id] = c
		}
		reg.mu.Unlock()
		switch {
		case open == nil:
			return fmt.Errorf("comm: no comm target %q", m.TargetName)
		case c == nil:
			return fmt.Errorf("comm: cannot open comm %q: its id is empty or already open", m.CommID)
		}
		open(c, data)
		return nil
	case TypeMsg, TypeClose:
		reg.mu.Lock()
		c := reg.comms[m.CommID]
		reg.mu.Unlock()
		if c == nil {
			return fmt.Errorf("comm: no open comm %q", m.CommID)
		}
		c.mu.Lock()
		f := c.onMsg
		if m.Type == TypeClose {
			f = c.onClose
		}
		c.mu.Unlock()
		if m.Type == TypeClose {
			c.forget()
		}
		if f != nil {
			f(data)
		}
		return nil
	}
	return fmt.Errorf("comm: %q is not a comm message type", m.Type)
}

// Info lists the open comms whose target is target ("" for every target):
// comm id → target name, as comm_info_reply reports them.
func Info(target string) map[string]string {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	out := map[string]string{}
	for id, c := range reg.comms {
		if target == "" || c.target == target {
			out[id] = c.target
		}
	}
	return out
}

// Reset forgets every open comm without telling the client (the session
// they belonged to is gone); targets stay registered.
func Reset() {
	reg.mu.Lock()
	comms := reg.comms
	reg.comms = map[string]*Comm{}
	reg.mu.Unlock()
	for _, c := range comms {
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
	}
}
