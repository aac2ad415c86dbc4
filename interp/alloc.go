package interp

import (
	"bytes"
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"

	yaegi "github.com/traefik/yaegi/interp"
	"gonum.org/v1/gonum/mat"
)

// A single allocation larger than the memory left under the process's
// limit ends a Go program: the runtime's "out of memory" is a fatal error,
// not a panic, so neither the interpreter nor a recover sees it, and in a
// worker process every variable is lost with it. An address-space limit
// below the cap does not help (mmap fails, and the runtime throws all the
// same). So the size of a request is checked before it is made:
//
//   - in cells, make, append and new of an array go through the checks of
//     allocSymbols (rewrite.CheckAllocs routes their sizes there);
//   - compiled functions cells call with a size (gonum's mat.NewDense and
//     its kin, strings.Repeat and bytes.Repeat) are replaced by checking
//     wrappers (matSymbols, repeatSymbols).
//
// A refused request panics with an allocRefused, which the session reports
// as a MemoryLimit error at the cell's line; nothing was allocated and the
// session keeps its state. What allocates inside other compiled code (a
// sampler's draws) is not seen here; the worker's memory guard and the
// packages' own checks are what stop those.

// allocPkg is the name cells know the checks' package by: imported at
// every reset, never shown in completion or by %who-like listings.
const allocPkg = "_gobayesAlloc"

// allocPath is the import path of the checks' package (a symbol table
// only, no Go package).
const allocPath = "github.com/gobayes/gobayes/interp/internal/cellalloc"

// allocCheckFrom is the smallest request whose size is compared with the
// memory left: smaller ones cost no look at the heap (the worker's guard
// catches many small ones).
const allocCheckFrom = 64 << 20

// smallLookShare: the heap is looked at every limit/smallLookShare bytes
// of small requests, so that the heap passes the allowance by at most that
// much (and what compiled code allocates) before a loop of small makes is
// stopped; the limit leaves 1-allocGuardShare of it above the allowance.
const smallLookShare = 64

// allocGuardShare is the share of the memory limit a request may take the
// heap to: the worker's guard stops a cell at this share of the limit, so a
// request beyond it would be stopped at once if the runtime survived it.
const allocGuardShare = 0.75

// allocRefused is the panic value of a refused request.
type allocRefused struct {
	// total: the request is small, but the cell's requests so far have
	// taken the heap past the allowance (a loop of small makes)
	total     bool
	what      string // the request as the cell wrote it: make([]float64, 4000000000)
	bytes     uint64 // its size; math.MaxUint64 when it overflows
	limit     int64
	inUse     uint64 // the heap when it was refused
	allowance uint64 // what the heap may reach: allocGuardShare of limit
}

func (e *allocRefused) Error() string {
	if e.total {
		return fmt.Sprintf("the cell's allocations took the heap to %s, past %.0f%% of the interpreter's memory limit of %s (%s), at %s; it was stopped there, before the limit would end the session, and variables are kept. Free memory (set large values to nil), work on less at a time, or raise the limit (GOBAYES_MEMORY_LIMIT, for example in the kernelspec's env)",
			FormatBytes(e.inUse), 100*allocGuardShare, FormatBytes(uint64(e.limit)), FormatBytes(e.allowance), e.what)
	}
	size := "more bytes than an address holds"
	if e.bytes != math.MaxUint64 {
		size = FormatBytes(e.bytes)
	}
	return fmt.Sprintf("%s would allocate %s, more than the interpreter's memory limit of %s allows (a cell may take the heap to %.0f%% of it, %s, and %s is in use); nothing was allocated and variables are kept. Work on less at a time, or raise the limit (GOBAYES_MEMORY_LIMIT, for example in the kernelspec's env)",
		e.what, size, FormatBytes(uint64(e.limit)), 100*allocGuardShare, FormatBytes(e.allowance), FormatBytes(e.inUse))
}

// allocChecker compares requests with a memory limit.
type allocChecker struct {
	limit int64 // bytes; 0: no limit, nothing is checked
	// small counts the bytes of requests under allocCheckFrom since the
	// heap was last looked at; nil: they are not counted
	small *atomic.Uint64
}

// newAllocChecker is a checker for limit that counts small requests too.
func newAllocChecker(limit int64) allocChecker {
	return allocChecker{limit: limit, small: new(atomic.Uint64)}
}

// check panics with an allocRefused when count elements of size bytes do
// not fit under the limit.
//
// Small requests are summed, and every limit/smallLookShare bytes of them
// the heap is looked at: a loop of small makes is stopped here, in the
// goroutine that allocates, once the heap passes the allowance. The
// worker's guard, which polls, stopped such a loop or not depending on how
// fast it allocated: between two of its looks the heap could reach the
// limit, and the runtime ends the process there.
func (c allocChecker) check(count, size uint64, what func() string) {
	if c.limit <= 0 {
		return
	}
	hi, n := bits.Mul64(count, size)
	if hi != 0 {
		n = math.MaxUint64
	}
	allowance := uint64(float64(c.limit) * allocGuardShare)
	if n < allocCheckFrom {
		if c.small == nil || c.small.Add(n) < uint64(c.limit)/smallLookShare {
			return
		}
		c.small.Store(0)
		if inUse := heapInUse(); inUse <= allowance {
			return
		}
		runtime.GC()
		if inUse := heapInUse(); inUse > allowance {
			panic(&allocRefused{total: true, what: what(), bytes: n, limit: c.limit, inUse: inUse, allowance: allowance})
		}
		return
	}
	inUse := heapInUse()
	if n <= allowance && inUse <= allowance-n {
		return
	}
	if n <= allowance {
		// The heap counts garbage not yet swept (a large slice the cell
		// just dropped): collect once and look again before refusing.
		runtime.GC()
		if inUse = heapInUse(); inUse <= allowance-n {
			return
		}
	}
	panic(&allocRefused{what: what(), bytes: n, limit: c.limit, inUse: inUse, allowance: allowance})
}

// heapInUse is the bytes of live and not yet swept heap objects.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// allocSymbols is the checks' package for cells (see rewrite.CheckAllocs).
func allocSymbols(c allocChecker) yaegi.Exports {
	// Len checks make(T, n): n elements of T's element type (a map's
	// key and value).
	// Its size is any: make takes every integer type, and a form that
	// compiled less often than the cell would send the cell to a second
	// compile, which yaegi does not survive for methods.
	length := func(sizeArg any, proto any) int {
		t := reflect.TypeOf(proto)
		v := reflect.ValueOf(sizeArg)
		var n int
		var count uint64
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if v.Int() > math.MaxInt || v.Int() < math.MinInt {
				count = math.MaxUint64
			}
			n, count = int(v.Int()), max(count, uint64(max(v.Int(), 0)))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			n, count = int(min(v.Uint(), math.MaxInt)), v.Uint()
		case reflect.Float32, reflect.Float64:
			// An untyped constant (make([]float64, 4e9)) arrives as a float.
			f := v.Float()
			if f != math.Trunc(f) || f >= math.MaxInt || f < math.MinInt {
				panic(fmt.Errorf("make: size %v is not an int", sizeArg))
			}
			n, count = int(f), uint64(max(f, 0))
		default:
			panic(fmt.Errorf("make: size %v of type %T is not an integer", sizeArg, sizeArg))
		}
		if n <= 0 || t == nil {
			return n // make reports a negative length itself
		}
		var size uintptr
		switch t.Kind() {
		case reflect.Map:
			size = t.Key().Size() + t.Elem().Size()
		case reflect.Slice, reflect.Chan:
			size = t.Elem().Size()
		}
		c.check(count, uint64(size), func() string { return fmt.Sprintf("make(%s, %v)", t, sizeArg) })
		return n
	}
	// New checks new([N]E), given a nil *[N]E, and returns N.
	newArray := func(p any) int {
		t := reflect.TypeOf(p)
		if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Array {
			return 0
		}
		c.check(1, uint64(t.Elem().Size()), func() string { return fmt.Sprintf("new(%s)", t.Elem()) })
		return t.Elem().Len()
	}
	// Grow checks append(s, k values): when s has no room for them, append
	// allocates a new array, as large as the runtime's growth rule makes it.
	grow := func(s any, k int) int {
		v := reflect.ValueOf(s)
		if v.Kind() != reflect.Slice {
			return 0
		}
		n, room := v.Len(), v.Cap()
		if k <= 0 || n+k <= room {
			return n
		}
		size := uint64(v.Type().Elem().Size())
		c.check(uint64(grownCap(room, n+k)), size, func() string {
			return fmt.Sprintf("append to a %s of %d elements (growing it to %d)", v.Type(), n, n+k)
		})
		return n
	}
	return yaegi.Exports{
		allocPath + "/cellalloc": {
			"Len":  reflect.ValueOf(length),
			"New":  reflect.ValueOf(newArray),
			"Grow": reflect.ValueOf(grow),
		},
	}
}

// grownCap is about the capacity append gives a slice of capacity old
// that must hold want elements (the runtime's rule: double small slices,
// grow large ones by a quarter).
func grownCap(old, want int) int {
	c := old
	if want > 2*old {
		return want
	}
	if old < 256 {
		return 2 * old
	}
	for c < want {
		c += (c + 3*256) / 4
		if c <= 0 {
			return want
		}
	}
	return c
}

// FormatBytes is a size as the interpreter's memory messages write it
// (1.5 GiB, 300 MiB, 512 bytes).
func FormatBytes(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// ParseBytes reads a size written as bytes or as a number with a unit:
// 512MiB, 4GiB, 4G (powers of 1024), 4GB (powers of 1000), 1.5GiB. It
// reports false for anything else, zero and negative sizes included.
func ParseBytes(v string) (int64, bool) {
	v = strings.TrimSpace(v)
	units := []struct {
		suffix string
		mult   float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"B", 1}}
	mult := 1.0
	for _, u := range units {
		if p, ok := strings.CutSuffix(v, u.suffix); ok {
			v, mult = strings.TrimSpace(p), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f <= 0 || math.IsInf(f, 0) || f*mult >= math.MaxInt64 {
		return 0, false
	}
	return int64(f * mult), true
}

// dims is the number of elements of an a×b matrix, math.MaxUint64 when it
// overflows, 0 when a dimension is not positive (the constructor reports
// that itself).
func dims(a, b int) uint64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	hi, n := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 {
		return math.MaxUint64
	}
	return n
}

// repeatSymbols replaces strings.Repeat and bytes.Repeat, whose size is
// easily mistyped, with ones that check it first.
func repeatSymbols(c allocChecker) yaegi.Exports {
	return yaegi.Exports{
		"strings/strings": {"Repeat": reflect.ValueOf(func(s string, count int) string {
			if count > 0 {
				c.check(uint64(len(s)), uint64(count), func() string { return fmt.Sprintf("strings.Repeat of %d bytes %d times", len(s), count) })
			}
			return strings.Repeat(s, count)
		})},
		"bytes/bytes": {"Repeat": reflect.ValueOf(func(b []byte, count int) []byte {
			if count > 0 {
				c.check(uint64(len(b)), uint64(count), func() string { return fmt.Sprintf("bytes.Repeat of %d bytes %d times", len(b), count) })
			}
			return bytes.Repeat(b, count)
		})},
	}
}

// matSymbols replaces gonum's matrix constructors with ones that check
// the size of the matrix they would allocate (when data is nil) first.
func matSymbols(c allocChecker) yaegi.Exports {
	const f64 = 8
	call := func(format string, args ...any) func() string {
		return func() string { return fmt.Sprintf(format, args...) }
	}
	return yaegi.Exports{
		"gonum.org/v1/gonum/mat/mat": {
			"NewDense": reflect.ValueOf(func(r, cols int, data []float64) *mat.Dense {
				if data == nil {
					c.check(dims(r, cols), f64, call("mat.NewDense(%d, %d, nil)", r, cols))
				}
				return mat.NewDense(r, cols, data)
			}),
			"NewCDense": reflect.ValueOf(func(r, cols int, data []complex128) *mat.CDense {
				if data == nil {
					c.check(dims(r, cols), 16, call("mat.NewCDense(%d, %d, nil)", r, cols))
				}
				return mat.NewCDense(r, cols, data)
			}),
			"NewSymDense": reflect.ValueOf(func(n int, data []float64) *mat.SymDense {
				if data == nil {
					c.check(dims(n, n), f64, call("mat.NewSymDense(%d, nil)", n))
				}
				return mat.NewSymDense(n, data)
			}),
			"NewTriDense": reflect.ValueOf(func(n int, kind mat.TriKind, data []float64) *mat.TriDense {
				if data == nil {
					c.check(dims(n, n), f64, call("mat.NewTriDense(%d, %v, nil)", n, kind))
				}
				return mat.NewTriDense(n, kind, data)
			}),
			"NewVecDense": reflect.ValueOf(func(n int, data []float64) *mat.VecDense {
				if data == nil {
					c.check(dims(n, 1), f64, call("mat.NewVecDense(%d, nil)", n))
				}
				return mat.NewVecDense(n, data)
			}),
			"NewDiagDense": reflect.ValueOf(func(n int, data []float64) *mat.DiagDense {
				if data == nil {
					c.check(dims(n, 1), f64, call("mat.NewDiagDense(%d, nil)", n))
				}
				return mat.NewDiagDense(n, data)
			}),
			"NewBandDense": reflect.ValueOf(func(r, cols, kl, ku int, data []float64) *mat.BandDense {
				if data == nil && kl >= 0 && ku >= 0 {
					c.check(dims(min(r, cols+kl), kl+ku+1), f64, call("mat.NewBandDense(%d, %d, %d, %d, nil)", r, cols, kl, ku))
				}
				return mat.NewBandDense(r, cols, kl, ku, data)
			}),
			"NewSymBandDense": reflect.ValueOf(func(n, k int, data []float64) *mat.SymBandDense {
				if data == nil && k >= 0 {
					c.check(dims(n, k+1), f64, call("mat.NewSymBandDense(%d, %d, nil)", n, k))
				}
				return mat.NewSymBandDense(n, k, data)
			}),
			"NewTriBandDense": reflect.ValueOf(func(n, k int, kind mat.TriKind, data []float64) *mat.TriBandDense {
				if data == nil && k >= 0 {
					c.check(dims(n, k+1), f64, call("mat.NewTriBandDense(%d, %d, %v, nil)", n, k, kind))
				}
				return mat.NewTriBandDense(n, k, kind, data)
			}),
		},
	}
}

// memoryLimitError is the cell's error for a refused request, at the
// position of the statement that made it.
func memoryLimitError(cell string, r *allocRefused, line, col int) *Error {
	msg := fmt.Sprintf("cell:%d:%d: %s", line, col, r.Error())
	return &Error{Name: "MemoryLimit", Value: msg, Traceback: append([]string{"\x1b[0;31mMemoryLimit: " + msg + "\x1b[0m"}, quoteLine(cell, line, col)...)}
}
