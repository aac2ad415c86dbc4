package graph

import (
	"strconv"

	"github.com/gobayes/gobayes/ppl/dist"
)

// Model is what a model is made of, in declaration order: its random
// variables, deterministic quantities and explicit log-density terms.
// Package ppl builds it; the compiler reads it.
type Model struct {
	Name  string
	RVs   []*RV
	Dets  []*Node // KReshape nodes carrying Det, over the recorded value
	Terms []Term
	// Coords labels the elements along named dimensions (Model.Coords).
	Coords map[string][]string
	// DetDims names the dimensions of deterministic quantities, by name.
	DetDims map[string][]string
	// Data are the data containers' current nodes, in declaration order
	// (KConst nodes with Container set); DataDims names their dimensions.
	Data     []*Node
	DataDims map[string][]string
	// Marginal marks variables whose log density an enumeration term
	// carries (a discrete variable they depend on is summed out): the
	// compiler leaves their own out (see ppl's enumerate.go).
	Marginal map[*RV]bool
	// MarginalLogLik is, for an observed variable in Marginal, its
	// pointwise log-likelihood (one term per element) with the summed-out
	// variable marginalised (see ppl's enumerate.go).
	MarginalLogLik map[*RV]*Node
	// ValuesOnly marks deterministic quantities that the log density's
	// program leaves out, computed only where draws are recorded: an
	// enumerated variable's probabilities, which would cost a gradient
	// as much again as its term.
	ValuesOnly map[*Node]bool
	// Source is the model as written, when this one is made from it by
	// enumeration: the predictive program draws every variable of Source,
	// the summed-out ones too. nil otherwise.
	Source *Model
	// Forward maps a node that new data replaced (SetData) to the node
	// made again over the new data, so that an expression made before
	// the change still means the model as it is now.
	Forward map[*Node]*Node
}

// Current follows Forward from n to the node that stands for it now.
func (m *Model) Current(n *Node) *Node {
	if m == nil {
		return n
	}
	for {
		f, ok := m.Forward[n]
		if !ok {
			return n
		}
		n = f
	}
}

// Term is an explicit log-density term (Stan's target +=).
type Term struct {
	Name  string
	Value *Node // a scalar
}

// RV is a random variable: its distribution, parameters, bounds and,
// when observed, its data.
type RV struct {
	Name     string
	Fam      *dist.Family // nil for a mixture
	Params   []*Node      // Fam.Params, in order
	Mix      *Mixture     // nil unless a mixture
	Value    *Node        // the KRV node standing for its value; its Dims are the variable's shape
	Observed bool
	Data     []float64 // the observed values
	// DataOf is the data container the observed values come from (nil
	// when they were given as Go values); NoData says the container's
	// values no longer fit the variable's shape after new data changed
	// it (Data then holds zeros of the new shape, for predictive draws).
	DataOf *Node
	NoData bool
	// Pointwise, when set on an observed variable, computes its log
	// density's terms (one per observation) from its data and parameters:
	// a family built from other ops (the ordinal outcomes) whose own op
	// would cost more. The compiler uses it instead of Fam.Op; Fam still
	// draws the predictive values.
	Pointwise *Node
	// Lower and Upper are the bound options (nil when absent); Order an
	// ordering option.
	Lower, Upper *Node
	Order        Order
	// Dims names the variable's dimensions (ppl.Dims), nil when unnamed.
	Dims []string
	// Shown is the call the user wrote, for listings, where the family
	// and parameters are built from it (OrderedLogistic(eta, c) as a
	// CategoricalLogit of its log probabilities); nil to show Fam(Params).
	Shown *Call
	// Truncated says Lower and Upper truncate the variable's density
	// (ppl.Truncated): it is normalised over them, for a latent variable
	// as for an observed one; without it they only bound a parameter.
	Truncated bool
	// Censor, when set, censors the observed values (ppl.Censored).
	Censor *Censoring
}

// Censoring is the bounds of censored observations, data: a value at or
// below Lower[i] counts as P(Y ≤ Lower[i]), at or above Upper[i] as
// P(Y ≥ Upper[i]). Each has one value per element, or one for all, or is
// nil for no bound on that side.
type Censoring struct {
	Lower, Upper []float64
}

// Order is an ordering constraint of a vector.
type Order uint8

const (
	Unordered       Order = iota
	Ordered               // x[0] < x[1] < …
	PositiveOrdered       // 0 < x[0] < x[1] < …
)

// Mixture is a finite mixture's weights and components.
type Mixture struct {
	Weights *Node // a simplex [K], or a scalar θ for (θ, 1-θ)
	Comps   []MixComp
}

// MixComp is one component of a mixture: a scalar family and its
// parameters.
type MixComp struct {
	Fam    *dist.Family
	Params []*Node
}

// Support is the variable's support (for a mixture, its first
// component's).
func (r *RV) Support() dist.Support {
	if r.Fam != nil {
		return r.Fam.Support
	}
	return r.Mix.Comps[0].Fam.Support
}

// FamName is the family's name, "a mixture" for a mixture.
func (r *RV) FamName() string {
	if r.Fam == nil {
		return "a mixture"
	}
	return r.Fam.Name
}

// ParamName is parameter i of fam, for messages.
func ParamName(fam *dist.Family, i int) string {
	if i < len(fam.Params) {
		return fam.Params[i]
	}
	return "parameter " + strconv.Itoa(i+1)
}

// Call is a function applied to arguments, as a listing shows it.
type Call struct {
	Fn   string
	Args []*Node
}
