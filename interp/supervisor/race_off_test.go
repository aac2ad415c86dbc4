//go:build !race

package supervisor

const raceEnabled = false
