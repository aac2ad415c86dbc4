package enginetest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gobayes/gobayes/interp"
)

// LateOutputReachesLastCell checks that what a goroutine prints and
// displays after its cell has ended still reaches the engine's Events of
// the latest cell (as IPython sends a thread's output to the latest
// cell), even when an expression was evaluated in between, as the kernel
// does for user_expressions.
func LateOutputReachesLastCell(t *testing.T, eng interp.Engine) {
	const lines, updates = 50, 20
	rec := &Recorder{}
	cell := fmt.Sprintf(`import "fmt"
import "time"
import "github.com/gobayes/gobayes/display"
h := display.HandleWithID("late")
h.Update(-1)
go func() {
	time.Sleep(20 * time.Millisecond)
	for i := 0; i < %d; i++ {
		fmt.Println("line", i)
		time.Sleep(4 * time.Millisecond)
	}
	for i := 0; i < %d; i++ {
		h.Update(i)
	}
	fmt.Println("end")
}()`, lines, updates)
	if r := eng.Execute(context.Background(), cell, rec); r.Err != nil {
		t.Fatal(r.Err)
	}
	if _, err := eng.Evaluate(context.Background(), "1 + 1"); err != nil {
		t.Fatal(err)
	}
	count := func() (int, int, bool) {
		got := rec.Joined()
		return strings.Count(got, "line "), strings.Count(got, "display:late:update:"), strings.Contains(got, "end\n")
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, _, end := count(); end {
			break
		}
	}
	// The end line is printed last, and output keeps its order.
	if l, u, end := count(); l != lines || u != updates || !end {
		t.Errorf("late output: %d of %d lines, %d of %d display updates, end line %v; got %.300q", l, lines, u, updates, end, rec.Joined())
	}
}
