// Package ir is the instruction set of compiled models and its reference
// semantics: the one contract between the model compiler (package ppl) and
// every backend (accel/cpu, accel/cuda). No backend imports ppl.
//
// A Program is a flat list of instructions over one float64 buffer (a
// Frame). Slots [0, Dim) hold the unconstrained position; constants and
// data sit in place from Program.Init; every other value is written by
// exactly one instruction. Forward runs the instructions in order;
// Gradient then sweeps them in reverse, each op adding its contribution
// into the adjoints of the inputs that depend on the position. Nothing is
// allocated per evaluation: a Frame owns all the memory.
//
// Build programs with a Builder: it checks shapes as it goes, so a model
// error is reported when the model is built, not when it is sampled.
package ir
