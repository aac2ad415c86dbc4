//go:build !amd64

package vec

const useAVX2 = false

func expAVX2(dst, x []float64) { panic("vec: no AVX2 kernel on this architecture") }

func logAVX2(dst, x []float64) { panic("vec: no AVX2 kernel on this architecture") }

func mixSumAVX2(dst, ys, par []float64) { panic("vec: no AVX2 kernel on this architecture") }
