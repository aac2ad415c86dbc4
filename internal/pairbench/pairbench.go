// Package pairbench times two pieces of work against each other inside one
// benchmark: alternating chunks of calls, so that a busy neighbour or a
// change of clock speed falls on both alike, and the ratio of each pair of
// chunks, whose median is the figure to quote (this project's machines are
// shared and noisy; see bench/README.md).
package pairbench

import (
	"slices"
	"testing"
	"time"
)

// Run calls anchor and subject alternately, each in chunks of about 100 µs
// of the anchor's work, once a pair per b.Loop iteration, and reports the
// time per call of each (metrics anchorUnit and subjectUnit, "ns/op"
// units such as "handwritten-ns/op") and the median of the pairs'
// subject/anchor ratios ("ratio").
func Run(b *testing.B, anchor, subject func(), anchorUnit, subjectUnit string) {
	start := time.Now()
	for range 10 {
		anchor()
	}
	k := max(1, int(100*time.Microsecond/(time.Since(start)/10+1)))
	var ratios []float64
	var ta, ts time.Duration
	for b.Loop() {
		t0 := time.Now()
		for range k {
			anchor()
		}
		t1 := time.Now()
		for range k {
			subject()
		}
		t2 := time.Now()
		ta += t1.Sub(t0)
		ts += t2.Sub(t1)
		ratios = append(ratios, float64(t2.Sub(t1))/float64(t1.Sub(t0)))
	}
	slices.Sort(ratios)
	n := float64(b.N * k)
	b.ReportMetric(float64(ta)/n, anchorUnit)
	b.ReportMetric(float64(ts)/n, subjectUnit)
	b.ReportMetric(ratios[len(ratios)/2], "ratio")
}
