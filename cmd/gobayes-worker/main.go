// Command cpuworker serves accel/cpu with the accel/remote protocol on
// stdin and stdout: a stand-in for the CUDA worker, so that the tests run
// the whole worker path (process start, pipes, protocol) on any machine.
package main

import (
	"fmt"
	"os"

	"github.com/gobayes/gobayes/accel/cpu"
	"github.com/gobayes/gobayes/accel/remote"
)

func main() {
	if err := remote.Serve(os.Stdin, os.Stdout, cpu.New(0), "accel/cpu in a worker process"); err != nil {
		fmt.Fprintf(os.Stderr, "cpuworker: %v\n", err)
		os.Exit(1)
	}
}
