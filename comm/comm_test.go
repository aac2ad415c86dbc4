package comm

import (
	"reflect"
	"strconv"
	"testing"
)

// recorder is a Sender that keeps what was sent.
type recorder struct{ sent []Message }

func (r *recorder) SendComm(m Message) { r.sent = append(r.sent, m) }

// fresh gives a test an empty registry, a recorder and ids "c1", "c2", ….
func fresh(t *testing.T) *recorder {
	t.Helper()
	Reset()
	n := 0
	prevID := SetIDSource(func() string { n++; return "c" + strconv.Itoa(n) })
	r := &recorder{}
	prev := SetSender(r)
	t.Cleanup(func() {
		SetSender(prev)
		SetIDSource(prevID)
		Reset()
	})
	return r
}

func TestOpenSendClose(t *testing.T) {
	r := fresh(t)
	c := Open("jupyter.widget", map[string]any{"_model_name": "IntSliderModel"})
	c.Send(map[string]any{"method": "update"})
	if got := Info("jupyter.widget"); !reflect.DeepEqual(got, map[string]string{"c1": "jupyter.widget"}) {
		t.Errorf("Info = %v", got)
	}
	c.Close()
	c.Send(map[string]any{"method": "late"}) // dropped: the comm is closed
	c.Close()                                // no second comm_close
	want := []Message{
		{Type: TypeOpen, CommID: "c1", TargetName: "jupyter.widget", Data: map[string]any{"_model_name": "IntSliderModel"}},
		{Type: TypeMsg, CommID: "c1", Data: map[string]any{"method": "update"}},
		{Type: TypeClose, CommID: "c1", Data: map[string]any{}},
	}
	if !reflect.DeepEqual(r.sent, want) {
		t.Errorf("sent\n%v\nwant\n%v", r.sent, want)
	}
	if got := Info(""); len(got) != 0 {
		t.Errorf("Info after Close = %v, want none", got)
	}
}

func TestDeliver(t *testing.T) {
	r := fresh(t)
	var got []string
	RegisterTarget("test.echo", func(c *Comm, data map[string]any) {
		got = append(got, "open "+c.ID()+" "+data["hello"].(string))
		c.OnMsg(func(data map[string]any) { c.Send(data) })
		c.OnClose(func(map[string]any) { got = append(got, "closed "+c.ID()) })
	})
	steps := []struct {
		m       Message
		wantErr bool
	}{
		{Message{Type: TypeOpen, CommID: "k1", TargetName: "test.echo", Data: map[string]any{"hello": "there"}}, false},
		{Message{Type: TypeOpen, CommID: "k1", TargetName: "test.echo"}, true}, // already open
		{Message{Type: TypeOpen, CommID: "k2", TargetName: "no.such.target"}, true},
		{Message{Type: TypeMsg, CommID: "k1", Data: map[string]any{"x": 1.0}}, false},
		{Message{Type: TypeMsg, CommID: "unknown"}, true},
		{Message{Type: "comm_nonsense", CommID: "k1"}, true},
		{Message{Type: TypeClose, CommID: "k1"}, false},
		{Message{Type: TypeMsg, CommID: "k1"}, true}, // closed by the client
	}
	for i, s := range steps {
		if err := Deliver(s.m); (err != nil) != s.wantErr {
			t.Errorf("step %d: Deliver(%+v) = %v, want error %v", i, s.m, err, s.wantErr)
		}
	}
	if want := []string{"open k1 there", "closed k1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("handlers ran %q, want %q", got, want)
	}
	if want := []Message{{Type: TypeMsg, CommID: "k1", Data: map[string]any{"x": 1.0}}}; !reflect.DeepEqual(r.sent, want) {
		t.Errorf("sent %v, want the echo %v", r.sent, want)
	}
}

func TestRequest(t *testing.T) {
	prev := SetRequest("m1")
	defer SetRequest(prev)
	if got := Request(); got != "m1" {
		t.Errorf("Request = %q, want m1", got)
	}
}
