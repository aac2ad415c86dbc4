// Command diag times what a notebook computes after sampling eight schools
// with 4 chains × 80,000 draws (issue 25): Summary("mu", "tau") and the
// posterior's full display (its HTML: summary table and warnings), each on
// a fresh copy of the posterior, against the sampling of those draws, timed
// in the same process.
//
//	go run ./bench/diag [-draws 80000] [-rounds 2]
package main
