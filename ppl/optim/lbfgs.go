package optim

import "math"

type lbfgsResult struct {
	x                       []float64
	f                       float64
	iterations, evaluations int
	status                  string
}

// lbfgs minimises f (which writes its gradient into g) from x0 by limited
// memory BFGS (Nocedal and Wright, algorithm 7.4: the two-loop recursion
// over the last 10 pairs) with a backtracking line search on the Armijo
// condition; pairs with sᵀy ≤ 0 are skipped so the inverse-Hessian
// estimate stays positive definite.
func lbfgs(f func(x, g []float64) float64, x0 []float64, maxIter int, gtol float64) lbfgsResult {
	const mem = 10
	n := len(x0)
	x := append([]float64(nil), x0...)
	g := make([]float64, n)
	fx := f(x, g)
	evals := 1
	xn, gn, dir := make([]float64, n), make([]float64, n), make([]float64, n)
	s, y := make([][]float64, 0, mem), make([][]float64, 0, mem)
	rho := make([]float64, 0, mem)
	alpha := make([]float64, mem)
	res := func(status string, it int) lbfgsResult {
		return lbfgsResult{x: x, f: fx, iterations: it, evaluations: evals, status: status}
	}
	for it := 0; it < maxIter; it++ {
		if maxAbs(g) < gtol {
			return res("gradient below tolerance", it)
		}
		// Two-loop recursion: dir = -H g.
		copy(dir, g)
		for i := len(s) - 1; i >= 0; i-- {
			alpha[i] = rho[i] * dot(s[i], dir)
			axpy(-alpha[i], y[i], dir)
		}
		gamma := 1.0
		if k := len(s); k > 0 {
			gamma = dot(s[k-1], y[k-1]) / dot(y[k-1], y[k-1])
		} else {
			gamma = 1 / math.Max(1, maxAbs(g))
		}
		for i := range dir {
			dir[i] *= gamma
		}
		for i := range s {
			b := rho[i] * dot(y[i], dir)
			axpy(alpha[i]-b, s[i], dir)
		}
		for i := range dir {
			dir[i] = -dir[i]
		}
		slope := dot(g, dir)
		if !(slope < 0) {
			// Not a descent direction: fall back to steepest descent.
			for i := range dir {
				dir[i] = -g[i] * gamma
			}
			slope = dot(g, dir)
			s, y, rho = s[:0], y[:0], rho[:0]
		}
		step := 1.0
		var fn float64
		accepted := false
		for ls := 0; ls < 60; ls++ {
			for i := range xn {
				xn[i] = x[i] + step*dir[i]
			}
			fn = f(xn, gn)
			evals++
			if fn <= fx+1e-4*step*slope {
				accepted = true
				break
			}
			step *= 0.5
		}
		if !accepted {
			return res("no further progress", it)
		}
		sk, yk := make([]float64, n), make([]float64, n)
		for i := range sk {
			sk[i] = xn[i] - x[i]
			yk[i] = gn[i] - g[i]
		}
		change := math.Abs(fn - fx)
		copy(x, xn)
		copy(g, gn)
		fx = fn
		if sy := dot(sk, yk); sy > 1e-12*math.Sqrt(dot(sk, sk)*dot(yk, yk)) {
			if len(s) == mem {
				s, y, rho = s[1:], y[1:], rho[1:]
			}
			s, y, rho = append(s, sk), append(y, yk), append(rho, 1/sy)
		}
		if change <= 1e-14*math.Max(1, math.Abs(fx)) && maxAbs(g) < math.Sqrt(gtol) {
			return res("no further progress", it+1)
		}
	}
	return res("iteration limit", maxIter)
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

func axpy(a float64, x, y []float64) {
	for i, v := range x {
		y[i] += a * v
	}
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}
