// Package devcases holds one small function per construct of the device
// translator's subset of Go (cmd/genops/device.go), each marked
// //gb:cuda: cmd/genops's TestDeviceConstructs translates them, compiles
// the C with gcc and compares it with these functions on random and edge
// arguments, bit for bit (none calls an inexact C library function).
// Nothing else imports the package.
package devcases

import "math"

const (
	half  = 1 / 2   // untyped integer division: 0
	third = 1.0 / 3 // rounded once, as Go folds it
	big   = 1 << 40
	mask  = 0xFFFF
)

// steps is a package-level table: a const array in the C.
var steps = [...]float64{0.5, 1.25, -3, 8}

// Arith is float64 arithmetic, unary minus and folded constants.
//
//gb:cuda gb_dc_arith
func Arith(a, b float64) float64 {
	return -a*b + (a-b)/(b+2) - third*a + float64(half) + big*1e-12
}

// IntOps is int arithmetic, / and % truncating toward zero, and
// conversions between int and float64.
//
//gb:cuda gb_dc_int_ops
func IntOps(a, b int) (int, int, float64) {
	if b == 0 {
		return a, -a, float64(a)
	}
	q, r := a/b, a%b
	return q*b + r, -q + mask, float64(q) / 3
}

// Logic is comparisons, &&, || and ! on float64s and bools.
//
//gb:cuda gb_dc_logic
func Logic(a, b float64, c bool) bool {
	return (a < b || a >= 2*b) && !(a == b) || c && a != a
}

// Classify is if / else if / else, with an init statement.
//
//gb:cuda gb_dc_classify
func Classify(x float64) int {
	if y := x * x; y > 100 {
		return 2
	} else if x < 0 {
		return -1
	} else if math.IsNaN(x) {
		return 7
	}
	return 0
}

// Loops is a three-clause for, a condition-only for, for {} with break,
// and continue.
//
//gb:cuda gb_dc_loops
func Loops(n int, x float64) float64 {
	s := 0.0
	for i := 0; i < n%50; i++ {
		if i%3 == 0 {
			continue
		}
		s += float64(i) * x
	}
	k := 0
	for k < 5 {
		k++
		s -= 0.25
	}
	for {
		k--
		if k < 2 {
			break
		}
		s *= 1.5
	}
	return s
}

// Ranges is range over an int, over a slice with its index and value,
// and over a local array.
//
//gb:cuda gb_dc_ranges
func Ranges(x float64, n int) float64 {
	var a [6]float64
	for i := range 6 {
		a[i] = x * float64(i+1)
	}
	s := 0.0
	for i, v := range a[1 : 1+(n%5+5)%5] {
		s += v - float64(i)
	}
	for _, v := range steps {
		s += v
	}
	for i := range a {
		s -= a[i] / 8
	}
	return s
}

// Switches is a tagged switch with lists and a default, an untagged one,
// and one with an init statement.
//
//gb:cuda gb_dc_switches
func Switches(i int, x float64) float64 {
	r := 0.0
	switch i % 4 {
	case 0, 1:
		r = x
	case 2:
		r = -x
	default:
		r = 3
	}
	switch {
	case x > 1:
		r += 1
	case x < -1:
		r -= 1
	}
	switch j := i * 2; j {
	case 4:
		r *= 2
	}
	return r
}

// minMax has named results and a bare return.
//
//gb:cuda gb_dc_min_max
func minMax(a, b, c float64) (lo, hi float64) {
	lo, hi = a, a
	lo = min(min(lo, b), c)
	hi = max(max(hi, b), c)
	return
}

// Results calls a function of several results: into new names, into _,
// and returned whole.
//
//gb:cuda gb_dc_results
func Results(a, b, c float64) (float64, float64) {
	lo, hi := minMax(a, b, c)
	_, h2 := minMax(hi, lo, -c)
	if h2 > 10 {
		return minMax(lo, h2, 0)
	}
	return hi - lo, h2
}

// fill writes through a slice and reads its length.
//
//gb:cuda gb_dc_fill
func fill(y []float64, v float64) {
	for i := range y {
		y[i] = v + float64(i)
	}
}

// total reads a slice.
//
//gb:cuda gb_dc_total
func total(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

// Slices passes slices and subslices (s[a:b], s[:b], s[a:]) between
// marked functions, copies between overlapping ones, and clears.
//
//gb:cuda gb_dc_slices
func Slices(x float64, n int) float64 {
	var buf [10]float64
	k := (n%8+8)%8 + 2
	fill(buf[:], x)
	s := total(buf[2:k]) + total(buf[:k]) + total(buf[k:])
	copy(buf[1:], buf[:6])
	s += total(buf[:]) * 2
	copy(buf[:4], buf[3:])
	clear(buf[7:])
	return s + total(buf[:])
}

// acc is a marked struct.
//
//gb:cuda gb_dc_acc
type acc struct {
	sum, max float64
	n        int
}

// add is a method with a pointer receiver.
//
//gb:cuda gb_dc_acc_add
func (a *acc) add(x float64) {
	a.sum += x
	a.max = max(a.max, x)
	a.n++
}

// mean is a method that reads the struct.
//
//gb:cuda gb_dc_acc_mean
func (a *acc) mean() float64 { return a.sum / float64(a.n) }

// Structs declares a local struct, calls its methods and passes its
// address.
//
//gb:cuda gb_dc_structs
func Structs(a, b float64) float64 {
	var s acc
	s.add(a)
	s.add(b)
	addTwice(&s, a-b)
	return s.mean() + s.max
}

// addTwice takes a pointer to a marked struct.
//
//gb:cuda gb_dc_add_twice
func addTwice(s *acc, x float64) {
	s.add(x)
	s.add(-x)
}

// MathOps is package math's exact functions and constants and the
// builtins min and max (NaN in, NaN out, as Go's).
//
//gb:cuda gb_dc_math
func MathOps(x, y float64) float64 {
	r := math.Abs(x) + math.Floor(y) - math.Ceil(x) + math.Trunc(y*3) + math.Copysign(2, y)
	r += math.Max(x, y) - math.Min(x, y) + min(x, 1) + max(y, -1)
	if math.IsInf(x, 1) || math.IsInf(y, -1) || math.IsInf(x+y, 0) {
		r = math.Inf(-1)
	}
	if math.Signbit(y) {
		r = -r
	}
	if x > 1e300 {
		return math.NaN()
	}
	return r + math.Sqrt(math.Abs(y)) + math.Mod(x, 3) + math.Pi
}

// Decls is var with and without a value, := of several names, a swap
// that reads what it writes, op=, ++ and --.
//
//gb:cuda gb_dc_decls
func Decls(a, b float64, n int) float64 {
	var s float64
	var t float64 = 2
	var k int
	u, v := a, b
	u, v = v, u
	s += u * t
	s -= v
	s *= 1.5
	s /= 4
	k++
	k += n % 7
	k--
	k *= 3
	k %= 5
	return s + float64(k)
}

// OnHost stands for dense.OnHost: true on the CPU, false in device code.
func OnHost() bool { return true }

// Host is a host-only branch, left out of the C: the CPU's shortcut
// computes what the code after it computes.
//
//gb:cuda gb_dc_host
func Host(x float64) float64 {
	if OnHost() && x > 0 {
		return x + x
	}
	return 2 * x
}

// Bits is uint32 and uint64 arithmetic: wrapping +, - and *, shifts
// by constants and by variables (0 from the width on, as Go's), ^ &^ | & and
// unary ^, their op= forms, and conversions to and from float64 and int.
//
//gb:cuda gb_dc_bits
func Bits(a uint32, b uint64, n int) (uint32, uint64, float64) {
	c := a*0x9E3779B9 + uint32(b>>32) - 7
	d := b*0xD2511F53CD9E8D57 ^ uint64(a)<<40 | uint64(c)
	s := uint64(n % 80)
	if n < 0 {
		s = 3
	}
	e := d<<s ^ d>>s
	c ^= uint32(e)
	c &^= 0xF0F0F0F0
	c <<= 3
	d >>= 60
	d &= ^b
	f := float64(e) + float64(c)/3 + float64(int(d))
	if a > 1<<31 {
		f = float64(uint64(f*0.5) / 7)
	}
	return c, d + uint64(n), f
}
