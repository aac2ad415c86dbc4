//go:build mpi

package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gobayes/gobayes/accel/mpi"
	"github.com/gobayes/gobayes/accel/mpi/ompi"
)

func main() {
	threads := flag.Int("threads", 1, "goroutines a rank evaluates its share of many chains on (0: GOMAXPROCS)")
	chunk := flag.Int("chunk", mpi.DefaultScatterChunk, "bytes of one round of placing data on the ranks")
	flag.Parse()
	w, err := ompi.Init()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gobayes-mpi: %v\n", err)
		os.Exit(1)
	}
	r := mpi.NewRank(w, *threads)
	r.SetScatterChunk(*chunk)
	hosts := r.Hosts(w.Host())
	if w.Rank() != 0 {
		if err := r.Follow(); err != nil {
			fmt.Fprintf(os.Stderr, "gobayes-mpi: %v\n", err)
			w.Abort(1)
		}
		w.Finalize()
		return
	}
	conn, err := mpi.Connect()
	if err != nil {
		fmt.Fprintf(os.Stderr, "gobayes-mpi: rank 0: %v\n", err)
		w.Abort(1)
	}
	if err := r.Lead(conn, w.Library()+", "+hosts); err != nil {
		fmt.Fprintf(os.Stderr, "gobayes-mpi: rank 0: %v\n", err)
	}
	conn.Close()
	w.Finalize()
}
