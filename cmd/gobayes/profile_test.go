package main

import (
	"bytes"
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
	heap, err := os.ReadFile(filepath.Join(dir, "heap-2.pprof"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(heap, []byte{0x1f, 0x8b}) {
		t.Errorf("heap-2.pprof is not a gzipped profile: % x", heap[:min(len(heap), 8)])
	}
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
	b, err := os.ReadFile(filepath.Join(dir, "cpu-3.pprof"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		t.Errorf("cpu-3.pprof is not a gzipped profile: % x", b[:min(len(b), 8)])
	}
}
