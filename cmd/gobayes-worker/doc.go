// Command gobayes-worker serves the accel/cpu backend over the
// accel/remote protocol on stdin/stdout: the same worker path as the GPU
// worker gobayes-cuda (process start, pipes, gob-encoded requests and
// responses), on any machine. The tests of accel/remote and ppl build it
// and start it in place of gobayes-cuda, and it serves to check the
// remote path, or to time its overhead, where there is no GPU.
//
// Usage:
//
//	gobayes-worker [-workers N] [-gcc]
//
// It reads requests on stdin and writes responses on stdout until stdin
// ends, then exits with status 0. The backend's errors go back to the
// client in the responses; when a request cannot be decoded or a response
// written, it prints the error on stderr and exits with status 1 (status 2
// for bad arguments). -workers is the number of goroutines accel/cpu
// evaluates positions on (default 0: one per GOMAXPROCS). -gcc serves the
// generated CUDA C built by gcc instead (accel/cuda/cgen's GCC): the
// samplers' device kernels (walks, ChEES iterations, NUTS) then run in the
// worker as on a GPU, which is how ppl's tests check the GPU's path end to
// end without one. It is not meant
// to be run by hand: point GOBAYES_CUDA_WORKER at it, and the "cuda"
// backend (accel.ByName("cuda"), GOBAYES_ACCEL=cuda, ppl.Backend("cuda"))
// starts it in place of gobayes-cuda:
//
//	go build -o bin/gobayes-worker ./cmd/gobayes-worker
//	GOBAYES_CUDA_WORKER=bin/gobayes-worker go run ./bench/gpu
//
// The hello it sends describes the device as "accel/cpu in a worker
// process".
package main
