package lockstep

import (
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/ppl/infer"
)

// Model is a compiled model with its log-density program (ppl.Compiled).
type Model interface {
	infer.Model
	Program() *ir.Program
}

// Config is infer.Config: one set of settings, defaults and validation
// for every sampler. A lockstep run reads its lockstep fields (Keep,
// Scale, Folds, Thin, MaxSteps, Block, Workers, Backend); a zero Sampler
// means ChEES, zero Chains DefaultChains (4 for RWMH).
type Config = infer.Config

// DefaultChains is the number of chains of a ChEES or MEADS run that does
// not say.
const DefaultChains = infer.DefaultLockstepChains
