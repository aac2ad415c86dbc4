package main

import (
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"text/tabwriter"
)

// ProfileDirEnv names the folder where the kernel process writes its memory
// profiles. Unset (the default), nothing is installed: no signal handler,
// no listener. Set, each SIGUSR1 to the kernel process writes these files
// there, numbered in order:
//
//	cpu-N.pprof     with ProfileCPUEnv set too, the CPU profile since the
//	                previous signal (or the start)
//	heap-N.pprof    the heap profile after a collection (go tool pprof;
//	                compare two with go tool pprof -base heap-1.pprof heap-2.pprof)
//	metrics-N.txt   every runtime/metrics value at that moment (heap in use,
//	                free, released, stacks, the collector's CPU time, ...)
//
// A signal and not a port, so that nothing is reachable from outside the
// machine and a user who never sets the variable cannot trip over it;
// bench/soak/soak.py --profile DIR uses it.
const ProfileDirEnv = "GOBAYES_PROFILE_DIR"

// ProfileCPUEnv, set to anything with ProfileDirEnv, records CPU profiles
// as well. It is apart because the CPU profiler's buffers and its table
// of stacks add to the kernel's memory: heap profiles meant to explain
// the kernel's memory are taken without it.
const ProfileCPUEnv = "GOBAYES_PROFILE_CPU"

// watchProfileSignal installs the SIGUSR1 handler when ProfileDirEnv is set.
func watchProfileSignal(lg *log.Logger) {
	dir := os.Getenv(ProfileDirEnv)
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		lg.Printf("%s: %v; no profiles will be written", ProfileDirEnv, err)
		return
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGUSR1)
	withCPU := os.Getenv(ProfileCPUEnv) != ""
	lg.Printf("%s=%s: SIGUSR1 (kill -USR1 %d) writes heap profiles and runtime metrics there (CPU profiles too: %v)", ProfileDirEnv, dir, os.Getpid(), withCPU)
	go func() {
		n := 1
		var cpu *os.File
		var err error
		if withCPU {
			if cpu, err = startCPUProfile(dir, n); err != nil {
				lg.Printf("CPU profile %d: %v", n, err)
			}
		}
		for range sigs {
			if cpu != nil {
				pprof.StopCPUProfile()
				if err := cpu.Close(); err != nil {
					lg.Printf("CPU profile %d: %v", n, err)
				}
			}
			if err := writeProfile(dir, n); err != nil {
				lg.Printf("profile %d: %v", n, err)
			} else {
				lg.Printf("profile %d written to %s", n, dir)
			}
			n++
			if withCPU {
				if cpu, err = startCPUProfile(dir, n); err != nil {
					lg.Printf("CPU profile %d: %v", n, err)
				}
			}
		}
	}()
}

// startCPUProfile starts recording cpu-n.pprof in dir; the caller stops
// it (pprof.StopCPUProfile) and closes the file.
func startCPUProfile(dir string, n int) (*os.File, error) {
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("cpu-%d.pprof", n)))
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// writeProfile writes heap-n.pprof and metrics-n.txt into dir.
func writeProfile(dir string, n int) error {
	runtime.GC() // the heap profile's in-use figures are as of the last collection
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("heap-%d.pprof", n)))
	if err != nil {
		return err
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, fmt.Sprintf("metrics-%d.txt", n)), []byte(metricsText()), 0o644)
}

// metricsText is every scalar runtime/metrics value, one a line, by name.
func metricsText() string {
	descs := metrics.All()
	samples := make([]metrics.Sample, len(descs))
	for i, d := range descs {
		samples[i].Name = d.Name
	}
	metrics.Read(samples)
	sort.Slice(samples, func(i, j int) bool { return samples[i].Name < samples[j].Name })
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	for _, s := range samples {
		switch s.Value.Kind() {
		case metrics.KindUint64:
			fmt.Fprintf(w, "%s\t%d\n", s.Name, s.Value.Uint64())
		case metrics.KindFloat64:
			fmt.Fprintf(w, "%s\t%g\n", s.Name, s.Value.Float64())
		}
	}
	w.Flush()
	return b.String()
}
