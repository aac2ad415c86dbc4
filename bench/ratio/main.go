// Command ratio reads the output of ppl's BenchmarkModels and
// BenchmarkModelRatio on stdin and prints, per model, the time of the
// compiled and of the hand-written log density with gradient, their ratio,
// the paired ratio (BenchmarkModelRatio's median of alternating chunks),
// the compiled evaluation's allocations, and whether the target of 1.5×
// and zero allocations is met:
//
//	go test -run '^$' -bench 'Models|ModelRatio' -count 3 ./ppl/ | go run ./bench/ratio
//
// With several counts it keeps each sub-benchmark's fastest run, the one
// least disturbed by other work on the machine, and the smallest paired
// ratio. The verdict uses the paired ratio when there is one.
package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
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

// pairedLine matches "BenchmarkModelRatio/<model>-<procs> ... <r> ratio".
var pairedLine = regexp.MustCompile(`^BenchmarkModelRatio/([^/\s]+?)(?:-\d+)?\s.*?\s([0-9.]+) ratio`)

type row struct {
	model                 string
	compiled, handwritten result
	paired                float64 // 0 when not measured
}

func main() {
	rows, err := read(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratio:", err)
		os.Exit(1)
	}
	if len(rows) == 0 {
		fmt.Fprintln(os.Stderr, "ratio: no BenchmarkModels lines on stdin; pipe in `go test -run '^$' -bench Models ./ppl/`")
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
	get := func(model string) *row {
		rw := byModel[model]
		if rw == nil {
			rw = &row{model: model}
			byModel[model] = rw
			rows = append(rows, rw)
		}
		return rw
	}
	for sc.Scan() {
		if m := pairedLine.FindStringSubmatch(sc.Text()); m != nil {
			q, err := strconv.ParseFloat(m[2], 64)
			if err != nil {
				return nil, fmt.Errorf("%q: %v", sc.Text(), err)
			}
			rw := get(m[1])
			if rw.paired == 0 || q < rw.paired {
				rw.paired = q
			}
			continue
		}
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
		rw := get(m[1])
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
	fmt.Fprintln(tw, "model\tcompiled ns/op\thandwritten ns/op\tratio\tpaired ratio\tallocs/op\t≤1.5×\t")
	for _, r := range rows {
		c, h := "—", "—"
		ratio, paired, verdict := "—", "—", "?"
		if r.compiled.seen {
			c = strconv.FormatFloat(r.compiled.ns, 'f', 0, 64)
		}
		if r.handwritten.seen {
			h = strconv.FormatFloat(r.handwritten.ns, 'f', 0, 64)
		}
		q := math.NaN()
		if r.compiled.seen && r.handwritten.seen {
			q = r.compiled.ns / r.handwritten.ns
			ratio = strconv.FormatFloat(q, 'f', 2, 64)
		}
		if r.paired > 0 {
			q = r.paired
			paired = strconv.FormatFloat(q, 'f', 2, 64)
		}
		switch {
		case math.IsNaN(q) || !r.compiled.seen:
			ok = false
		case q > target || r.compiled.allocs != 0:
			verdict, ok = "NO", false
		default:
			verdict = "yes"
		}
		allocs := "—"
		if r.compiled.seen && r.compiled.allocs >= 0 {
			allocs = strconv.Itoa(r.compiled.allocs)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.model, c, h, ratio, paired, allocs, verdict)
	}
	tw.Flush()
	return ok
}
