package supervisor

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// addressSpaceSlack is address space for what grows besides the heap
// (goroutine stacks, heap metadata) once the limit is set.
const addressSpaceSlack = 256 << 20

// limitAddressSpace caps the process's virtual memory (RLIMIT_AS) at what
// it has reserved so far plus limit: the Go runtime reserves far more
// address space than it uses (1.6 GB at start measured on Go 1.26), so a cap
// of limit alone would stop it at once.
//
// Only the soft limit is lowered: a helper process the worker starts (a GPU
// backend, whose driver reserves huge address ranges) inherits it and may
// raise it back to the hard limit.
func limitAddressSpace(limit int64) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &old); err != nil {
		return
	}
	l := uint64(limit) + uint64(virtualSize()) + addressSpaceSlack
	if l > old.Max {
		l = old.Max
	}
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: l, Max: old.Max})
}

// virtualSize is the process's current address space in bytes (VmSize).
func virtualSize() int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(raw, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmSize:")); ok {
			f := bytes.Fields(rest)
			if len(f) >= 1 {
				kb, _ := strconv.ParseInt(string(f[0]), 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

// physicalMemory is the machine's memory in bytes, 0 when unknown.
func physicalMemory() int64 {
	var info syscall.Sysinfo_t
	if err := syscall.Sysinfo(&info); err != nil {
		return 0
	}
	return int64(info.Totalram) * int64(info.Unit)
}

// cgroupMemory is the memory limit of this process's cgroup (a
// container's, a systemd slice's) in bytes, 0 when there is none or it
// cannot be read: cgroup v2's memory.max, else v1's memory.limit_in_bytes.
func cgroupMemory() int64 {
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		raw, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// "max" (v2), or a huge number (v1), when there is no limit.
		n, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
		if err != nil || n <= 0 || n >= 1<<62 {
			return 0
		}
		return n
	}
	return 0
}

// childProcAttr kills the worker when the kernel dies.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// peakRSS is the most memory an ended process held, in bytes; 0 when
// unknown.
func peakRSS(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10 // kilobytes on Linux
	}
	return 0
}
