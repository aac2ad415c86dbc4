package compile

// SetScanGeneralOnly makes Compile run every scan through the general
// OpScan path (true) or rewrite affine recurrences (false, the default),
// for the tests and benchmarks of package compile_test.
func SetScanGeneralOnly(v bool) { scanGeneralOnly = v }

// SetBlockVolume sets the data volume of one block of a shard and
// returns the previous one.
func SetBlockVolume(v int) (previous int) {
	previous, blockVolume = blockVolume, v
	return previous
}
