// Command genops writes the code derived from the op definitions of
// accel/opdef (see its doc.go): for the log densities and the elementwise
// ops, accel/ir's reference loops, accel/vec's lockstep kernels (for the
// ops in term form, termgen.go, only the element's value and partials in
// row loops that both evaluators' skeletons run), the CUDA
// device functions and their table in accel/cuda/cgen, the dist.Family
// and the Model method of each family; and accel/cuda/cgen/device_gen.cu,
// the CUDA C translation of the Go functions marked //gb:cuda in
// accel/opdef, accel/dense and accel/ir (device.go says which Go it
// reads). Run it through `go generate ./accel/opdef`; with -check it
// writes nothing and fails when a generated file differs from what it
// would write.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	check := flag.Bool("check", false, "write nothing; fail when a generated file is stale")
	root := flag.String("root", "", "the repository root (default: found from the working directory)")
	flag.Parse()
	if err := run(*root, *check); err != nil {
		fmt.Fprintln(os.Stderr, "genops:", err)
		os.Exit(1)
	}
}

func run(root string, check bool) error {
	if root == "" {
		var err error
		if root, err = findRoot(); err != nil {
			return err
		}
	}
	files, err := Generate(root)
	if err != nil {
		return err
	}
	if check {
		if stale := Stale(root, files); len(stale) > 0 {
			return fmt.Errorf("stale: %v; run go generate ./accel/opdef", stale)
		}
		return nil
	}
	for path, b := range files {
		if err := os.WriteFile(filepath.Join(root, path), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Stale lists the generated files that differ on disk from files.
func Stale(root string, files map[string][]byte) []string {
	var stale []string
	for path, b := range files {
		old, err := os.ReadFile(filepath.Join(root, path))
		if err != nil || !bytes.Equal(old, b) {
			stale = append(stale, path)
		}
	}
	sort.Strings(stale)
	return stale
}

// findRoot walks up from the working directory to go.mod.
func findRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}
