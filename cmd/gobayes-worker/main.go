package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gobayes/gobayes/accel/cpu"
	"github.com/gobayes/gobayes/accel/remote"
)

func main() {
	workers := flag.Int("workers", 0, "goroutines accel/cpu evaluates positions on (0: GOMAXPROCS)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: gobayes-worker [-workers N]\n\n"+
			"Serves the accel/cpu backend over the accel/remote protocol on stdin/stdout.\n\n")
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
	if err := remote.Serve(os.Stdin, os.Stdout, cpu.New(*workers), "accel/cpu in a worker process"); err != nil {
		fmt.Fprintf(os.Stderr, "gobayes-worker: %v\n", err)
		os.Exit(1)
	}
}
