package enginetest

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobayes/gobayes/interp"
)

// A cell's standard input, read while the cell runs, through an engine's
// InputEvents.

// What a cell sees when it reads standard input and no client can answer
// (package interp's stdin.go): the notice on stderr, once per cell, and the
// read's error.
const (
	noInputNotice = "interp: this cell read standard input, but the client does not allow input requests (allow_stdin is false, as in nbclient and nbconvert); the read returned an error. Put the input in a variable instead.\n"
	noInputRead   = "interp: no input: this client does not allow input requests (allow_stdin is false, as in nbclient and nbconvert); put the input in a variable instead of reading standard input: EOF"
)

// typist is an InputEvents whose person types the lines given, one per
// request, and records the prompts shown. With no lines left it waits
// until the cell is interrupted (asked is closed at that first wait).
type typist struct {
	Recorder
	mu      sync.Mutex
	lines   []string
	prompts []string
	refuse  bool          // answer ErrNoInput, as for allow_stdin false
	asked   chan struct{} // closed when a request finds no line to type
}

func (ty *typist) Input(ctx context.Context, prompt string, password bool) (string, error) {
	ty.mu.Lock()
	ty.prompts = append(ty.prompts, prompt)
	if ty.refuse {
		ty.mu.Unlock()
		return "", interp.ErrNoInput
	}
	if len(ty.lines) > 0 {
		line := ty.lines[0]
		ty.lines = ty.lines[1:]
		ty.mu.Unlock()
		return line, nil
	}
	if ty.asked != nil {
		close(ty.asked)
		ty.asked = nil
	}
	ty.mu.Unlock()
	<-ctx.Done()
	return "", ctx.Err()
}

func (ty *typist) promptList() string {
	ty.mu.Lock()
	defer ty.mu.Unlock()
	return strings.Join(ty.prompts, "|")
}

// CellReadsTypedInput checks that the values a cell prints are what fmt's
// scanning functions and bufio give for the lines typed, by the Go documentation of fmt (Scan treats
// newlines as space; Scanln stops at a newline) and bufio.Reader.ReadString.
func CellReadsTypedInput(t *testing.T, eng interp.Engine) {
	cases := []struct {
		name    string
		cell    string
		lines   []string
		prompts string // the prompts shown, "|"-separated
		events  string
	}{
		{"Scanln with a prompt", "var name string\nfmt.Print(\"name? \")\nfmt.Scanln(&name)\nfmt.Println(\"hello\", name)",
			[]string{"Ada"}, "name? ", "stdout:hello Ada\n"},
		// The prompt waits for the read even when the cell pauses between
		// the two (a statement's compile, a busy machine): it was streamed
		// as output after 20 ms.
		{"prompt, a pause, then Scanln", "var who string\nfmt.Print(\"who? \")\ntime.Sleep(100 * time.Millisecond)\nfmt.Scanln(&who)\nfmt.Println(\"hello\", who)",
			[]string{"Ada"}, "who? ", "stdout:hello Ada\n"},
		{"prompt after a full line", "var n int\nfmt.Print(\"counting\\nhow many? \")\nfmt.Scanln(&n)\nfmt.Println(n * 2)",
			[]string{"21"}, "how many? ", "stdout:counting\n42\n"},
		{"Scan over two lines", "var a, b int\nfmt.Scan(&a, &b)\nfmt.Println(a + b)",
			[]string{"2", "40"}, "|", "stdout:42\n"},
		{"Scan of two values on one line", "var a, b int\nfmt.Scan(&a)\nfmt.Scan(&b)\nfmt.Println(a, b)",
			[]string{"7 8"}, "", "stdout:7 8\n"},
		{"Scanf", "var x float64\nvar unit string\nfmt.Scanf(\"%f %s\", &x, &unit)\nfmt.Println(x*2, unit)",
			[]string{"1.5 kg"}, "", "stdout:3 kg\n"},
		{"bufio on os.Stdin", "import (\n\t\"bufio\"\n\t\"os\"\n)\nline, err := bufio.NewReader(os.Stdin).ReadString('\\n')\nfmt.Printf(\"%q %v\\n\", line, err)",
			[]string{"two words"}, "", "stdout:\"two words\\n\" <nil>\n"},
		{"multibyte runes", "var w string\nfmt.Scanln(&w)\nfmt.Println(len(w), len([]rune(w)))",
			[]string{"héllo"}, "", "stdout:6 5\n"},
	}
	RunSteps(t, eng, []Step{{Cell: "import \"fmt\"\nimport \"time\""}})
	for _, c := range cases {
		ty := &typist{lines: c.lines}
		r := eng.Execute(context.Background(), c.cell, ty)
		if r.Err != nil {
			t.Errorf("%s: %v", c.name, r.Err)
			continue
		}
		if got := ty.promptList(); got != c.prompts {
			t.Errorf("%s: prompts %q, want %q", c.name, got, c.prompts)
		}
		if got := ty.Joined(); got != c.events {
			t.Errorf("%s: output %q, want %q", c.name, got, c.events)
		}
	}
}

// UnreadInputEndsWithItsCell checks that what a cell typed and did not
// read is not left for the next cell, which asks again.
func UnreadInputEndsWithItsCell(t *testing.T, eng interp.Engine) {
	ty := &typist{lines: []string{"1 2", "5"}}
	for _, cell := range []string{"import \"fmt\"\nvar a, b int\nfmt.Scan(&a)", "fmt.Scan(&b)\nfmt.Println(a, b)"} {
		if r := eng.Execute(context.Background(), cell, ty); r.Err != nil {
			t.Fatalf("%q: %v", cell, r.Err)
		}
	}
	if got := ty.Joined(); got != "stdout:1 5\n" {
		t.Errorf("output %q, want \"1 5\": the second cell must not read the first cell's leftover \" 2\"", got)
	}
}

// ReadWithoutInputFails checks that without a client that takes input
// (allow_stdin false, or Events that cannot ask), a read ends at once with an error that says why, wrapping
// io.EOF, and the cell says so once on stderr.
func ReadWithoutInputFails(t *testing.T, eng interp.Engine) {
	cell := "import (\n\t\"errors\"\n\t\"fmt\"\n\t\"io\"\n)\nvar s string\n_, err := fmt.Scanln(&s)\n_, err2 := fmt.Scanln(&s)\nfmt.Println(errors.Is(err, io.EOF), errors.Is(err2, io.EOF))\nfmt.Println(err)"
	want := "stderr:" + noInputNotice + "|stdout:true true\n" + noInputRead + "\n"
	for _, ev := range []interface {
		interp.Events
		Joined() string
	}{&Recorder{}, &typist{refuse: true}} {
		done := make(chan interp.Result, 1)
		go func() { done <- eng.Execute(context.Background(), cell, ev) }()
		select {
		case r := <-done:
			if r.Err != nil {
				t.Errorf("%T: %v", ev, r.Err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%T: the read of standard input hangs", ev)
		}
		if got := ev.Joined(); got != want {
			t.Errorf("%T: output\n%q\nwant\n%q", ev, got, want)
		}
	}
}

// InterruptWhileWaitingForInput checks that an interrupt while the cell
// waits for input stops the cell; its variables stay, and the next cell
// reads input again.
func InterruptWhileWaitingForInput(t *testing.T, eng interp.Engine) {
	RunSteps(t, eng, []Step{{Cell: "import \"fmt\"\nkept := 41"}})
	ty := &typist{asked: make(chan struct{})}
	asked := ty.asked
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan interp.Result, 1)
	go func() {
		done <- eng.Execute(ctx, "kept++\nvar s string\nfmt.Print(\"waiting? \")\nfmt.Scanln(&s)\nkept = 0", ty)
	}()
	select {
	case <-asked:
	case <-time.After(30 * time.Second):
		t.Fatal("the cell never asked for input")
	}
	cancel()
	r := <-done
	if r.Err == nil || r.Err.Name != "Interrupted" {
		t.Errorf("%+v, want Interrupted", r.Err)
	}
	if got := ty.promptList(); got != "waiting? " {
		t.Errorf("prompts %q, want \"waiting? \"", got)
	}
	RunSteps(t, eng, []Step{{Cell: "kept", Value: "42"}})
	again := &typist{lines: []string{"yes"}}
	if r := eng.Execute(context.Background(), "fmt.Scanln(&s)\nfmt.Println(s)", again); r.Err != nil || again.Joined() != "stdout:yes\n" {
		t.Errorf("after the interrupt: %v, output %q, want yes", r.Err, again.Joined())
	}
}

// earlyCancel answers an input request as a client interrupted while the
// cell waits, in the order a worker process can see it: the wait's end
// first ("interrupted"), the interruption of the cell a little later.
type earlyCancel struct {
	Recorder
	cancel context.CancelFunc
}

func (e *earlyCancel) Input(ctx context.Context, prompt string, password bool) (string, error) {
	go func() {
		time.Sleep(50 * time.Millisecond)
		e.cancel()
	}()
	return "", context.Canceled
}

// InterruptedWaitStopsTheCell checks that a read whose wait ends by
// interruption before the cell's own interruption arrives still stops the
// cell at the read: the statements after it do not run.
func InterruptedWaitStopsTheCell(t *testing.T, eng interp.Engine) {
	RunSteps(t, eng, []Step{{Cell: "import \"fmt\"\nkept := 41"}})
	ctx, cancel := context.WithCancel(context.Background())
	r := eng.Execute(ctx, "kept++\nvar s string\nfmt.Scanln(&s)\nkept = 0", &earlyCancel{cancel: cancel})
	if r.Err == nil || r.Err.Name != "Interrupted" {
		t.Errorf("%+v, want Interrupted", r.Err)
	}
	RunSteps(t, eng, []Step{{Cell: "kept", Value: "42"}})
}
