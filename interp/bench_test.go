package interp

import (
	"context"
	"os"
	"testing"

	"github.com/gobayes/gobayes/interp/symbols"
)

// BenchmarkNewSession measures an interpreter's start: loading the standard
// library's and the generated symbol tables.
func BenchmarkNewSession(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := NewSession(Options{Env: []string{}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSupervisedFirstCell measures a worker's start up to the answer
// of its first cell, the wait a user has after the kernel starts.
func BenchmarkSupervisedFirstCell(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s, err := NewSupervised(SupervisedOptions{Command: []string{os.Args[0]}, Env: append(os.Environ(), testWorkerEnv+"=1"), MemoryLimit: 1 << 30})
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
	sup, err := NewSupervised(SupervisedOptions{Command: []string{os.Args[0]}, Env: append(os.Environ(), testWorkerEnv+"=1"), MemoryLimit: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	defer sup.Close()
	ses, err := NewSession(Options{Env: []string{}})
	if err != nil {
		b.Fatal(err)
	}
	for name, eng := range map[string]Engine{"session": ses, "supervised": sup} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if r := eng.Execute(context.Background(), "1+1", nil); r.Err != nil {
					b.Fatal(r.Err)
				}
			}
		})
	}
}

// BenchmarkLoadDocIndex measures decoding the embedded documentation
// index, which the first Inspect or %doc pays.
func BenchmarkLoadDocIndex(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := symbols.LoadDocIndex(); err != nil {
			b.Fatal(err)
		}
	}
}
