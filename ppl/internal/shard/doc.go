// Package shard evaluates a sharded log density in parallel: a main
// program plus one program per block of rows, their values and gradients
// summed. Package ppl's compiler (ppl/internal/compile) builds the
// programs; a Density of a sharded model owns one Evaluator and calls
// Eval:
//
//	ev := shard.New(main, blocks, plan.Shards, dim)
//	lp := ev.Eval(x, grad)
//
// A call is one accel/par loop over the main program and the blocks: the
// caller works through them with the process's helper goroutines
// (GOMAXPROCS-1 of them, at most workers-1 joining a call), each claimed
// once. The caller never waits for a helper that has not started and
// waits for a busy one at most one block: when the helpers are busy
// (NUTS runs one chain per core, each with its own Density) the caller
// computes the blocks alone, and sharding costs a few atomic operations
// rather than oversubscribing the cores. Nothing is allocated and no
// goroutine is started per call; the values and gradients are summed in
// block order, so the result does not depend on which goroutine ran which
// block.
//
// It is the run-time half of sharding, apart from the compiler (which
// decides the blocks): it depends on accel/ir and accel/par alone and exports two
// names, so the compiler and ppl's Density share nothing else about it.
package shard
