package cgen

// Library is the device library every generated source starts with.
func Library() string { return deviceLibrary + translatedLibrary + generatedLibrary }

// Kernels is the kernel source every generated source ends with.
func Kernels() string { return kernels }

// Lit spells a float64 as a C literal, as the generated sources do.
func Lit(x float64) string { return lit(x) }

// Total is HMC.total: the device's sums of runs of SumChunk values added
// in order.
func (h *HMC) Total(q Buf, nq, n int, out []float64) error {
	if h.sums == nil || len(h.sums) < nq*((n+SumChunk-1)/SumChunk) {
		h.sums = make([]float64, nq*((n+SumChunk-1)/SumChunk))
	}
	return h.total(q, nq, n, out)
}

// BufSums is the buffer of the runs' sums.
const BufSums = bufSums
