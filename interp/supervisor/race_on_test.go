//go:build race

package supervisor

// raceEnabled: the race detector's shadow memory does not fit under an
// address-space limit, so the out-of-memory cases are skipped.
const raceEnabled = true
