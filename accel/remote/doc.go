// Package remote runs an accel backend in another process and reaches it
// through a pipe: the way the main binary uses the CUDA worker, whose
// package initialisation ends the process when no CUDA driver is present.
//
// The client side is an accel.Backend; importing the package registers
// it as backend "cuda", started on first use from the worker binary
// gobayes-cuda (found through GOBAYES_CUDA_WORKER, beside the executable,
// or on PATH):
//
//	import _ "github.com/gobayes/gobayes/accel/remote"
//	b, err := accel.ByName("cuda") // or ppl.Backend("cuda") / GOBAYES_ACCEL=cuda
//
// When the worker is missing or fails to start, ByName returns an error
// saying so and what to do (build it with `make cuda`), and Default and
// Choose fall back to the CPU with a notice.
//
// The worker side is Serve(stdin, stdout, backend). The protocol is a
// stream of gob-encoded Request and Response values, one response per
// request; programs travel as their exported ir.Program fields.
package remote
