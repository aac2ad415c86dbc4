package interp

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// typist is an InputEvents whose person types the lines given, one per
// request, and records the prompts shown. With no lines left it waits
// until the cell is interrupted (asked is closed at that first wait).
type typist struct {
	recorder
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
		return "", ErrNoInput
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

// inputEngines are the two engines a cell's standard input goes through:
// in process, and in the worker with its requests relayed by the supervisor.
func inputEngines(t *testing.T) map[string]Engine {
	return map[string]Engine{"session": newTestSession(t), "supervised": newTestSupervised(t, 1<<30)}
}

// The values a cell prints are what fmt's scanning functions and bufio
// give for the lines typed, by the Go documentation of fmt (Scan treats
// newlines as space; Scanln stops at a newline) and bufio.Reader.ReadString.
func TestCellReadsTypedInput(t *testing.T) {
	cases := []struct {
		name    string
		cell    string
		lines   []string
		prompts string // the prompts shown, "|"-separated
		events  string
	}{
		{"Scanln with a prompt", "var name string\nfmt.Print(\"name? \")\nfmt.Scanln(&name)\nfmt.Println(\"hello\", name)",
			[]string{"Ada"}, "name? ", "stdout:hello Ada\n"},
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
	for name, eng := range inputEngines(t) {
		runSteps(t, eng, []step{{cell: "import \"fmt\""}})
		for _, c := range cases {
			ty := &typist{lines: c.lines}
			r := eng.Execute(context.Background(), c.cell, ty)
			if r.Err != nil {
				t.Errorf("%s: %s: %v", name, c.name, r.Err)
				continue
			}
			if got := ty.promptList(); got != c.prompts {
				t.Errorf("%s: %s: prompts %q, want %q", name, c.name, got, c.prompts)
			}
			if got := ty.joined(); got != c.events {
				t.Errorf("%s: %s: output %q, want %q", name, c.name, got, c.events)
			}
		}
	}
}

// What a cell typed and did not read is not left for the next cell,
// which asks again.
func TestUnreadInputEndsWithItsCell(t *testing.T) {
	for name, eng := range inputEngines(t) {
		ty := &typist{lines: []string{"1 2", "5"}}
		for _, cell := range []string{"import \"fmt\"\nvar a, b int\nfmt.Scan(&a)", "fmt.Scan(&b)\nfmt.Println(a, b)"} {
			if r := eng.Execute(context.Background(), cell, ty); r.Err != nil {
				t.Fatalf("%s: %q: %v", name, cell, r.Err)
			}
		}
		if got := ty.joined(); got != "stdout:1 5\n" {
			t.Errorf("%s: output %q, want \"1 5\": the second cell must not read the first cell's leftover \" 2\"", name, got)
		}
	}
}

// Without a client that takes input (allow_stdin false, or Events that
// cannot ask), a read ends at once with an error that says why, wrapping
// io.EOF, and the cell says so once on stderr.
func TestReadWithoutInputFails(t *testing.T) {
	cell := "import (\n\t\"errors\"\n\t\"fmt\"\n\t\"io\"\n)\nvar s string\n_, err := fmt.Scanln(&s)\n_, err2 := fmt.Scanln(&s)\nfmt.Println(errors.Is(err, io.EOF), errors.Is(err2, io.EOF))\nfmt.Println(err)"
	want := "stderr:" + noInputNotice + "|stdout:true true\n" + errNoInputRead.Error() + "\n"
	for name, eng := range inputEngines(t) {
		for _, ev := range []interface {
			Events
			joined() string
		}{&recorder{}, &typist{refuse: true}} {
			done := make(chan Result, 1)
			go func() { done <- eng.Execute(context.Background(), cell, ev) }()
			select {
			case r := <-done:
				if r.Err != nil {
					t.Errorf("%s %T: %v", name, ev, r.Err)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("%s %T: the read of standard input hangs", name, ev)
			}
			if got := ev.joined(); got != want {
				t.Errorf("%s %T: output\n%q\nwant\n%q", name, ev, got, want)
			}
		}
	}
}

// An interrupt while the cell waits for input stops the cell; its
// variables stay, and the next cell reads input again.
func TestInterruptWhileWaitingForInput(t *testing.T) {
	for name, eng := range inputEngines(t) {
		runSteps(t, eng, []step{{cell: "import \"fmt\"\nkept := 41"}})
		ty := &typist{asked: make(chan struct{})}
		asked := ty.asked
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan Result, 1)
		go func() {
			done <- eng.Execute(ctx, "kept++\nvar s string\nfmt.Print(\"waiting? \")\nfmt.Scanln(&s)\nkept = 0", ty)
		}()
		select {
		case <-asked:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the cell never asked for input", name)
		}
		cancel()
		r := <-done
		if r.Err == nil || r.Err.Name != "Interrupted" {
			t.Errorf("%s: %+v, want Interrupted", name, r.Err)
		}
		if got := ty.promptList(); got != "waiting? " {
			t.Errorf("%s: prompts %q, want \"waiting? \"", name, got)
		}
		runSteps(t, eng, []step{{cell: "kept", value: "42"}})
		again := &typist{lines: []string{"yes"}}
		if r := eng.Execute(context.Background(), "fmt.Scanln(&s)\nfmt.Println(s)", again); r.Err != nil || again.joined() != "stdout:yes\n" {
			t.Errorf("%s: after the interrupt: %v, output %q, want yes", name, r.Err, again.joined())
		}
	}
}

// earlyCancel answers an input request as a client interrupted while the
// cell waits, in the order a worker process can see it: the wait's end
// first ("interrupted"), the interruption of the cell a little later.
type earlyCancel struct {
	recorder
	cancel context.CancelFunc
}

func (e *earlyCancel) Input(ctx context.Context, prompt string, password bool) (string, error) {
	go func() {
		time.Sleep(50 * time.Millisecond)
		e.cancel()
	}()
	return "", context.Canceled
}

// A read whose wait ends by interruption before the cell's own
// interruption arrives still stops the cell at the read: the statements
// after it do not run.
func TestInterruptedWaitStopsTheCell(t *testing.T) {
	for name, eng := range inputEngines(t) {
		runSteps(t, eng, []step{{cell: "import \"fmt\"\nkept := 41"}})
		ctx, cancel := context.WithCancel(context.Background())
		r := eng.Execute(ctx, "kept++\nvar s string\nfmt.Scanln(&s)\nkept = 0", &earlyCancel{cancel: cancel})
		if r.Err == nil || r.Err.Name != "Interrupted" {
			t.Errorf("%s: %+v, want Interrupted", name, r.Err)
		}
		runSteps(t, eng, []step{{cell: "kept", value: "42"}})
	}
}
