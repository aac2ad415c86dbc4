package ppl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gobayes/gobayes/accel/ir"
)

// Data sharding: the log-likelihood of a large observed variable is a sum
// over its rows, so it can be split into shards over contiguous rows,
// evaluated in parallel and summed (values and gradients). The compiler
// (package ppl/internal/compile, shard.go) decides what splits and builds
// the programs; package ppl/internal/shard runs them. This file is the
// setting and the report.

// ModelOption is a setting of NewModel (Shards).
type ModelOption func(*Model)

// Shards splits the log-likelihood of every observed variable (and
// LogDensity term summing over rows) with at least n rows into n shards
// evaluated in parallel. Shards(1) turns
// sharding off; Shards(0) restores the automatic choice (the default): n
// is GOMAXPROCS, lowered so that each shard reads at least
// AutoShardVolume values of data, and the model is not sharded when that
// leaves fewer than 2.
//
// Give it to NewModel, or call Model.SetShards.
func Shards(n int) ModelOption { return func(m *Model) { m.SetShards(n) } }

// AutoShardVolume is the data volume (elements of observed data and of
// data per observation, such as the rows of a design matrix) below which
// the automatic choice does not add a shard: with fewer, the handoff
// between workers (a few µs) would cost more than the work saved.
const AutoShardVolume = 50_000

// SetShards sets the number of shards of the observed data (see Shards).
func (m *Model) SetShards(n int) {
	if n < 0 {
		m.failf(m.g.Name, "Shards(%d): want 0 (automatic), 1 (no sharding) or more shards", n)
	}
	if n != m.shards {
		m.shards = n
		m.changed()
	}
}

// ShardPlan says how a compiled model splits its observed data.
type ShardPlan struct {
	// Shards is the number of workers the observed data are split
	// across; 0 when the model is not sharded.
	Shards int
	// Blocks is the number of shard programs: each shard's rows are
	// evaluated in blocks of about a megabyte of data, which the workers
	// claim one at a time.
	Blocks int
	// Vars describes every observed variable, in declaration order, then
	// every LogDensity term that is a sum over rows (Sum(LogPDF(…))).
	Vars []ShardVar
}

// ShardVar is one observed variable in a ShardPlan.
type ShardVar struct {
	Name string
	// Rows is the number of observations along the leading axis.
	Rows int
	// Volume is the data its log density reads: data elements along the
	// rows, per-row data (a design matrix's rows, gather indices)
	// included; 0 when its rows cannot be split.
	Volume int
	// Sharded reports the variable's log density is split over the
	// shards; otherwise Reason says why it is computed whole.
	Sharded bool
	Reason  string
	// Term marks a LogDensity term summing over rows rather than an
	// observed variable.
	Term bool
}

// String lists the plan one variable per line, as a notebook shows it:
//
//	2 shards in 40 blocks
//	y: 100000 rows (volume 5100000), sharded
//	z: 100 rows (volume 100), whole: mu: Scan[100] is computed over all rows at once …
func (p ShardPlan) String() string {
	var sb strings.Builder
	if p.Shards == 0 {
		sb.WriteString("not sharded")
	} else {
		fmt.Fprintf(&sb, "%d shards in %d blocks", p.Shards, p.Blocks)
	}
	for _, v := range p.Vars {
		what := ""
		if v.Term {
			what = " (LogDensity term)"
		}
		fmt.Fprintf(&sb, "\n%s%s: %d rows (volume %d), ", v.Name, what, v.Rows, v.Volume)
		if v.Sharded {
			sb.WriteString("sharded")
		} else {
			sb.WriteString("whole: " + v.Reason)
		}
	}
	return sb.String()
}

// ShardPlan describes how the model's observed data are sharded, with the
// reason for every observed variable left whole.
func (c *Compiled) ShardPlan() ShardPlan {
	p := ShardPlan{Shards: c.p.Plan.Shards, Blocks: c.p.Plan.Blocks}
	for _, v := range c.p.Plan.Vars {
		p.Vars = append(p.Vars, ShardVar(v))
	}
	return p
}

// ShardPrograms returns the programs of a sharded model: main computes
// everything but the sharded log-likelihoods, each shard program one block
// of rows of them (ShardPlan().Blocks of them, in row order; with B blocks
// and K shards, shard j is blocks [j·B/K, (j+1)·B/K)); every program takes
// the whole position, and the log density is main's target plus every
// block's, likewise the gradients. A backend may place shards on devices
// of its own. Both are nil when the model is not sharded (Program is then
// the whole log density).
func (c *Compiled) ShardPrograms() (main *ir.Program, shards []*ir.Program) {
	return c.p.ShardMain, slices.Clone(c.p.ShardBlocks)
}
