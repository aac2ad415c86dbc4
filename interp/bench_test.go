package interp_test

import (
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
