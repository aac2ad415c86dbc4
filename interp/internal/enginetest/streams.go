package enginetest

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gobayes/gobayes/interp"
)

// StreamsWhileRunning checks that output reaches the client while the cell
// still runs, not when it ends.
func StreamsWhileRunning(t *testing.T, eng interp.Engine) {
	rec := &Recorder{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan interp.Result)
	go func() {
		done <- eng.Execute(ctx, "import \"fmt\"\nimport \"time\"\nfmt.Println(\"first\")\ntime.Sleep(time.Hour)", rec)
	}()
	seen := false
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if rec.Joined() == "stdout:first\n" {
			seen = true
			break
		}
	}
	cancel()
	r := <-done
	if !seen {
		t.Errorf("output %q did not arrive while the cell ran", rec.Joined())
	}
	if r.Err == nil || r.Err.Name != "Interrupted" {
		t.Errorf("%+v, want Interrupted", r.Err)
	}
}

// chunkRecorder keeps each stream message as it arrives.
type chunkRecorder struct {
	Recorder
	mu     sync.Mutex
	chunks []string
}

func (r *chunkRecorder) Stream(name, text string) {
	r.mu.Lock()
	r.chunks = append(r.chunks, text)
	r.mu.Unlock()
}

// LargePrintStreamsInChunks: one large write reaches the Events in pieces
// of at most 64 KiB (interp's streamChunk), each valid UTF-8 even where a
// character straddles a cut, and all of it in order: no process on the
// way holds the whole text in one message.
func LargePrintStreamsInChunks(t *testing.T, eng interp.Engine) {
	rec := &chunkRecorder{}
	const n = 300 << 10 // "é" is two bytes: 600 KiB
	r := eng.Execute(context.Background(), "import \"fmt\"\nimport \"strings\"\nfmt.Print(\"x\" + strings.Repeat(\"é\", "+strconv.Itoa(n)+"))", rec)
	if r.Err != nil {
		t.Fatalf("%+v", r.Err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var all strings.Builder
	for i, c := range rec.chunks {
		if len(c) > 64<<10 {
			t.Errorf("chunk %d is %d bytes, want at most 64 KiB", i, len(c))
		}
		if !utf8.ValidString(c) {
			t.Errorf("chunk %d is not valid UTF-8 (a character cut in two)", i)
		}
		all.WriteString(c)
	}
	if want := "x" + strings.Repeat("é", n); all.String() != want {
		t.Errorf("%d bytes arrived in %d chunks, want the %d printed", all.Len(), len(rec.chunks), len(want))
	}
}
