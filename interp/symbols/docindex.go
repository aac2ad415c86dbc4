package symbols

import (
	"bytes"
	"compress/gzip"
	_ "embed" // the documentation index
	"encoding/json"
	"fmt"
	"io"
)

// DocEntry documents one exported name: its declaration and doc comment.
type DocEntry struct {
	Decl string `json:"d"`
	Doc  string `json:"c,omitempty"`
}

// DocPackage documents one package. Entries are keyed by name, and by
// "Type.Method" for methods.
type DocPackage struct {
	Name    string              `json:"name"`
	Doc     string              `json:"doc,omitempty"`
	Entries map[string]DocEntry `json:"entries"`
}

// DocIndex maps an import path to its documentation.
type DocIndex map[string]DocPackage

//go:embed docs.json.gz
var docIndexGz []byte

// LoadDocIndex decodes the embedded documentation index of the standard
// library (as far as yaegi exposes it) and of the packages in Symbols,
// generated from their sources, so documentation works without them.
func LoadDocIndex() (DocIndex, error) {
	zr, err := gzip.NewReader(bytes.NewReader(docIndexGz))
	if err != nil {
		return nil, fmt.Errorf("symbols: reading the documentation index: %w", err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("symbols: reading the documentation index: %w", err)
	}
	var idx DocIndex
	if err := json.Unmarshal(raw, &idx); err != nil {
		return nil, fmt.Errorf("symbols: decoding the documentation index: %w", err)
	}
	return idx, nil
}
