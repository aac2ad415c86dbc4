package supervisor

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gobayes/gobayes/interp"
)

// BenchmarkSupervisedFirstCell measures a worker's start up to the answer
// of its first cell, the wait a user has after the kernel starts.
func BenchmarkSupervisedFirstCell(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s, err := New(Options{Command: []string{os.Args[0]}, Env: append(os.Environ(), testWorkerEnv+"=1"), MemoryLimit: 1 << 30})
		if err != nil {
			b.Fatal(err)
		}
		if r := s.Execute(context.Background(), "1+1", nil); r.Err != nil {
			b.Fatal(r.Err)
		}
		s.Close()
	}
}

// BenchmarkExecute measures the round trip of "1+1" in process and
// through the worker.
func BenchmarkExecute(b *testing.B) {
	sup, err := New(Options{Command: []string{os.Args[0]}, Env: append(os.Environ(), testWorkerEnv+"=1"), MemoryLimit: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	defer sup.Close()
	ses, err := interp.NewSession(interp.Options{Env: []string{}})
	if err != nil {
		b.Fatal(err)
	}
	for name, eng := range map[string]interp.Engine{"session": ses, "supervised": sup} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if r := eng.Execute(context.Background(), "1+1", nil); r.Err != nil {
					b.Fatal(r.Err)
				}
			}
		})
	}
}

// BenchmarkInterrupt measures the time from cancelling a cell stuck in
// "for {}" to its answer through the worker.
func BenchmarkInterrupt(b *testing.B) {
	sup, err := New(Options{Command: []string{os.Args[0]}, Env: append(os.Environ(), testWorkerEnv+"=1"), MemoryLimit: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	defer sup.Close()
	var stop time.Duration
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		cancelled := make(chan time.Time, 1)
		go func() {
			time.Sleep(20 * time.Millisecond)
			cancelled <- time.Now()
			cancel()
		}()
		r := sup.Execute(ctx, "for {\n}", nil)
		stop += time.Since(<-cancelled)
		if r.Err == nil || r.Err.Name != "Interrupted" {
			b.Fatalf("got %+v", r.Err)
		}
	}
	b.ReportMetric(float64(stop.Microseconds())/float64(b.N), "µs-to-stop/op")
}
