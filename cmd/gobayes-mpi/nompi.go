//go:build !mpi

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "gobayes-mpi was built without MPI: build it with `make mpi` (go build -tags mpi; needs Debian's libopenmpi-dev)")
	os.Exit(2)
}
