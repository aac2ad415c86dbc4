package optim

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"
)

// lbfgs minimises f (which writes its gradient into g) from x0 with gonum's
// L-BFGS (More–Thuente line search). On the unconstrained scale every
// parameter is in its support, so f is finite almost everywhere.
func lbfgs(f func(x, g []float64) float64, x0 []float64, maxIter int, gtol float64) (*optimize.Result, error) {
	// gonum asks for the value and the gradient at the same point in two
	// calls; one evaluation serves both.
	var lastX, lastG []float64
	lastF := math.NaN()
	eval := func(x []float64) {
		if lastX != nil && slices.Equal(x, lastX) {
			return
		}
		if lastX == nil {
			lastX, lastG = make([]float64, len(x)), make([]float64, len(x))
		}
		copy(lastX, x)
		lastF = f(lastX, lastG)
	}
	p := optimize.Problem{
		Func: func(x []float64) float64 { eval(x); return lastF },
		Grad: func(grad, x []float64) { eval(x); copy(grad, lastG) },
	}
	settings := &optimize.Settings{MajorIterations: maxIter, GradientThreshold: gtol}
	res, err := optimize.Minimize(p, x0, settings, &optimize.LBFGS{Store: 10})
	if res == nil || math.IsInf(res.F, 0) || math.IsNaN(res.F) {
		if err == nil {
			err = fmt.Errorf("no finite log density reached")
		}
		return nil, fmt.Errorf("optim: L-BFGS failed: %v", err)
	}
	// Stopping on the iteration limit or a stalled line search still leaves
	// a usable point; Status says which.
	return res, nil
}
