package interp

// Cells reach the backends of several processes by name
// (ppl.Backend("mpi")): ppl does not link them, the notebook's
// interpreter does, as a Go program that wants them imports them.
import _ "github.com/gobayes/gobayes/accel/mpi"
