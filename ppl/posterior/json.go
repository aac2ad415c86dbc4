package posterior

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
)

// WriteJSON writes the posterior as one JSON object:
//
//	{"model": …, "sampler": …, "warmup": …, "interrupted": …,
//	 "variables": [{"name", "shape", "deterministic", "columns"}],
//	 "chains": [{"draws": {"mu": […], "theta[0]": […]},
//	             "stats": {"lp__": […], …}, "step_size": …, "inv_metric": […]}]}
//
// Non-finite numbers are written as null.
func (p *Posterior) WriteJSON(w io.Writer) error {
	type jvar struct {
		Name          string   `json:"name"`
		Shape         []int    `json:"shape"`
		Deterministic bool     `json:"deterministic"`
		Columns       []string `json:"columns"`
	}
	type jchain struct {
		Draws     map[string]floats `json:"draws"`
		Stats     map[string]any    `json:"stats"`
		StepSize  floats            `json:"step_size"`
		InvMetric floats            `json:"inv_metric"`
		Dense     bool              `json:"dense_metric"`
		Seconds   floats            `json:"seconds"`
	}
	out := struct {
		Model       string   `json:"model"`
		Sampler     string   `json:"sampler"`
		Warmup      int      `json:"warmup"`
		Draws       int      `json:"draws"`
		Interrupted bool     `json:"interrupted"`
		Settings    Settings `json:"settings"`
		Variables   []jvar   `json:"variables"`
		Chains      []jchain `json:"chains"`
	}{Model: p.Model, Sampler: p.Sampler, Warmup: p.Warmup, Draws: p.Draws(), Interrupted: p.Interrupted, Settings: p.Settings}
	for _, v := range p.Vars {
		n := v.size()
		out.Variables = append(out.Variables, jvar{Name: v.Name, Shape: v.Shape, Deterministic: v.Deterministic, Columns: p.Columns[v.Start : v.Start+n]})
	}
	for _, ch := range p.Chains {
		jc := jchain{Draws: map[string]floats{}, Stats: map[string]any{},
			StepSize: floats{ch.Adaptation.StepSize}, InvMetric: ch.Adaptation.InvMetric, Dense: ch.Adaptation.Dense,
			Seconds: floats{ch.Adaptation.WarmupSeconds, ch.Adaptation.SamplingSeconds}}
		for j, c := range p.Columns {
			jc.Draws[c] = ch.Values[j]
		}
		s := ch.Stats
		put := func(name string, v floats) {
			if v != nil {
				jc.Stats[name] = v
			}
		}
		put("lp__", s.LP)
		put("accept_stat__", s.AcceptStat)
		put("stepsize__", s.StepSize)
		put("energy__", s.Energy)
		if s.TreeDepth != nil {
			jc.Stats["treedepth__"] = s.TreeDepth
		}
		if s.NLeapfrog != nil {
			jc.Stats["n_leapfrog__"] = s.NLeapfrog
		}
		if s.Divergent != nil {
			jc.Stats["divergent__"] = s.Divergent
		}
		out.Chains = append(out.Chains, jc)
	}
	enc := json.NewEncoder(w)
	return enc.Encode(out)
}

// floats marshals like []float64 with non-finite values as null.
type floats []float64

func (f floats) MarshalJSON() ([]byte, error) {
	if f == nil {
		return []byte("null"), nil
	}
	b := make([]byte, 0, 12*len(f)+2)
	b = append(b, '[')
	for i, v := range f {
		if i > 0 {
			b = append(b, ',')
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendFloat(b, v, 'g', -1, 64)
		}
	}
	return append(b, ']'), nil
}

// SaveJSON writes the posterior as JSON (see WriteJSON) to the file path.
func (p *Posterior) SaveJSON(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("posterior: %v", err)
	}
	w := bufio.NewWriter(f)
	err = p.WriteJSON(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("posterior: writing %s: %v", path, err)
	}
	return nil
}
