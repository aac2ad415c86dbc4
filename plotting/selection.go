package plotting

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gobayes/gobayes/ppl/posterior"
)

// selection is the part of a posterior a figure draws: columns (scalars)
// and chains, both as indices into the posterior.
type selection struct {
	fit     *posterior.Posterior
	columns []int
	chains  []int // 0-based indices
	note    string
}

// checkPosterior says what is wrong with a posterior that cannot be drawn.
func checkPosterior(plot string, p *posterior.Posterior) error {
	if len(p.Chains) == 0 || p.Draws() == 0 {
		return fmt.Errorf("plotting: %s got an empty posterior (no draws%s); sample the model first with m.Sample(...), and if the run was interrupted, let it make some draws", plot, modelName(p))
	}
	if len(p.Columns) == 0 {
		return fmt.Errorf("plotting: %s got a posterior with no recorded columns%s; the model has no parameters to plot", plot, modelName(p))
	}
	n := p.Draws()
	for c, ch := range p.Chains {
		if len(ch.Values) != len(p.Columns) {
			return fmt.Errorf("plotting: %s: chain %d has %d columns but the posterior names %d; the posterior is malformed", plot, c+1, len(ch.Values), len(p.Columns))
		}
		for j, v := range ch.Values {
			if len(v) != n {
				return fmt.Errorf("plotting: %s: chain %d has %d draws of %s but chain 1 has %d; plot chains of equal length (plotting.Chains(...))", plot, c+1, len(v), p.Columns[j], n)
			}
		}
	}
	return nil
}

func modelName(p *posterior.Posterior) string {
	if p.Model == "" {
		return ""
	}
	return " of model " + p.Model
}

// selectChains turns 1-based chain numbers into indices.
func selectChains(plot string, p *posterior.Posterior, chains []int) ([]int, error) {
	if len(chains) == 0 {
		out := make([]int, len(p.Chains))
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	seen := map[int]bool{}
	var out []int
	for _, c := range chains {
		if c < 1 || c > len(p.Chains) {
			return nil, fmt.Errorf("plotting: %s: there is no chain %d; the posterior has %d chains, numbered 1 to %d", plot, c, len(p.Chains), len(p.Chains))
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c-1)
		}
	}
	return out, nil
}

// selectColumns expands names into column indices: a variable's name
// selects all of its scalars, a column's name selects one. With no names
// it selects every variable, up to limit columns.
func selectColumns(plot string, p *posterior.Posterior, names []string, limit int) ([]int, string, error) {
	var out []int
	if len(names) == 0 {
		for i := range p.Columns {
			out = append(out, i)
		}
		if limit > 0 && len(out) > limit {
			note := fmt.Sprintf("showing the first %d of %d columns; name the variables to plot", limit, len(out))
			return out[:limit], note, nil
		}
		return out, "", nil
	}
	seen := map[int]bool{}
	add := func(i int) {
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	for _, name := range names {
		name = strings.TrimSpace(name)
		if v, ok := findVar(p, name); ok {
			for i := v.Start; i < v.Start+varSize(v) && i < len(p.Columns); i++ {
				add(i)
			}
			continue
		}
		if i := p.Column(name); i >= 0 {
			add(i)
			continue
		}
		if i := p.Column(strings.ReplaceAll(name, " ", "")); i >= 0 {
			add(i)
			continue
		}
		return nil, "", unknownVariable(plot, p, name)
	}
	return out, "", nil
}

func findVar(p *posterior.Posterior, name string) (posterior.Var, bool) {
	for _, v := range p.Vars {
		if v.Name == name {
			return v, true
		}
	}
	return posterior.Var{}, false
}

func varSize(v posterior.Var) int {
	n := 1
	for _, d := range v.Shape {
		n *= d
	}
	return n
}

func unknownVariable(plot string, p *posterior.Posterior, name string) error {
	var known []string
	for _, v := range p.Vars {
		known = append(known, v.Name)
	}
	if len(known) == 0 {
		known = append(known, p.Columns...)
	}
	sort.Strings(known)
	return fmt.Errorf("plotting: %s: unknown variable %q%s; the posterior records %s — pass one of those, or a column such as %q", plot, name, modelName(p), strings.Join(known, ", "), p.Columns[len(p.Columns)-1])
}

// prepare parses a call on one posterior and selects what to draw.
func prepare(plot string, fit any, args []any, limit int) (selection, Settings, error) {
	p, _, err := parseFit(plot, fit, false)
	if err != nil {
		return selection{}, Settings{}, err
	}
	names, set, err := parseArgs(plot, args)
	if err != nil {
		return selection{}, set, err
	}
	if err := checkPosterior(plot, p); err != nil {
		return selection{}, set, err
	}
	chains, err := selectChains(plot, p, set.Chains)
	if err != nil {
		return selection{}, set, err
	}
	cols, note, err := selectColumns(plot, p, names, limit)
	if err != nil {
		return selection{}, set, err
	}
	if len(set.Log) > 0 && plot != "Forest" {
		if p, err = logColumns(plot, p, set.Log); err != nil {
			return selection{}, set, err
		}
	}
	return selection{fit: p, columns: cols, chains: chains, note: note}, set, nil
}

// logColumns returns a copy of p in which the named columns hold their
// logarithms and are named "log(tau)"; the draws of other columns and the
// statistics are shared, not copied.
func logColumns(plot string, p *posterior.Posterior, names []string) (*posterior.Posterior, error) {
	if slices.Contains(names, "*") { // Log(): every column
		names = nil
	}
	cols, _, err := selectColumns(plot, p, names, 0)
	if err != nil {
		return nil, err
	}
	q := *p
	q.Columns = append([]string(nil), p.Columns...)
	q.Chains = make([]posterior.Chain, len(p.Chains))
	for c := range p.Chains {
		q.Chains[c] = p.Chains[c]
		q.Chains[c].Values = append([][]float64(nil), p.Chains[c].Values...)
	}
	for _, col := range cols {
		for c, ch := range p.Chains {
			logs := make([]float64, len(ch.Values[col]))
			for i, v := range ch.Values[col] {
				if !(v > 0) {
					return nil, fmt.Errorf("plotting: %s: Log(%q) needs positive values, but chain %d draw %d of %s is %g; drop it from plotting.Log", plot, p.Columns[col], c+1, i, p.Columns[col], v)
				}
				logs[i] = math.Log(v)
			}
			q.Chains[c].Values[col] = logs
		}
		q.Columns[col] = "log(" + p.Columns[col] + ")"
	}
	return &q, nil
}

// values returns the draws of column col in chain c.
func (s selection) values(c, col int) []float64 { return s.fit.Chains[c].Values[col] }

// pooled returns the draws of column col over the selected chains.
func (s selection) pooled(col int) []float64 {
	var out []float64
	for _, c := range s.chains {
		out = append(out, s.values(c, col)...)
	}
	return out
}

// name is column col as figures label it: by coordinates where its
// variable has them (theta[Choate]), which Column accepts too.
func (s selection) name(col int) string { return s.fit.Label(col) }

// divergent returns the draw indices of chain c marked divergent.
func (s selection) divergent(c int) []int {
	var out []int
	for i, d := range s.fit.Chains[c].Stats.Divergent {
		if d {
			out = append(out, i)
		}
	}
	return out
}

// chainLabel is the legend name of chain index c.
func chainLabel(c int) string { return fmt.Sprintf("chain %d", c+1) }

// parallelFor runs fn(0) … fn(n-1) on as many goroutines as there are
// processors; fn must only write its own index's results.
func parallelFor(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// chainLimit is how many chains a plot with one line or bar per chain
// draws when no chains are chosen: a many-chain sampler's thousands
// would be a smear and a legend longer than the figure.
const chainLimit = 8

// capChains keeps the first chainLimit chains unless the caller chose
// chains, and notes it.
func (s *selection) capChains(set Settings) {
	if len(set.Chains) > 0 || len(s.chains) <= chainLimit {
		return
	}
	note := fmt.Sprintf("showing chains 1–%d of %d; choose others with plotting.Chains(...)", chainLimit, len(s.chains))
	s.chains = s.chains[:chainLimit]
	if s.note != "" {
		s.note += "; " + note
	} else {
		s.note = note
	}
}
