// Command gensymbols writes the yaegi symbol tables of package
// interp/symbols: one file per package in Packages, made by yaegi's
// extract package, and the documentation index (docs.json.gz) that
// Inspect and %doc read.
//
//	gensymbols [-o DIR]   # write the files into DIR (default .)
//
// Run it through `go generate ./interp/symbols`, which writes into
// interp/symbols (`make generate` runs that and accel/opdef's generator,
// `go generate ./accel/opdef`); a test regenerates into a temporary
// directory and fails when the committed files are stale.
package main

import (
	"flag"
	"fmt"
	"os"
)

// Packages are the compiled packages a cell can import besides the
// standard library. To offer another package, add its import path here
// and run `go generate ./interp/symbols`.
var Packages = []string{
	"github.com/gobayes/gobayes/display",
	"github.com/gobayes/gobayes/widgets",
	"github.com/gobayes/gobayes/plotting",
	"github.com/gobayes/gobayes/ppl",
	"github.com/gobayes/gobayes/ppl/datasets",
	"github.com/gobayes/gobayes/ppl/diag",
	"github.com/gobayes/gobayes/ppl/dist",
	"github.com/gobayes/gobayes/ppl/infer",
	"github.com/gobayes/gobayes/ppl/posterior",
	"github.com/gobayes/gobayes/table",
	"gonum.org/v1/gonum/floats",
	"gonum.org/v1/gonum/mat",
	"gonum.org/v1/gonum/optimize",
	"gonum.org/v1/gonum/stat",
	"gonum.org/v1/gonum/stat/distuv",
}

func main() {
	out := flag.String("o", ".", "directory to write the generated files to")
	flag.Parse()
	if err := generate(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gensymbols:", err)
		os.Exit(1)
	}
}
