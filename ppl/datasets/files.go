package datasets

import (
	"bytes"
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The tutorials' data files, carried inside the binary so that a notebook
// reads them from wherever it runs:
//
//	t, err := table.ReadCSV(datasets.Path("junctions.csv"))
//
// junctions.csv: road accidents at 300 junctions of 15 districts, each
// watched for 1 to 6 years. The data are simulated (junctions_test.go
// writes them, with the seed and the true values it uses; nothing in them
// is observed): accidents ~ Poisson(years · exp(-0.5 + 0.1·traffic +
// layout effect + district effect)), traffic in thousands of vehicles a
// day, layout effects 0 (crossroads), -0.6 (roundabout) and -0.3
// (T-junction), district effects Normal(0, 0.4). junctions_new.csv: four
// planned junctions (no accidents column), to predict for.
//
//go:embed data/*.csv
var files embed.FS

// Names lists the data files Path knows.
func Names() []string {
	ents, _ := files.ReadDir("data")
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// Path is the path of the data file name on this machine: a copy of the
// embedded file in the temporary directory, written on first use (and
// again when it differs). An unknown name panics with the names there
// are.
func Path(name string) string {
	b, err := files.ReadFile("data/" + name)
	if err != nil {
		panic(fmt.Errorf("datasets: no data file %q (there are: %s)", name, strings.Join(Names(), ", ")))
	}
	dir := filepath.Join(os.TempDir(), "gobayes-datasets")
	p := filepath.Join(dir, name)
	if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, b) {
		return p
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		panic(fmt.Errorf("datasets: %v", err))
	}
	// Written under another name and renamed, so that a reader never
	// sees half a file.
	tmp, err := os.CreateTemp(dir, name+".*")
	if err != nil {
		panic(fmt.Errorf("datasets: %v", err))
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		panic(fmt.Errorf("datasets: %v", err))
	}
	tmp.Close()
	if err := os.Rename(tmp.Name(), p); err != nil {
		panic(fmt.Errorf("datasets: %v", err))
	}
	return p
}
