package enginetest

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/gobayes/gobayes/display"
	"github.com/gobayes/gobayes/interp"
)

// Recorder is an Events that keeps everything a cell produced, in order.
type Recorder struct {
	mu     sync.Mutex
	events []string // "stdout:text", "stderr:text", "display:<id>:<update>:<text/plain>", "clear"
}

func (r *Recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	// Adjacent writes to one stream may arrive split or joined depending on
	// timing; join them so tests compare content and order only.
	if n := len(r.events); n > 0 && strings.HasPrefix(r.events[n-1], name+":") {
		r.events[n-1] += text
		return
	}
	r.events = append(r.events, name+":"+text)
}

func (r *Recorder) Display(b display.Bundle, id string, update bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	u := "new"
	if update {
		u = "update"
	}
	r.events = append(r.events, "display:"+id+":"+u+":"+b.Data[display.MIMEText].(string))
}

func (r *Recorder) Clear(wait bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "clear")
}

// Joined is what the cell produced, events separated by "|".
func (r *Recorder) Joined() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.events, "|")
}

// Step is one cell and what it must produce. The expected values are what
// the Go specification says the cell computes.
type Step struct {
	Cell    string
	Value   string // text/plain of the result, "" for none
	Events  string // Recorder.Joined(), checked when non-empty; "-" for none
	ErrName string // ename, "" for success
	ErrHas  string // substring of evalue
}

// RunSteps runs the steps' cells in order on s, reporting every difference.
func RunSteps(t *testing.T, s interp.Engine, steps []Step) {
	t.Helper()
	for i, st := range steps {
		rec := &Recorder{}
		r := s.Execute(context.Background(), st.Cell, rec)
		got := ""
		if r.Value != nil {
			got, _ = r.Value.Data[display.MIMEText].(string)
		}
		if got != st.Value {
			t.Errorf("step %d %q: value %q, want %q", i, st.Cell, got, st.Value)
		}
		if st.Events == "-" && rec.Joined() != "" || st.Events != "" && st.Events != "-" && rec.Joined() != st.Events {
			t.Errorf("step %d %q: events %q, want %q", i, st.Cell, rec.Joined(), st.Events)
		}
		switch {
		case st.ErrName == "" && r.Err != nil:
			t.Errorf("step %d %q: unexpected error %v", i, st.Cell, r.Err)
		case st.ErrName != "" && r.Err == nil:
			t.Errorf("step %d %q: no error, want %s", i, st.Cell, st.ErrName)
		case st.ErrName != "" && (r.Err.Name != st.ErrName || !strings.Contains(r.Err.Value, st.ErrHas)):
			t.Errorf("step %d %q: error %s: %s, want %s containing %q", i, st.Cell, r.Err.Name, r.Err.Value, st.ErrName, st.ErrHas)
		}
	}
}
