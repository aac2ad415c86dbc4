package diag

import (
	"math"
	"testing"
)

func TestFormatFor(t *testing.T) {
	cases := []struct {
		column                        []float64
		digits, minDecimals, maxDecim int
		want                          ColumnFormat
	}{
		{[]float64{3.643, 0.5, 9.319}, 2, 3, 5, ColumnFormat{Decimals: 3}},
		{[]float64{-1.675, 8.04e-03}, 2, 3, 5, ColumnFormat{Decimals: 4}},
		{[]float64{4.24e-04, -0.194}, 2, 3, 5, ColumnFormat{Decimals: 5}},
		{[]float64{8.02e-05, 1.21e-04}, 2, 3, 5, ColumnFormat{Scientific: true}},
		{[]float64{0.000999}, 2, 3, 5, ColumnFormat{Decimals: 4}}, // rounds to 0.0010
		{[]float64{2.5e6, 1}, 2, 3, 5, ColumnFormat{Scientific: true}},
		{[]float64{0, math.NaN(), math.Inf(1)}, 2, 3, 5, ColumnFormat{Decimals: 3}},
		{[]float64{1.02, 1}, 3, 2, 6, ColumnFormat{Decimals: 2}},
		{[]float64{0.117, 0.0688}, 3, 2, 6, ColumnFormat{Decimals: 4}},
	}
	for _, c := range cases {
		if got := FormatFor(c.column, c.digits, c.minDecimals, c.maxDecim); got != c.want {
			t.Errorf("FormatFor(%v, %d, %d, %d) = %+v, want %+v", c.column, c.digits, c.minDecimals, c.maxDecim, got, c.want)
		}
	}
	for _, c := range []struct {
		f    ColumnFormat
		v    float64
		want string
	}{
		{ColumnFormat{Decimals: 4}, 8.04e-03, "0.0080"},
		{ColumnFormat{Decimals: 4}, -1.675, "-1.6750"},
		{ColumnFormat{Scientific: true}, 8.02e-05, "8.02e-05"},
		{ColumnFormat{Decimals: 3}, math.NaN(), "nan"},
	} {
		if got := c.f.Format(c.v); got != c.want {
			t.Errorf("%+v.Format(%v) = %q, want %q", c.f, c.v, got, c.want)
		}
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 observations", 1: "1 observation", 2: "2 observations"} {
		if got := Plural(n, "observation"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}
