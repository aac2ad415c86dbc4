// Package posterior holds the draws of a run and what is computed from
// them: the summary table (the columns of ArviZ's az.summary, as HTML and
// text), warnings in plain words, selection by variable name, and export as
// Stan CSV and JSON.
//
// Elements are named by their coordinates where their dimensions have
// labels (theta[Choate]), else by 0-based index (theta[0]), as Go and
// ArviZ count; Stan CSV files count from 1, and are mapped when written
// and read.
//
// A Posterior displays itself: in a notebook its HTML method renders the
// summary table, and fmt prints it as text.
//
//	fit.Summary()            // table of every scalar
//	fit.Select("mu", "tau")  // the same posterior restricted to two variables
//	fit.ByChain("theta[0]")  // draws of one scalar, per chain
//	fit.Array("alpha").Sel("county", "Anoka") // one element's draws, by label
//	fit.WriteStanCSV("out/eight_schools") // out/eight_schools_1.csv, ...
package posterior
