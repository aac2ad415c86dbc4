package philox

//go:noescape
func blocksAVX2(rk *[20]uint64, c1, chain0 uint64, n int, o0, o1, o2, o3 *uint32)

func cpuHasAVX2() bool

var haveAVX2 = cpuHasAVX2()

// philoxConsts are blocksAVX2's constants: M0, M1, the low-word mask, the
// lane offsets 0..3, the increment 4, and the VPERMD index that gathers
// the low dwords of four 64-bit lanes.
var philoxConsts = [12]uint64{m0, m1, 0xFFFFFFFF, 0, 1, 2, 3, 4,
	0 | 2<<32, 4 | 6<<32, 0 | 2<<32, 4 | 6<<32}

func blocksVector(key [2]uint32, c1 uint32, chain0 uint64, w0, w1, w2, w3 []uint32) int {
	n := len(w0) &^ 3
	if !haveAVX2 || n == 0 || chain0+uint64(n) > 1<<32 {
		return 0
	}
	var rk [20]uint64
	k0, k1 := key[0], key[1]
	for r := 0; r < 10; r++ {
		rk[2*r], rk[2*r+1] = uint64(k0), uint64(k1)
		k0 += w0Const
		k1 += w1Const
	}
	blocksAVX2(&rk, uint64(c1), chain0, n, &w0[0], &w1[0], &w2[0], &w3[0])
	return n
}
