package interp

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobayes/gobayes/display"
)

// slowValue renders only once the cell has said what it is doing.
type slowValue struct{ noted chan struct{} }

func (v slowValue) Preparing() string { return "computing the answer" }
func (v slowValue) HTML() string {
	select {
	case <-v.noted:
	case <-time.After(10 * time.Second): // no note came: the test fails below, not hangs
	}
	return "<b>42</b>"
}

// noteRecorder is a display.Publisher that closes noted on the first
// display it is sent.
type noteRecorder struct {
	progressRecorder
	once  sync.Once
	noted chan struct{}
}

func (r *noteRecorder) Display(b display.Bundle, id string, update bool) {
	r.progressRecorder.Display(b, id, update)
	r.once.Do(func() { close(r.noted) })
}

// TestSlowRenderSaysWhatItDoes: a value whose rendering outlasts
// slowRender gets a line saying what it is doing (its Preparing words),
// which ends as the time it took; a fast one shows nothing.
func TestSlowRenderSaysWhatItDoes(t *testing.T) {
	defer func(d time.Duration) { slowRender = d }(slowRender)
	slowRender = time.Millisecond
	rec := &noteRecorder{noted: make(chan struct{})}
	prev := display.SetPublisher(rec)
	defer display.SetPublisher(prev)

	b, err := renderValue(reflect.ValueOf(slowValue{noted: rec.noted}))
	if err != nil || b == nil || b.Data[display.MIMEHTML] != "<b>42</b>" {
		t.Fatalf("render: %v, %v", b, err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.bundles) != 2 || rec.ids[0] == "" || rec.ids[1] != rec.ids[0] || !rec.updates[1] {
		t.Fatalf("displays %v, ids %q, updates %v: want one shown, then updated", rec.bundles, rec.ids, rec.updates)
	}
	first, _ := rec.bundles[0].Data[display.MIMEText].(string)
	last, _ := rec.bundles[1].Data[display.MIMEText].(string)
	if first != "computing the answer …" || !strings.HasPrefix(last, "computing the answer: done in ") {
		t.Errorf("note %q, then %q", first, last)
	}

	slowRender = time.Hour
	rec.bundles = nil
	rec.mu.Unlock()
	_, _ = renderValue(reflect.ValueOf(42))
	rec.mu.Lock()
	if len(rec.bundles) != 0 {
		t.Errorf("a fast render showed %v", rec.bundles)
	}
}
