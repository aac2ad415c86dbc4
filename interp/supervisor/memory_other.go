//go:build !linux

package supervisor

import (
	"os"
	"syscall"
)

// limitAddressSpace is a no-op where RLIMIT_AS is not available; the
// garbage collector's soft limit still applies.
func limitAddressSpace(limit int64) {}

// physicalMemory is unknown here; callers fall back to a fixed default.
func physicalMemory() int64 { return 0 }

// cgroupMemory is unknown here.
func cgroupMemory() int64 { return 0 }

func childProcAttr() *syscall.SysProcAttr { return nil }

func peakRSS(ps *os.ProcessState) int64 { return 0 }
