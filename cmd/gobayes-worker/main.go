package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/cpu"
	"github.com/gobayes/gobayes/accel/cuda/cgen"
	"github.com/gobayes/gobayes/accel/remote"
)

func main() {
	workers := flag.Int("workers", 0, "goroutines accel/cpu evaluates positions on (0: GOMAXPROCS)")
	gcc := flag.Bool("gcc", false, "serve the generated CUDA C built by gcc (accel/cuda/cgen's GCC) instead of accel/cpu")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: gobayes-worker [-workers N] [-gcc]\n\n"+
			"Serves the accel/cpu backend (or with -gcc the generated CUDA C built by gcc) over the accel/remote protocol on stdin/stdout.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *workers < 0 {
		fmt.Fprintf(os.Stderr, "gobayes-worker: -workers %d: want 0 or more\n", *workers)
		os.Exit(2)
	}
	var b accel.Backend = cpu.New(*workers)
	info := "accel/cpu in a worker process"
	if *gcc {
		b, info = cgen.NewGCC(), "the generated CUDA C built by gcc, in a worker process"
	}
	if err := remote.Serve(os.Stdin, os.Stdout, b, info); err != nil {
		fmt.Fprintf(os.Stderr, "gobayes-worker: %v\n", err)
		os.Exit(1)
	}
}
