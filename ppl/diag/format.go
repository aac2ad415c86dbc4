package diag

import (
	"math"
	"strconv"
)

// ColumnFormat is one form for every number of a table's column, so that a
// column never mixes 8.04e-03 with -1.675, or 1 with 1.02.
type ColumnFormat struct {
	// Scientific: d.dde±xx for every value; otherwise Decimals decimals.
	Scientific bool
	Decimals   int
}

// FormatFor chooses the column's form from the magnitudes of its finite,
// non-zero values: fixed, with as many decimals as the smallest magnitude
// needs to show digits significant digits (at least minDecimals), unless
// that takes more than maxDecimals or the largest magnitude reaches 10⁶:
// then scientific with 3 significant digits, for the whole column.
func FormatFor(column []float64, digits, minDecimals, maxDecimals int) ColumnFormat {
	lo, hi := math.Inf(1), 0.0
	for _, v := range column {
		if a := math.Abs(v); a > 0 && !math.IsInf(a, 0) && !math.IsNaN(a) {
			lo, hi = math.Min(lo, a), math.Max(hi, a)
		}
	}
	if hi == 0 {
		return ColumnFormat{Decimals: minDecimals}
	}
	// The decimals lo takes once rounded to digits significant digits
	// (0.000999 rounds to 0.0010, which takes one decimal fewer).
	r, _ := strconv.ParseFloat(strconv.FormatFloat(lo, 'e', digits-1, 64), 64)
	d := max(minDecimals, digits-1-int(math.Floor(math.Log10(r))))
	if d > maxDecimals || hi >= 1e6 {
		return ColumnFormat{Scientific: true}
	}
	return ColumnFormat{Decimals: d}
}

// Format formats v in the column's form; NaN is "nan".
func (f ColumnFormat) Format(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case f.Scientific:
		return strconv.FormatFloat(v, 'e', 2, 64)
	}
	return strconv.FormatFloat(v, 'f', f.Decimals, 64)
}

// Plural is "1 observation", "2 observations": n and the noun, which takes
// an s unless n is 1.
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
