// Package filerows lets a block of a sharded model's program leave out the
// rows of data it reads from a file, naming the file and the rows
// instead, and reads them back where the block runs: an MPI rank
// (accel/mpi) reads its own rows, and minibatch inference (ppl) reads a
// block's rows when it draws it, so that neither the control link nor the
// kernel's memory carries every row.
//
//	d, err := filerows.Detach(block, []filerows.FileRows{{Value: id, Source: src, Lo: lo, Hi: hi}})
//	full, err := filerows.Attach(d) // a new program with its rows read
//
// It is a package of its own, not part of accel/mpi, because ppl uses it
// in-process too, and ppl reaches MPI only by name (accel.StartJob("mpi")).
package filerows
