package main

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
)

// TestWriteProfile: one profile is a gzipped heap profile and a metrics
// file naming the heap's classes, numbered as asked.
func TestWriteProfile(t *testing.T) {
	dir := t.TempDir()
	if err := writeProfile(dir, 2); err != nil {
		t.Fatal(err)
	}
	assertProfile(t, filepath.Join(dir, "heap-2.pprof"))
	metrics, err := os.ReadFile(filepath.Join(dir, "metrics-2.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"/gc/heap/live:bytes", "/memory/classes/heap/released:bytes", "/cpu/classes/gc/total:cpu-seconds"} {
		if !strings.Contains(string(metrics), name+" ") {
			t.Errorf("metrics-2.txt has no %s:\n%s", name, metrics)
		}
	}
}

// TestCPUProfile: a CPU profile started and stopped is a gzipped profile.
func TestCPUProfile(t *testing.T) {
	dir := t.TempDir()
	f, err := startCPUProfile(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	assertProfile(t, filepath.Join(dir, "cpu-3.pprof"))
}

// assertProfile checks that path holds a whole gzip stream with something
// in it, as pprof writes its profiles.
func assertProfile(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s is not a gzipped profile: %v", filepath.Base(path), err)
	}
	n, err := io.Copy(io.Discard, z)
	if err != nil || n == 0 {
		t.Errorf("%s: %d bytes of profile, %v", filepath.Base(path), n, err)
	}
}
