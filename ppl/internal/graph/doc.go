// Package graph holds the expression graph of a model: what package ppl's
// modelling API builds and its compiler (package ppl/internal/compile)
// reads.
//
// A Node is one value: data (KConst), a random variable's value (KRV), an
// accel/ir instruction over other nodes (KOp), a view with another shape
// (KReshape), or, inside a traced Scan step, a placeholder (KInput). A
// Model lists the random variables (RV), deterministic quantities and
// explicit log-density terms in declaration order. A node is not changed
// once an expression uses it, and its pointer identifies it, so an
// expression used twice is one node.
//
// The package is data only: it checks nothing and compiles nothing. Package
// ppl validates what users give it (shapes, supports, names) while it builds
// the graph and reports mistakes as its own *ppl.Error; the compiler turns
// a finished Model into programs. Keeping the graph apart is what lets the
// two sides live in different packages without either exporting its
// internals to the other: its fields are exported here, behind internal/,
// and nowhere else.
package graph
