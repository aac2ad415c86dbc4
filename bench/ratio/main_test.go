package main

import (
	"strings"
	"testing"
)

// A sample of `go test -bench Models -count 2` output, written by hand.
const sample = `goos: linux
BenchmarkModels/eight_schools_noncentered/compiled-2         	 5000000	       300.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkModels/eight_schools_noncentered/handwritten-2      	10000000	       100.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkModels/eight_schools_noncentered/compiled-2         	 5000000	       240.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkModels/eight_schools_noncentered/handwritten-2      	10000000	       120.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkModelRatio/eight_schools_noncentered-2         	    3876	    536580 ns/op	      1140 compiled-ns/op	       171.5 handwritten-ns/op	         1.25 ratio
BenchmarkModelRatio/eight_schools_noncentered-2         	    3876	    536580 ns/op	      1140 compiled-ns/op	       171.5 handwritten-ns/op	         1.4 ratio
BenchmarkModels/sblrc_blr/compiled-2         	 5000000	       130.0 ns/op	       16 B/op	       1 allocs/op
BenchmarkModels/sblrc_blr/handwritten-2      	10000000	       100.0 ns/op	       0 B/op	       0 allocs/op
PASS
`

func TestTable(t *testing.T) {
	rows, err := read(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	// Fastest runs: 240 and 100 ns, ratio 2.4; sblrc allocates.
	if r := rows[0]; r.compiled.ns != 240 || r.handwritten.ns != 100 || r.compiled.allocs != 0 {
		t.Errorf("eight schools row %+v", r)
	}
	if r := rows[1]; r.compiled.allocs != 1 {
		t.Errorf("sblrc row %+v", r)
	}
	// The paired ratio, smallest of 1.25 and 1.4, decides eight schools.
	if rows[0].paired != 1.25 {
		t.Errorf("paired ratio %v, want 1.25", rows[0].paired)
	}
	var out strings.Builder
	if write(&out, rows) {
		t.Error("write reports success for sblrc's allocation")
	}
	for _, want := range []string{"2.40", "1.25", "yes", "1.30", "NO"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}
