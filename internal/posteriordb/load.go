package posteriordb

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// EnvDir is the environment variable that, when set, names the folder
// holding the cases instead of ../shared/posteriordb.
const EnvDir = "GOBAYES_POSTERIORDB"

// cases are the folder names of the seventeen reference posteriors, in the
// order of ../shared/posteriordb/README.md's difficulty list.
var cases = []string{
	"kidiq-kidscore_momhs",
	"sblrc-blr",
	"mesquite-logmesquite",
	"nes2000-nes",
	"arK-arK",
	"arma-arma11",
	"gp_pois_regr-gp_regr",
	"eight_schools-eight_schools_noncentered",
	"garch-garch11",
	"low_dim_gauss_mix-low_dim_gauss_mix",
	"hmm_example-hmm_example",
	"gp_pois_regr-gp_pois_regr",
	"earnings-earn_height",
	"earnings-logearn_interaction",
	"kidiq-kidscore_interaction",
	"kilpisjarvi_mod-kilpisjarvi",
	"eight_schools-eight_schools_centered",
}

// Cases returns the names of the seventeen reference posteriors, roughly
// from easiest to hardest to sample.
func Cases() []string { return append([]string(nil), cases...) }

// ErrNotFound is wrapped by the errors of Dir and Load when the folder of
// reference posteriors is missing.
var ErrNotFound = errors.New("reference posteriors not found")

// Dir returns the folder holding the cases: $GOBAYES_POSTERIORDB when set,
// else ../shared/posteriordb relative to the repository root (found by
// walking up from the working directory, then from this source file, to
// the go.mod of module github.com/gobayes/gobayes).
func Dir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		if isDir(d) {
			return d, nil
		}
		return "", fmt.Errorf("posteriordb: %s=%q is not a folder: %w; point it at the folder holding the case folders (eight_schools-eight_schools_noncentered, ...)", EnvDir, d, ErrNotFound)
	}
	var tried []string
	starts := []string{}
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		starts = append(starts, filepath.Dir(file))
	}
	for _, s := range starts {
		root, ok := repoRoot(s)
		if !ok {
			continue
		}
		d := filepath.Join(root, "..", "shared", "posteriordb")
		if isDir(d) {
			return d, nil
		}
		tried = append(tried, d)
	}
	if len(tried) == 0 {
		return "", fmt.Errorf("posteriordb: no gobayes repository above the working directory: %w; set %s to the folder holding the cases", ErrNotFound, EnvDir)
	}
	return "", fmt.Errorf("posteriordb: %s is missing: %w; clone shared/ beside the repository or set %s to the folder holding the cases", tried[0], ErrNotFound, EnvDir)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// repoRoot walks up from dir to the folder whose go.mod declares this
// module.
func repoRoot(dir string) (string, bool) {
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.Contains(b, []byte("module github.com/gobayes/gobayes\n")) {
			return dir, true
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", false
		}
		dir = up
	}
}

// Case is one reference posterior: its data and the reference summary of
// its draws.
type Case struct {
	Name string
	Dir  string // empty for simulated cases
	// Data holds data.json's fields: numbers as float64, arrays as
	// []float64, matrices as [][]float64 (rows). Read them with Float,
	// Int, Floats, Ints and Matrix, which check the kind.
	Data map[string]any
	// Reference lists the summary of every scalar in reference.json's
	// order ("theta[0]", ..., "mu", "tau"), named as this module names
	// columns (0-based); Scalar.StanName keeps posteriordb's own.
	Reference []Scalar
	// Dims is reference.json's posterior_dimensions_declared: the number
	// of scalars of each reported variable.
	Dims map[string]int
}

// Scalar is the reference summary of one scalar of the posterior, over 10
// chains x 1000 near-independent Stan draws.
type Scalar struct {
	// Name is the column's name here, 0-based ("theta[0]"); StanName is
	// posteriordb's, 1-based as Stan counts ("theta[1]").
	Name, StanName   string
	Mean, SD         float64
	Q05, Q50, Q95    float64
	MCSEMean         float64 // Monte Carlo standard error of Mean
	Rhat             float64
	ESSBulk, ESSTail float64
}

// Load reads the case called name from Dir: data.json and reference.json.
func Load(name string) (*Case, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	return LoadDir(filepath.Join(dir, name))
}

// LoadDir reads the case in folder dir; the case is named after the folder.
func LoadDir(dir string) (*Case, error) {
	c := &Case{Name: filepath.Base(dir), Dir: dir}
	b, err := os.ReadFile(filepath.Join(dir, "data.json"))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("posteriordb: case %q: %w (no %s); Cases() lists the known names", c.Name, ErrNotFound, filepath.Join(dir, "data.json"))
		}
		return nil, fmt.Errorf("posteriordb: case %q: %v", c.Name, err)
	}
	if c.Data, err = decodeData(b); err != nil {
		return nil, fmt.Errorf("posteriordb: case %q: data.json: %v", c.Name, err)
	}
	b, err = os.ReadFile(filepath.Join(dir, "reference.json"))
	if err != nil {
		return nil, fmt.Errorf("posteriordb: case %q: %v", c.Name, err)
	}
	if err := c.readReference(b); err != nil {
		return nil, fmt.Errorf("posteriordb: case %q: reference.json: %v", c.Name, err)
	}
	return c, nil
}

// readReference decodes reference.json keeping the order of "parameters",
// which encoding/json's maps would lose.
func (c *Case) readReference(b []byte) error {
	var top struct {
		Parameters json.RawMessage `json:"parameters"`
		Dims       map[string]int  `json:"posterior_dimensions_declared"`
	}
	if err := json.Unmarshal(b, &top); err != nil {
		return err
	}
	if len(top.Parameters) == 0 {
		return errors.New(`no "parameters" object`)
	}
	c.Dims = top.Dims
	dec := json.NewDecoder(bytes.NewReader(top.Parameters))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errors.New(`"parameters" is not an object`)
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := t.(string)
		var s struct {
			Mean     *float64 `json:"mean"`
			SD       *float64 `json:"sd"`
			Q05      *float64 `json:"q05"`
			Q50      *float64 `json:"q50"`
			Q95      *float64 `json:"q95"`
			MCSEMean *float64 `json:"mcse_mean"`
			Rhat     *float64 `json:"rhat"`
			ESSBulk  *float64 `json:"ess_bulk"`
			ESSTail  *float64 `json:"ess_tail"`
		}
		if err := dec.Decode(&s); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		fields := []struct {
			key string
			p   *float64
		}{{"mean", s.Mean}, {"sd", s.SD}, {"q05", s.Q05}, {"q50", s.Q50}, {"q95", s.Q95},
			{"mcse_mean", s.MCSEMean}, {"rhat", s.Rhat}, {"ess_bulk", s.ESSBulk}, {"ess_tail", s.ESSTail}}
		for _, f := range fields {
			if f.p == nil {
				return fmt.Errorf("%s: no %q", name, f.key)
			}
		}
		c.Reference = append(c.Reference, Scalar{
			Name: zeroBased(name), StanName: name, Mean: *s.Mean, SD: *s.SD, Q05: *s.Q05, Q50: *s.Q50, Q95: *s.Q95,
			MCSEMean: *s.MCSEMean, Rhat: *s.Rhat, ESSBulk: *s.ESSBulk, ESSTail: *s.ESSTail,
		})
	}
	return nil
}

// Ref returns the reference summary of the scalar called name ("mu",
// "theta[2]": 0-based, as the posterior's columns).
func (c *Case) Ref(name string) (Scalar, bool) {
	for _, s := range c.Reference {
		if s.Name == name {
			return s, true
		}
	}
	return Scalar{}, false
}

// value returns data field name, or an error listing the fields there are.
func (c *Case) value(name string) (any, error) {
	v, ok := c.Data[name]
	if !ok {
		have := make([]string, 0, len(c.Data))
		for k := range c.Data {
			have = append(have, k)
		}
		slices.Sort(have)
		return nil, fmt.Errorf("posteriordb: case %q has no data field %q (it has %s)", c.Name, name, strings.Join(have, ", "))
	}
	return v, nil
}

// Float returns the number in data field name.
func (c *Case) Float(name string) (float64, error) {
	v, err := c.value(name)
	if err != nil {
		return 0, err
	}
	x, ok := v.(float64)
	if !ok {
		return 0, fmt.Errorf("posteriordb: case %q: data field %q is %s, not a number", c.Name, name, describe(v))
	}
	return x, nil
}

// Int returns the integer in data field name.
func (c *Case) Int(name string) (int, error) {
	x, err := c.Float(name)
	if err != nil {
		return 0, err
	}
	if !isInt(x) {
		return 0, fmt.Errorf("posteriordb: case %q: data field %q is %v, not an integer", c.Name, name, x)
	}
	return int(x), nil
}

// Floats returns a copy of the numbers of array field name.
func (c *Case) Floats(name string) ([]float64, error) {
	v, err := c.value(name)
	if err != nil {
		return nil, err
	}
	x, ok := v.([]float64)
	if !ok {
		return nil, fmt.Errorf("posteriordb: case %q: data field %q is %s, not an array of numbers", c.Name, name, describe(v))
	}
	return slices.Clone(x), nil
}

// Ints returns the integers of array field name.
func (c *Case) Ints(name string) ([]int, error) {
	f, err := c.Floats(name)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(f))
	for i, x := range f {
		if !isInt(x) {
			return nil, fmt.Errorf("posteriordb: case %q: data field %q[%d] is %v, not an integer", c.Name, name, i, x)
		}
		out[i] = int(x)
	}
	return out, nil
}

// Matrix returns a copy of matrix field name (a list of rows of equal
// length, as data.json stores matrices).
func (c *Case) Matrix(name string) ([][]float64, error) {
	v, err := c.value(name)
	if err != nil {
		return nil, err
	}
	x, ok := v.([][]float64)
	if !ok {
		return nil, fmt.Errorf("posteriordb: case %q: data field %q is %s, not a matrix (a list of rows)", c.Name, name, describe(v))
	}
	out := make([][]float64, len(x))
	for i := range x {
		out[i] = slices.Clone(x[i])
	}
	return out, nil
}

func isInt(x float64) bool { return x == math.Trunc(x) && math.Abs(x) <= 1<<53 }

func describe(v any) string {
	switch v := v.(type) {
	case float64:
		return "a number"
	case []float64:
		return fmt.Sprintf("an array of %d numbers", len(v))
	case [][]float64:
		return fmt.Sprintf("a %d-row matrix", len(v))
	}
	return fmt.Sprintf("a %T", v)
}

// decodeData turns data.json's fields into float64, []float64 and
// [][]float64 (rows of equal length); anything else is an error.
func decodeData(b []byte) (map[string]any, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(raw))
	for k, r := range raw {
		var x float64
		if json.Unmarshal(r, &x) == nil {
			out[k] = x
			continue
		}
		var v []float64
		if json.Unmarshal(r, &v) == nil {
			out[k] = v
			continue
		}
		var m [][]float64
		if err := json.Unmarshal(r, &m); err != nil {
			return nil, fmt.Errorf("field %q is neither a number, an array of numbers nor a list of rows", k)
		}
		for i := range m {
			if len(m[i]) != len(m[0]) {
				return nil, fmt.Errorf("field %q: row %d has %d columns, row 1 has %d", k, i+1, len(m[i]), len(m[0]))
			}
		}
		out[k] = m
	}
	return out, nil
}

// zeroBased maps posteriordb's 1-based name of a scalar ("theta[1]",
// "Sigma[2,1]") to this module's 0-based one ("theta[0]", "Sigma[1,0]"):
// the one place the two conventions meet. A name without indices, or
// with a part that is not a positive number, stays as it is.
func zeroBased(name string) string {
	open := strings.IndexByte(name, '[')
	if open < 0 || !strings.HasSuffix(name, "]") {
		return name
	}
	parts := strings.Split(name[open+1:len(name)-1], ",")
	for k, f := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return name
		}
		parts[k] = strconv.Itoa(n - 1)
	}
	return name[:open] + "[" + strings.Join(parts, ",") + "]"
}
