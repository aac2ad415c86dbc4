package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/traefik/yaegi/extract"
)

// generate writes every generated file of package symbols into dir.
func generate(dir string) error {
	for _, p := range Packages {
		src, err := extractPackage(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, SymbolFile(p)), src, 0o644); err != nil {
			return err
		}
	}
	idx, err := buildDocIndex(Packages)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, DocIndexFile), idx, 0o644)
}

// SymbolFile is the name of the generated file for an import path.
func SymbolFile(importPath string) string {
	return "sym_" + strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(importPath) + ".go"
}

// DocIndexFile is the name of the generated documentation index.
const DocIndexFile = "docs.json.gz"

func extractPackage(importPath string) ([]byte, error) {
	var buf bytes.Buffer
	ext := extract.Extractor{Dest: "symbols"}
	if _, err := ext.Extract(importPath, "", &buf); err != nil {
		return nil, fmt.Errorf("extracting %s: %w", importPath, err)
	}
	return buf.Bytes(), nil
}
