package posterior

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// InferenceData is a fit laid out as ArviZ's InferenceData: groups of
// draws (posterior, sample_stats, log_likelihood, posterior_predictive,
// prior, prior_predictive, and predictions at new data), each variable an array over dims chain, draw
// and its own (<name>_dim_<k>, as ArviZ names them without coords), and
// the groups of data (observed_data, constant_data,
// predictions_constant_data). WriteZarr saves it
// as a Zarr (format 2) store that xarray and ArviZ open:
//
//	idata := m.InferenceData(fit)
//	idata.WriteZarr("fit.zarr")
//	# Python: az.from_zarr("fit.zarr"), or xarray.open_zarr("fit.zarr", group="posterior")
type InferenceData struct {
	// Draws maps a group's name to its draws; sample_stats comes from the
	// posterior group's chains.
	Draws map[string]*Posterior
	// Data maps "observed_data" and "constant_data" to their arrays.
	Data map[string][]DataArray
	// Coords labels the elements of named dimensions (Var.Dims,
	// DataArray.Dims); unlabelled dimensions have their 0-based index.
	Coords map[string][]string
	// GroupCoords labels a group's dimensions where they differ from
	// Coords: the predictions and predictions_constant_data groups, at
	// new rows with labels of their own.
	GroupCoords map[string]map[string][]string
}

// DataArray is one array of data: its values in row-major order over
// Shape (nil for a scalar).
type DataArray struct {
	Name   string
	Shape  []int
	Dims   []string // the dimensions' names, nil for <name>_dim_<k>
	Values []float64
}

// zarr is a Zarr v2 store being written: its metadata, consolidated at
// the end into .zmetadata.
type zarr struct {
	dir         string
	meta        map[string]any
	coords      map[string][]string
	groupCoords map[string]map[string][]string
}

func (z *zarr) writeJSON(rel string, v any) error {
	z.meta[rel] = v
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	p := filepath.Join(z.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

func (z *zarr) group(path string, attrs map[string]any) error {
	if err := z.writeJSON(join(path, ".zgroup"), map[string]any{"zarr_format": 2}); err != nil {
		return err
	}
	return z.writeJSON(join(path, ".zattrs"), attrs)
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "/" + b
}

// array writes one uncompressed chunk holding the whole array: float64
// ("<f8"), int64 ("<i8") or bool ("|b1") values, little-endian.
func (z *zarr) array(path string, shape []int, dims []string, data any) error {
	var dtype string
	var raw []byte
	switch v := data.(type) {
	case []float64:
		dtype, raw = "<f8", make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(raw[8*i:], math.Float64bits(x))
		}
	case []int64:
		dtype, raw = "<i8", make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(raw[8*i:], uint64(x))
		}
	case []bool:
		dtype, raw = "|b1", make([]byte, len(v))
		for i, x := range v {
			if x {
				raw[i] = 1
			}
		}
	case []string: // fixed-width UTF-32, NumPy's <U
		w := 1
		for _, x := range v {
			w = max(w, len([]rune(x)))
		}
		dtype, raw = fmt.Sprintf("<U%d", w), make([]byte, 4*w*len(v))
		for i, x := range v {
			for k, r := range []rune(x) {
				binary.LittleEndian.PutUint32(raw[4*(i*w+k):], uint32(r))
			}
		}
	default:
		return fmt.Errorf("posterior: zarr array of %T", data)
	}
	chunks := shape
	key := "0"
	if len(shape) > 0 {
		key = strings.TrimSuffix(strings.Repeat("0.", len(shape)), ".")
	} else {
		chunks = []int{}
		shape = []int{}
	}
	if err := z.writeJSON(join(path, ".zarray"), map[string]any{
		"zarr_format": 2, "shape": shape, "chunks": chunks, "dtype": dtype, "compressor": nil,
		"fill_value": nil, "filters": nil, "order": "C",
	}); err != nil {
		return err
	}
	if err := z.writeJSON(join(path, ".zattrs"), map[string]any{"_ARRAY_DIMENSIONS": dims}); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(z.dir, filepath.FromSlash(path), key), raw, 0o644)
}

// index writes the coordinate of a dimension, once per group: its labels
// (Coords), or 0, 1, …, n-1.
func (z *zarr) index(group, dim string, n int, done map[string]bool) error {
	if done[dim] {
		return nil
	}
	done[dim] = true
	c, ok := z.groupCoords[group][dim]
	if !ok {
		c = z.coords[dim]
	}
	if len(c) == n {
		return z.array(join(group, dim), []int{n}, []string{dim}, c)
	}
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(i)
	}
	return z.array(join(group, dim), []int{n}, []string{dim}, v)
}

// draws writes a group of draws: each variable [chain, draw, dims...].
func (z *zarr) draws(group string, p *Posterior) error {
	if err := z.group(group, map[string]any{"inference_library": "gobayes", "model": p.Model, "sampler": p.Sampler}); err != nil {
		return err
	}
	done := map[string]bool{}
	c, n := len(p.Chains), p.Draws()
	if err := z.index(group, "chain", c, done); err != nil {
		return err
	}
	if err := z.index(group, "draw", n, done); err != nil {
		return err
	}
	for _, v := range p.Vars {
		a := p.Array(v.Name)
		dims := []string{"chain", "draw"}
		for k, d := range v.Shape {
			dim := dimName(v.Name, v.Dims, k)
			dims = append(dims, dim)
			if err := z.index(group, dim, d, done); err != nil {
				return err
			}
		}
		if err := z.array(join(group, v.Name), a.Shape, dims, a.Data); err != nil {
			return err
		}
	}
	return nil
}

// sampleStats writes the sampler's statistics of p under ArviZ's names.
func (z *zarr) sampleStats(p *Posterior) error {
	if len(p.Chains) == 0 || p.Chains[0].Stats.LP == nil {
		return nil
	}
	const group = "sample_stats"
	if err := z.group(group, map[string]any{"inference_library": "gobayes", "sampler": p.Sampler}); err != nil {
		return err
	}
	c, n := len(p.Chains), p.Draws()
	done := map[string]bool{}
	if err := z.index(group, "chain", c, done); err != nil {
		return err
	}
	if err := z.index(group, "draw", n, done); err != nil {
		return err
	}
	dims, shape := []string{"chain", "draw"}, []int{c, n}
	floats := func(name string, get func(s *Stats) []float64) error {
		out := make([]float64, 0, c*n)
		for _, ch := range p.Chains {
			v := get(&ch.Stats)
			if len(v) != n {
				return nil // not recorded by this sampler
			}
			out = append(out, v...)
		}
		return z.array(join(group, name), shape, dims, out)
	}
	ints := func(name string, get func(s *Stats) []int) error {
		out := make([]int64, 0, c*n)
		for _, ch := range p.Chains {
			v := get(&ch.Stats)
			if len(v) != n {
				return nil
			}
			for _, x := range v {
				out = append(out, int64(x))
			}
		}
		return z.array(join(group, name), shape, dims, out)
	}
	for _, err := range []error{
		floats("lp", func(s *Stats) []float64 { return s.LP }),
		floats("acceptance_rate", func(s *Stats) []float64 { return s.AcceptStat }),
		floats("step_size", func(s *Stats) []float64 { return s.StepSize }),
		floats("energy", func(s *Stats) []float64 { return s.Energy }),
		ints("tree_depth", func(s *Stats) []int { return s.TreeDepth }),
		ints("n_steps", func(s *Stats) []int { return s.NLeapfrog }),
	} {
		if err != nil {
			return err
		}
	}
	div := make([]bool, 0, c*n)
	for _, ch := range p.Chains {
		if len(ch.Stats.Divergent) != n {
			return nil
		}
		div = append(div, ch.Stats.Divergent...)
	}
	return z.array(join(group, "diverging"), shape, dims, div)
}

// data writes a group of data arrays, dims <name>_dim_<k>.
func (z *zarr) data(group string, arrays []DataArray) error {
	if err := z.group(group, map[string]any{"inference_library": "gobayes"}); err != nil {
		return err
	}
	done := map[string]bool{}
	for _, a := range arrays {
		var dims []string
		for k, d := range a.Shape {
			dim := dimName(a.Name, a.Dims, k)
			dims = append(dims, dim)
			if err := z.index(group, dim, d, done); err != nil {
				return err
			}
		}
		if dims == nil {
			dims = []string{}
		}
		if err := z.array(join(group, a.Name), a.Shape, dims, a.Values); err != nil {
			return err
		}
	}
	return nil
}

// dimName is dimension k's name: the variable's Dims, else ArviZ's
// default <name>_dim_<k>.
func dimName(name string, dims []string, k int) string {
	if k < len(dims) {
		return dims[k]
	}
	return fmt.Sprintf("%s_dim_%d", name, k)
}

// groupOrder is the order ArviZ lists groups in.
var groupOrder = []string{"posterior", "posterior_predictive", "predictions", "log_likelihood", "sample_stats", "prior", "prior_predictive", "observed_data", "constant_data", "predictions_constant_data"}

// WriteZarr saves the InferenceData as a Zarr v2 directory store at dir
// (replacing one there), with consolidated metadata (.zmetadata).
func (d *InferenceData) WriteZarr(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	z := &zarr{dir: dir, meta: map[string]any{}, coords: d.Coords, groupCoords: d.GroupCoords}
	if err := z.group("", map[string]any{}); err != nil {
		return err
	}
	for _, g := range groupOrder {
		var err error
		switch {
		case g == "sample_stats":
			if p := d.Draws["posterior"]; p != nil {
				err = z.sampleStats(p)
			}
		case d.Draws[g] != nil:
			err = z.draws(g, d.Draws[g])
		case len(d.Data[g]) > 0:
			err = z.data(g, d.Data[g])
		}
		if err != nil {
			return fmt.Errorf("posterior: writing group %s of %s: %w", g, dir, err)
		}
	}
	b, err := json.Marshal(map[string]any{"zarr_consolidated_format": 1, "metadata": z.meta})
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ".zmetadata"), b, 0o644)
}
