// Command datamem measures what the data of a large regression cost in
// memory and time: the peak resident memory of a process that builds a
// linear or logistic regression on rows × preds simulated values with
// package ppl and samples it with NUTS (4 chains, a few iterations), set
// against the size of the data; the time from the data in hand to the
// first iteration of a chain; and the time of one gradient.
//
//	go run ./bench/datamem                          # 10⁵ and 10⁶ rows × 100, both models
//	go run ./bench/datamem -rows 100000 -models linear -inputs rows
//
// Each case runs in a child process of its own (the command re-executes
// itself with -child), so that one case's heap and peak do not leak into
// the next. The child reads its peak resident set (VmHWM) from
// /proc/self/status: once with the data simulated (the anchor: the data as
// the user holds them, and the runtime's fixed cost) and once after
// sampling. The table's "peak / data" is the second over the data's bytes
// (X and y as float64); "above anchor / data" leaves out the user's own
// copy and the runtime, the memory the model and the sampler added.
//
// The input form says how the cell hands X to ppl: "rows" is a
// [][]float64 (ppl flattens it once), "flat" one []float64 of rows × preds
// values, row-major, wrapped in gonum's *mat.Dense (no copy).
package main
