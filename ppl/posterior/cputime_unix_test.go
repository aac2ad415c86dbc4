//go:build unix

package posterior

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used, user and system, all
// threads: on a shared machine it says what a computation costs when
// wall time says how busy the neighbours are.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
