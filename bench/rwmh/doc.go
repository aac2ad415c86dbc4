// Command rwmh measures lockstep random-walk Metropolis (package
// ppl/lockstep) on the four-component Gaussian mixture of the issue,
// written as a ppl model, against a plain scalar Go loop of the same
// sampler in the same run, and reports wall time, CPU time and peak
// memory.
//
//	go run ./bench/rwmh                              # 10^6 chains × 1000 steps
//	go run ./bench/rwmh -chains 100000 -steps 100    # a quick look
//
// Both samplers start every chain at 0 and propose x' = x + 0.1·z, z a
// standard normal, for the given number of steps, no warm-up; the
// lockstep one keeps only Welford moments per chain and 16 chains' draws.
package main
