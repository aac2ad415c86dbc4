package adapt

import (
	"math"
	"testing"
)

// TestWindowsSchedule checks the slow windows' ends against the schedule
// the Stan Reference Manual gives for 1000 warm-up iterations (windows of
// 25, 50, 100, 200 and 500 after a 75-iteration buffer, 50 at the end) and
// the shrunken schedule for short warm-ups.
func TestWindowsSchedule(t *testing.T) {
	cases := []struct {
		warmup int
		ends   []int
	}{
		{1000, []int{99, 149, 249, 449, 949}},
		// 100 < 75+25+50: buffers 15 and 10, one window of 75 (Stan's rule).
		{100, []int{89}},
		// 200: 75 + 25 → 99, then 50 more would end at 149 but the window
		// after it would pass the terminal buffer, so it stretches to 149.
		{200, []int{99, 149}},
	}
	for _, c := range cases {
		w := NewWindows(c.warmup, 75, 50, 25)
		var ends []int
		for i := 0; i < c.warmup; i++ {
			if w.EndOfWindow() {
				ends = append(ends, i)
				w.computeNextWindow()
			}
			w.advance()
		}
		if len(ends) != len(c.ends) {
			t.Errorf("warmup %d: windows end at %v, want %v", c.warmup, ends, c.ends)
			continue
		}
		for i := range ends {
			if ends[i] != c.ends[i] {
				t.Errorf("warmup %d: windows end at %v, want %v", c.warmup, ends, c.ends)
				break
			}
		}
		// Slow gives the same windows as ranges, each starting where the
		// one before ended, the first after the initial buffer.
		slow := w.Slow()
		if len(slow) != len(c.ends) {
			t.Errorf("warmup %d: Slow %v, want windows ending at %v", c.warmup, slow, c.ends)
			continue
		}
		start := w.InitBuffer
		for i, r := range slow {
			if r != [2]int{start, c.ends[i] + 1} {
				t.Errorf("warmup %d: Slow %v, want windows ending at %v after a buffer of %d", c.warmup, slow, c.ends, w.InitBuffer)
				break
			}
			start = r[1]
		}
	}
	if got := NewWindows(19, 75, 50, 25).Slow(); got != nil {
		t.Errorf("19 warm-up iterations: Slow %v, want none", got)
	}
}

// TestDualAveragingConverges feeds dual averaging the acceptance statistic
// exp(-eps), whose value is delta at eps = -ln delta. The averaged iterate
// still carries its early history after 2000 steps, hence the 10% band.
func TestDualAveragingConverges(t *testing.T) {
	for _, delta := range []float64{0.8, 0.95} {
		a := NewStepSize(delta)
		a.Restart(1)
		eps := 1.0
		for i := 0; i < 2000; i++ {
			eps = a.Learn(math.Exp(-eps))
		}
		want := -math.Log(delta)
		if got := a.Final(); math.Abs(got-want) > 0.1*want {
			t.Errorf("delta %g: final step size %g, want %g", delta, got, want)
		}
	}
}

// TestCovariance checks Welford's estimates against the two-pass formulas
// on a fixed set of vectors.
func TestCovariance(t *testing.T) {
	xs := [][]float64{{1, 2}, {3, 1}, {-2, 0.5}, {4, 4}, {0, -1}}
	// Two-pass oracle.
	n := float64(len(xs))
	var m [2]float64
	for _, x := range xs {
		m[0] += x[0] / n
		m[1] += x[1] / n
	}
	var c [4]float64
	for _, x := range xs {
		for i := 0; i < 2; i++ {
			for j := 0; j < 2; j++ {
				c[i*2+j] += (x[i] - m[i]) * (x[j] - m[j]) / (n - 1)
			}
		}
	}
	dense, diag := NewCovariance(2, true), NewCovariance(2, false)
	for _, x := range xs {
		dense.Add(x)
		diag.Add(x)
	}
	gotC := make([]float64, 4)
	dense.Cov(gotC)
	gotV := make([]float64, 2)
	diag.Var(gotV)
	for i := range c {
		if math.Abs(gotC[i]-c[i]) > 1e-12 {
			t.Errorf("Cov[%d] = %g, want %g", i, gotC[i], c[i])
		}
	}
	for i := 0; i < 2; i++ {
		if math.Abs(gotV[i]-c[i*2+i]) > 1e-12 {
			t.Errorf("Var[%d] = %g, want %g", i, gotV[i], c[i*2+i])
		}
	}
}

// TestWarmupRegularises runs a warm-up of 150 iterations (buffers 75 and
// 50 fit, so one slow window: iterations 75..99) on positions alternating
// ±1 and checks the metric Stan would set: n/(n+5)·var + 1e-3·5/(n+5).
func TestWarmupRegularises(t *testing.T) {
	w := New(1, 150, Options{})
	w.Init(1)
	var pos [1]float64
	updates := 0
	var got float64
	for i := 0; i < 150; i++ {
		pos[0] = float64(2*(i%2) - 1)
		if w.Update(pos[:], 0.8).MetricUpdated {
			updates++
			got = w.Var()[0]
		}
	}
	if updates != 1 {
		t.Fatalf("%d metric updates, want 1", updates)
	}
	// Window iterations 75..99: 25 values, odd i → +1 (13 of them), even
	// i → -1 (12).
	n := 25.0
	mean := (13.0 - 12.0) / n
	ss := 13*(1-mean)*(1-mean) + 12*(-1-mean)*(-1-mean)
	want := n/(n+5)*ss/(n-1) + 1e-3*5/(n+5)
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("metric %g, want %g", got, want)
	}
}

func TestSymEigenRange(t *testing.T) {
	for _, rho := range []float64{0, 0.5, 0.99} {
		lo, hi := symEigenRange([]float64{1, rho, rho, 1}, 2)
		if math.Abs(lo-(1-rho)) > 1e-12 || math.Abs(hi-(1+rho)) > 1e-12 {
			t.Errorf("ρ=%v: eigenvalues %v, %v; want %v, %v", rho, lo, hi, 1-rho, 1+rho)
		}
	}
	// Equicorrelation ρ in d dimensions: 1+(d-1)ρ once and 1-ρ d-1 times.
	d, rho := 30, 0.4
	a := make([]float64, d*d)
	for i := range a {
		a[i] = rho
	}
	for i := 0; i < d; i++ {
		a[i*d+i] = 1
	}
	lo, hi := symEigenRange(a, d)
	if math.Abs(lo-(1-rho)) > 1e-10 || math.Abs(hi-(1+float64(d-1)*rho)) > 1e-10 {
		t.Errorf("equicorrelation: %v, %v; want %v, %v", lo, hi, 1-rho, 1+float64(d-1)*rho)
	}
}

func TestDenseWorthIt(t *testing.T) {
	corr := func(d int, rho float64, scale func(i int) float64) []float64 {
		c := make([]float64, d*d)
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				r := math.Pow(rho, math.Abs(float64(i-j)))
				c[i*d+j] = r * scale(i) * scale(j)
			}
		}
		return c
	}
	one := func(int) float64 { return 1 }
	wide := func(i int) float64 { return math.Pow(10, float64(i%4)) }
	for _, c := range []struct {
		d, n  int
		rho   float64
		scale func(int) float64
		want  bool
	}{
		{2, 100, 0.99, one, true},
		{2, 100, 0.5, one, false},     // condition 3
		{10, 500, 0, wide, false},     // scales differ, no correlation: diagonal suffices
		{10, 500, 0.9, wide, true},    // AR(1) 0.9: condition ≈ 300
		{10, 40, 0.9, one, false},     // too few draws to tell
		{150, 5000, 0.99, one, false}, // above AutoMaxDim
		{50, 500, 0.5, one, false},    // condition 9 < 3× chance
	} {
		if got := DenseWorthIt(corr(c.d, c.rho, c.scale), c.d, c.n); got != c.want {
			t.Errorf("d=%d n=%d ρ=%v: DenseWorthIt %v; want %v", c.d, c.n, c.rho, got, c.want)
		}
	}
}
