package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// symbolsDir is package interp/symbols, where `go generate` writes, from
// this package's directory (the tests' working directory).
var symbolsDir = filepath.Join("..", "..", "interp", "symbols")

// TestCommittedFilesAreCurrent regenerates every file into a temporary
// directory and compares it with the committed one in package
// interp/symbols.
func TestCommittedFilesAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks every package from source; skipped in -short")
	}
	tmp := t.TempDir()
	if err := generate(tmp); err != nil {
		t.Fatal(err)
	}
	names := []string{DocIndexFile}
	for _, p := range Packages {
		names = append(names, SymbolFile(p))
	}
	for _, name := range names {
		fresh, err := os.ReadFile(filepath.Join(tmp, name))
		if err != nil {
			t.Fatal(err)
		}
		committed, err := os.ReadFile(filepath.Join(symbolsDir, name))
		if err != nil {
			t.Errorf("%s is missing: run `make generate`", name)
			continue
		}
		if !bytes.Equal(fresh, committed) {
			t.Errorf("%s is stale: run `make generate` and commit the result", name)
		}
	}
	// A generated file whose package left the list must go too.
	old, _ := filepath.Glob(filepath.Join(symbolsDir, "sym_*.go"))
	want := map[string]bool{}
	for _, p := range Packages {
		want[SymbolFile(p)] = true
	}
	for _, f := range old {
		if !want[filepath.Base(f)] {
			t.Errorf("%s belongs to no package in Packages: delete it", filepath.Base(f))
		}
	}
}
