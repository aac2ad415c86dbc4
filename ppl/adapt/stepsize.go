package adapt

import "math"

// StepSize is Nesterov dual averaging of the log step size towards a target
// mean acceptance statistic (Hoffman and Gelman 2014, as Stan runs it).
type StepSize struct {
	// Delta is the target acceptance statistic.
	Delta float64
	// Gamma, Kappa and T0 are the dual-averaging constants (Stan: 0.05,
	// 0.75, 10).
	Gamma, Kappa, T0 float64

	mu         float64
	counter    float64
	sBar, xBar float64
}

// NewStepSize returns dual averaging with Stan's constants and target delta.
func NewStepSize(delta float64) *StepSize {
	return &StepSize{Delta: delta, Gamma: 0.05, Kappa: 0.75, T0: 10}
}

// Restart centres the adaptation on log(10·eps) and forgets its history.
func (a *StepSize) Restart(eps float64) {
	a.mu = math.Log(10 * eps)
	a.counter, a.sBar, a.xBar = 0, 0, 0
}

// Learn takes one transition's acceptance statistic and returns the next
// step size.
func (a *StepSize) Learn(acceptStat float64) float64 {
	a.counter++
	if acceptStat > 1 {
		acceptStat = 1
	}
	if math.IsNaN(acceptStat) {
		acceptStat = 0
	}
	eta := 1 / (a.counter + a.T0)
	a.sBar = (1-eta)*a.sBar + eta*(a.Delta-acceptStat)
	x := a.mu - a.sBar*math.Sqrt(a.counter)/a.Gamma
	xEta := math.Pow(a.counter, -a.Kappa)
	a.xBar = (1-xEta)*a.xBar + xEta*x
	return math.Exp(x)
}

// Final is the step size to sample with: the exponential of the averaged
// log step size.
func (a *StepSize) Final() float64 { return math.Exp(a.xBar) }
