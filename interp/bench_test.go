package interp_test

import (
	"context"
	"testing"

	"github.com/gobayes/gobayes/interp"
	"github.com/gobayes/gobayes/interp/symbols"
)

// BenchmarkNewSession measures an interpreter's start: loading the standard
// library's and the generated symbol tables.
func BenchmarkNewSession(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := interp.NewSession(interp.Options{Env: []string{}}); err != nil {
			b.Fatal(err)
		}
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

// BenchmarkExecute measures one cell of "1+1" in a warm session: what the
// interpreter adds to a cell's round trip through the kernel.
func BenchmarkExecute(b *testing.B) {
	s, err := interp.NewSession(interp.Options{Env: []string{}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for i := 0; i < 20; i++ {
		s.Execute(ctx, "1+1", nil)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := s.Execute(ctx, "1+1", nil); r.Err != nil || r.Value == nil {
			b.Fatalf("got %+v", r)
		}
	}
}
