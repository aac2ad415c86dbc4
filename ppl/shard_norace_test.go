//go:build !race

package ppl

// raceEnabled reports a build with the race detector (see
// shard_race_test.go).
const raceEnabled = false
