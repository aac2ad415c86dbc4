// Command benchratio reads the output of ppl's BenchmarkModels on stdin
// and prints, per model, the time of the compiled and of the hand-written
// log density with gradient, their ratio against the target of 1.5, and
// the compiled evaluation's allocations:
//
//	go test -run '^$' -bench Models -count 5 ./ppl/ | go run ./internal/posteriordb/benchratio
//
// With several counts it keeps each sub-benchmark's fastest run, the one
// least disturbed by other work on the machine.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"text/tabwriter"
)

// target is the largest acceptable compiled/hand-written ratio (issue 3).
const target = 1.5

// line matches "BenchmarkModels/<model>/<variant>-<procs>  <n>  <ns> ns/op ... <allocs> allocs/op".
var line = regexp.MustCompile(`^BenchmarkModels/([^/\s]+)/(compiled|handwritten)(?:-\d+)?\s+\d+\s+([0-9.]+) ns/op(?:.*?\s(\d+) allocs/op)?`)

type result struct {
	ns     float64
	allocs int
	seen   bool
}

type row struct {
	model                 string
	compiled, handwritten result
}

func main() {
	rows, err := read(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchratio:", err)
		os.Exit(1)
	}
	if len(rows) == 0 {
		fmt.Fprintln(os.Stderr, "benchratio: no BenchmarkModels lines on stdin; pipe in `go test -run '^$' -bench Models ./ppl/`")
		os.Exit(1)
	}
	if !write(os.Stdout, rows) {
		os.Exit(2)
	}
}

func read(r io.Reader) ([]*row, error) {
	var rows []*row
	byModel := map[string]*row{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ns, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", sc.Text(), err)
		}
		allocs := -1
		if m[4] != "" {
			allocs, _ = strconv.Atoi(m[4])
		}
		rw := byModel[m[1]]
		if rw == nil {
			rw = &row{model: m[1]}
			byModel[m[1]] = rw
			rows = append(rows, rw)
		}
		res := &rw.compiled
		if m[2] == "handwritten" {
			res = &rw.handwritten
		}
		if !res.seen || ns < res.ns {
			res.ns = ns
		}
		res.allocs = max(res.allocs, allocs)
		res.seen = true
	}
	return rows, sc.Err()
}

// write prints the table and reports whether every model met the target
// with zero allocations.
func write(w io.Writer, rows []*row) bool {
	ok := true
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "model\tcompiled ns/op\thandwritten ns/op\tratio\tallocs/op\t≤1.5×\t")
	for _, r := range rows {
		c, h := "—", "—"
		ratio, verdict := "—", "?"
		if r.compiled.seen {
			c = strconv.FormatFloat(r.compiled.ns, 'f', 0, 64)
		}
		if r.handwritten.seen {
			h = strconv.FormatFloat(r.handwritten.ns, 'f', 0, 64)
		}
		if r.compiled.seen && r.handwritten.seen {
			q := r.compiled.ns / r.handwritten.ns
			ratio = strconv.FormatFloat(q, 'f', 2, 64)
			verdict = "yes"
			if q > target || r.compiled.allocs != 0 {
				verdict, ok = "NO", false
			}
		} else {
			ok = false
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t\n", r.model, c, h, ratio, r.compiled.allocs, verdict)
	}
	tw.Flush()
	return ok
}
