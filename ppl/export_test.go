package ppl

// SetScanGeneralOnly makes Compile run every scan through the general
// OpScan path (true) or rewrite affine recurrences (false, the default),
// for the benchmarks of package ppl_test.
func SetScanGeneralOnly(v bool) { scanGeneralOnly = v }
