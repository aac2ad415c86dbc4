//go:build race

package ppl

// raceEnabled reports a build with the race detector, under which
// sync.Pool drops items at random: tests of pooled memory skip their
// allocation counts.
const raceEnabled = true
