package posterior

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// WriteStanCSV writes one Stan CSV file per chain, named prefix_1.csv,
// prefix_2.csv, …, as CmdStan writes them (comment header with the
// configuration, column names with dotted indices, the adaptation result,
// the draws, the timing), readable by ArviZ's from_cmdstan, cmdstanpy's
// from_csv and R's posterior. It returns the file names.
func (p *Posterior) WriteStanCSV(prefix string) ([]string, error) {
	var names []string
	for c := range p.Chains {
		name := fmt.Sprintf("%s_%d.csv", prefix, c+1)
		f, err := os.Create(name)
		if err != nil {
			return names, fmt.Errorf("posterior: %v", err)
		}
		w := bufio.NewWriter(f)
		err = p.WriteChainCSV(w, c)
		if err == nil {
			err = w.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return names, fmt.Errorf("posterior: writing %s: %v", name, err)
		}
		names = append(names, name)
	}
	return names, nil
}

// stanName turns "theta[1,0]" into CmdStan's "theta.2.1": Stan counts
// elements from 1, this package from 0, and the file is Stan's.
func stanName(col string) string {
	i := strings.IndexByte(col, '[')
	if i < 0 {
		return col
	}
	return col[:i] + "." + shiftIndices(strings.Split(strings.TrimSuffix(col[i+1:], "]"), ","), 1, ".")
}

// bracketName turns CmdStan's "theta.2.1" back into "theta[1,0]".
func bracketName(col string) string {
	i := strings.IndexByte(col, '.')
	if i < 0 {
		return col
	}
	return col[:i] + "[" + shiftIndices(strings.Split(col[i+1:], "."), -1, ",") + "]"
}

// shiftIndices adds by to each index that is a number and joins them
// with sep; a part that is not a number stays as it is.
func shiftIndices(parts []string, by int, sep string) string {
	for k, f := range parts {
		if n, err := strconv.Atoi(f); err == nil {
			parts[k] = strconv.Itoa(n + by)
		}
	}
	return strings.Join(parts, sep)
}

func fnum(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func (p *Posterior) statColumns(ch *Chain) []string {
	cols := []string{"lp__", "accept_stat__", "stepsize__"}
	if ch.Stats.TreeDepth != nil {
		cols = append(cols, "treedepth__")
	}
	if ch.Stats.NLeapfrog != nil {
		cols = append(cols, "n_leapfrog__", "divergent__")
	}
	if ch.Stats.Energy != nil {
		cols = append(cols, "energy__")
	}
	return cols
}

// WriteChainCSV writes chain c (0-based) as one Stan CSV file.
func (p *Posterior) WriteChainCSV(w io.Writer, c int) error {
	ch := &p.Chains[c]
	s := p.Settings
	engine, algorithm := "nuts", "hmc"
	switch p.Sampler {
	case "HMC":
		engine = "static"
	case "RWMH":
		algorithm, engine = "rwmh", ""
	}
	metric := s.Metric
	if metric == "" {
		metric = "diag_e"
	}
	var det []string
	for _, v := range p.Vars {
		if v.Deterministic {
			det = append(det, v.Name)
		}
	}
	lines := []string{
		"stan_version_major = 2", "stan_version_minor = 32", "stan_version_patch = 0",
		"model = " + p.Model,
		"method = sample (Default)",
		"  sample",
		fmt.Sprintf("    num_samples = %d", p.Draws()),
		fmt.Sprintf("    num_warmup = %d", p.Warmup),
		"    save_warmup = 0",
		"    thin = 1",
		"    adapt",
		"      engaged = 1",
		"      gamma = 0.05",
		"      delta = " + fnum(s.TargetAccept),
		"      kappa = 0.75",
		"      t0 = 10",
		"      init_buffer = 75",
		"      term_buffer = 50",
		"      window = 25",
		"    algorithm = " + algorithm,
	}
	if algorithm == "hmc" {
		lines = append(lines, "      hmc", "        engine = "+engine)
		if engine == "nuts" {
			lines = append(lines, "          nuts", fmt.Sprintf("            max_depth = %d", s.MaxDepth))
		} else {
			lines = append(lines, "          static", fmt.Sprintf("            steps = %d", s.Steps))
		}
		lines = append(lines, "        metric = "+metric, "        stepsize = 1", "        stepsize_jitter = 0")
	}
	lines = append(lines,
		fmt.Sprintf("    num_chains = %d", len(p.Chains)),
		fmt.Sprintf("id = %d", c+1),
		"random",
		fmt.Sprintf("  seed = %d", s.Seed),
		"output",
		fmt.Sprintf("  file = %s_%d.csv", p.Model, c+1),
		"  sig_figs = -1",
		"generator = gobayes",
		"deterministic = "+strings.Join(det, " "),
	)
	bw := bufio.NewWriter(w)
	for _, l := range lines {
		bw.WriteString("# " + l + "\n")
	}
	stats := p.statColumns(ch)
	header := append([]string(nil), stats...)
	for _, col := range p.Columns {
		header = append(header, stanName(col))
	}
	bw.WriteString(strings.Join(header, ",") + "\n")
	if p.Warmup > 0 && algorithm == "hmc" {
		bw.WriteString("# Adaptation terminated\n")
		bw.WriteString("# Step size = " + fnum(ch.Adaptation.StepSize) + "\n")
		m := ch.Adaptation.InvMetric
		if ch.Adaptation.Dense {
			bw.WriteString("# Elements of inverse mass matrix:\n")
			d := int(math.Round(math.Sqrt(float64(len(m)))))
			for i := 0; i < d; i++ {
				bw.WriteString("# " + joinNums(m[i*d:(i+1)*d]) + "\n")
			}
		} else {
			bw.WriteString("# Diagonal elements of inverse mass matrix:\n")
			bw.WriteString("# " + joinNums(m) + "\n")
		}
	}
	row := make([]string, len(header))
	for i := 0; i < p.Draws(); i++ {
		k := 0
		st := &ch.Stats
		row[k], row[k+1], row[k+2] = fnum(st.LP[i]), fnum(st.AcceptStat[i]), fnum(st.StepSize[i])
		k += 3
		if st.TreeDepth != nil {
			row[k] = strconv.Itoa(st.TreeDepth[i])
			k++
		}
		if st.NLeapfrog != nil {
			row[k] = strconv.Itoa(st.NLeapfrog[i])
			row[k+1] = "0"
			if st.Divergent[i] {
				row[k+1] = "1"
			}
			k += 2
		}
		if st.Energy != nil {
			row[k] = fnum(st.Energy[i])
			k++
		}
		for j := range p.Columns {
			row[k+j] = fnum(ch.Values[j][i])
		}
		bw.WriteString(strings.Join(row, ",") + "\n")
	}
	a := ch.Adaptation
	fmt.Fprintf(bw, "# \n#  Elapsed Time: %s seconds (Warm-up)\n#                %s seconds (Sampling)\n#                %s seconds (Total)\n# \n",
		fnum(a.WarmupSeconds), fnum(a.SamplingSeconds), fnum(a.WarmupSeconds+a.SamplingSeconds))
	return bw.Flush()
}

func joinNums(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fnum(x)
	}
	return strings.Join(s, ", ")
}

// ReadStanCSV reads Stan CSV files, one per chain (as WriteStanCSV or
// CmdStan writes them), into a Posterior.
func ReadStanCSV(paths ...string) (*Posterior, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("posterior: ReadStanCSV needs at least one file")
	}
	p := &Posterior{}
	for c, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("posterior: %v", err)
		}
		err = p.readChain(f, c == 0)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("posterior: reading %s: %v", path, err)
		}
	}
	return p, nil
}

func (p *Posterior) readChain(r io.Reader, first bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	cfg := map[string]string{}
	var header []string
	var ch Chain
	var det map[string]bool
	metricRows := -1 // >= 0 while reading inverse metric lines
	var dense bool
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			body := strings.TrimSpace(strings.TrimLeft(line, "#"))
			switch {
			case header == nil:
				if k, v, ok := strings.Cut(body, "="); ok {
					cfg[strings.TrimSpace(k)] = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "(Default)"))
				}
			case strings.HasPrefix(body, "Step size"):
				_, v, _ := strings.Cut(body, "=")
				ch.Adaptation.StepSize, _ = strconv.ParseFloat(strings.TrimSpace(v), 64)
			case strings.HasPrefix(body, "Diagonal elements of inverse mass matrix"):
				metricRows, dense = 0, false
			case strings.HasPrefix(body, "Elements of inverse mass matrix"):
				metricRows, dense = 0, true
			case metricRows >= 0 && body != "" && (body[0] == '-' || body[0] == '.' || (body[0] >= '0' && body[0] <= '9')):
				for _, f := range strings.Split(body, ",") {
					v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
					if err != nil {
						return fmt.Errorf("bad inverse metric line %q", line)
					}
					ch.Adaptation.InvMetric = append(ch.Adaptation.InvMetric, v)
				}
				metricRows++
				if !dense {
					metricRows = -1
				}
				ch.Adaptation.Dense = dense
			case strings.HasPrefix(body, "Elapsed Time"):
				metricRows = -1
				ch.Adaptation.WarmupSeconds = leadingFloat(strings.TrimPrefix(body, "Elapsed Time:"))
			case strings.HasSuffix(body, "(Sampling)"):
				ch.Adaptation.SamplingSeconds = leadingFloat(body)
			default:
				metricRows = -1
			}
			continue
		}
		if header == nil {
			header = strings.Split(line, ",")
			det = map[string]bool{}
			for _, n := range strings.Fields(cfg["deterministic"]) {
				det[n] = true
			}
			if err := p.setLayout(header, cfg, det, first); err != nil {
				return err
			}
			ch.Values = make([][]float64, len(p.Columns))
			continue
		}
		fields := strings.Split(line, ",")
		if len(fields) != len(header) {
			return fmt.Errorf("a draw has %d values, the header %d", len(fields), len(header))
		}
		k := 0
		for i, name := range header {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return fmt.Errorf("bad number %q in column %s", fields[i], name)
			}
			switch name {
			case "lp__":
				ch.Stats.LP = append(ch.Stats.LP, v)
			case "accept_stat__":
				ch.Stats.AcceptStat = append(ch.Stats.AcceptStat, v)
			case "stepsize__":
				ch.Stats.StepSize = append(ch.Stats.StepSize, v)
			case "treedepth__":
				ch.Stats.TreeDepth = append(ch.Stats.TreeDepth, int(v))
			case "n_leapfrog__":
				ch.Stats.NLeapfrog = append(ch.Stats.NLeapfrog, int(v))
			case "divergent__":
				ch.Stats.Divergent = append(ch.Stats.Divergent, v != 0)
			case "energy__":
				ch.Stats.Energy = append(ch.Stats.Energy, v)
			default:
				if strings.HasSuffix(name, "__") {
					continue
				}
				ch.Values[k] = append(ch.Values[k], v)
				k++
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if header == nil {
		return fmt.Errorf("no header line: not a Stan CSV file")
	}
	if sw := cfg["save_warmup"]; sw == "1" || sw == "true" {
		// CmdStan wrote the warm-up draws first: keep the sampling ones.
		w, _ := strconv.Atoi(cfg["num_warmup"])
		if t, _ := strconv.Atoi(cfg["thin"]); t > 1 {
			w = (w + t - 1) / t
		}
		dropWarmup(&ch, w)
	}
	p.Chains = append(p.Chains, ch)
	p.Seconds = append(p.Seconds, ch.Adaptation.WarmupSeconds+ch.Adaptation.SamplingSeconds)
	return nil
}

func leadingFloat(s string) float64 {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// setLayout fills the posterior's metadata from the first file and checks
// that later files agree.
func (p *Posterior) setLayout(header []string, cfg map[string]string, det map[string]bool, first bool) error {
	var cols []string
	for _, h := range header {
		if !strings.HasSuffix(h, "__") {
			cols = append(cols, bracketName(h))
		}
	}
	if !first {
		if strings.Join(cols, ",") != strings.Join(p.Columns, ",") {
			return fmt.Errorf("columns differ from the first file's")
		}
		return nil
	}
	p.Columns = cols
	p.Model = cfg["model"]
	p.Warmup, _ = strconv.Atoi(cfg["num_warmup"])
	p.Settings.Seed, _ = strconv.ParseUint(cfg["seed"], 10, 64)
	p.Settings.TargetAccept, _ = strconv.ParseFloat(cfg["delta"], 64)
	p.Settings.MaxDepth, _ = strconv.Atoi(cfg["max_depth"])
	p.Settings.Steps, _ = strconv.Atoi(cfg["steps"])
	p.Settings.Metric = cfg["metric"]
	switch {
	case cfg["algorithm"] == "rwmh":
		p.Sampler = "RWMH"
	case cfg["engine"] == "static":
		p.Sampler = "HMC"
	default:
		p.Sampler = "NUTS"
	}
	// Variables: consecutive columns sharing a base name; the shape is one
	// more than the largest (0-based) index in each dimension.
	p.Vars = nil
	for j, c := range cols {
		base, idx := c, []int(nil)
		if i := strings.IndexByte(c, '['); i >= 0 {
			base = c[:i]
			for _, f := range strings.Split(strings.TrimSuffix(c[i+1:], "]"), ",") {
				n, _ := strconv.Atoi(f)
				idx = append(idx, n+1)
			}
		}
		if n := len(p.Vars); n > 0 && p.Vars[n-1].Name == base && idx != nil {
			v := &p.Vars[n-1]
			for k := range idx {
				if k < len(v.Shape) && idx[k] > v.Shape[k] {
					v.Shape[k] = idx[k]
				}
			}
			continue
		}
		p.Vars = append(p.Vars, Var{Name: base, Shape: idx, Deterministic: det[base], Start: j})
	}
	return nil
}

// dropWarmup removes the first w draws of a chain read from a file.
func dropWarmup(ch *Chain, w int) {
	for j := range ch.Values {
		ch.Values[j] = ch.Values[j][min(w, len(ch.Values[j])):]
	}
	st := &ch.Stats
	f := func(x []float64) []float64 {
		if x == nil {
			return nil
		}
		return x[min(w, len(x)):]
	}
	st.LP, st.AcceptStat, st.StepSize, st.Energy = f(st.LP), f(st.AcceptStat), f(st.StepSize), f(st.Energy)
	if st.TreeDepth != nil {
		st.TreeDepth = st.TreeDepth[min(w, len(st.TreeDepth)):]
	}
	if st.NLeapfrog != nil {
		st.NLeapfrog = st.NLeapfrog[min(w, len(st.NLeapfrog)):]
	}
	if st.Divergent != nil {
		st.Divergent = st.Divergent[min(w, len(st.Divergent)):]
	}
}
