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

// BenchmarkAppendLoop measures a cell that builds a slice element by
// element, with and without a memory limit: with one, each append and make
// goes through the allocation checks (alloc.go).
func BenchmarkAppendLoop(b *testing.B) {
	const cell = "xs := []float64{}\nfor i := 0; i < 10000; i++ {\n\txs = append(xs, float64(i))\n}\nrow := make([]float64, len(xs))\n_ = row"
	for _, limit := range []int64{0, 8 << 30} {
		name := "unchecked"
		if limit > 0 {
			name = "checked"
		}
		b.Run(name, func(b *testing.B) {
			s, err := interp.NewSession(interp.Options{Env: []string{}, MemoryLimit: limit})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if r := s.Execute(ctx, cell, nil); r.Err != nil {
					b.Fatal(r.Err)
				}
			}
		})
	}
}
