// Package philox is the counter-based random number generator
// Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers:
// as easy as 1, 2, 3", SC 2011), with uniform and normal variates on top.
//
// A counter-based generator is a keyed bijection of a counter: the numbers
// of (seed, chain, step) are a pure function of those three integers, so a
// lockstep sampler draws the same numbers whatever the order in which
// chains run, on any number of cores, and a GPU kernel that implements
// Block and the same ziggurat tables draws the same numbers too.
//
//	s := philox.New(seed, chain, step) // the stream of one chain at one step
//	z := s.Normal()                    // standard normal
//	u := s.Uniform()                   // uniform on (0, 1)
//
// Block is the bare bijection, for callers that lay out counters
// themselves. The package lives in accel, below ppl, because the CPU
// samplers of ppl/lockstep and the device code of accel/cuda/cgen
// (walk.cu, chees.cu; Tables gives them the ziggurats) draw from the
// same streams.
package philox
