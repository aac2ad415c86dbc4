package philox

const (
	w0Const = w0
	w1Const = w1
)

// Blocks computes Block for the counters (0, c1, chain0+i low, chain0+i
// high), i in [0, len(w0)), under key, and writes the four words of each
// into w0[i], w1[i], w2[i], w3[i] (slices of equal length). It is the
// first block of the streams New(seed, chain0+i, c1) of consecutive
// chains, computed four chains at a time with AVX2 on amd64.
func Blocks(key [2]uint32, c1 uint32, chain0 uint64, w0, w1, w2, w3 []uint32) {
	n := len(w0)
	w1, w2, w3 = w1[:n], w2[:n], w3[:n]
	i := blocksVector(key, c1, chain0, w0, w1, w2, w3)
	for ; i < n; i++ {
		ch := chain0 + uint64(i)
		w := Block([4]uint32{0, c1, uint32(ch), uint32(ch >> 32)}, key)
		w0[i], w1[i], w2[i], w3[i] = w[0], w[1], w[2], w[3]
	}
}
