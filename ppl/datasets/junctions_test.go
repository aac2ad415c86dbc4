package datasets_test

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/ppl/datasets"
)

var update = flag.Bool("update", false, "write data/junctions*.csv from the simulation")

// junctions simulates the accidents data (see files.go): the file's
// bytes, and the new junctions' file.
func junctions() (data, planned []byte) {
	rng := rand.New(rand.NewPCG(2026, 1127))
	districts := []string{"Ashby", "Bramley", "Carrow", "Dunmore", "Elston", "Fenwick", "Garth", "Holm", "Ilsby", "Kelby", "Langley", "Marston", "Norbury", "Oakham", "Pelham"}
	effect := map[string]float64{}
	for _, d := range districts {
		effect[d] = 0.4 * rng.NormFloat64()
	}
	layouts := map[string]float64{"crossroads": 0, "roundabout": -0.6, "tjunction": -0.3}
	poisson := func(lambda float64) int { // Knuth's method, for small rates
		l, k, p := math.Exp(-lambda), 0, 1.0
		for {
			p *= rng.Float64()
			if p <= l {
				return k
			}
			k++
		}
	}
	var b bytes.Buffer
	b.WriteString("junction,district,layout,traffic,years,log_years,accidents\n")
	for i := 0; i < 300; i++ {
		d := districts[rng.IntN(len(districts))]
		u := rng.Float64()
		layout := "crossroads"
		switch {
		case u > 0.7:
			layout = "tjunction"
		case u > 0.4:
			layout = "roundabout"
		}
		traffic := math.Round(10*math.Exp(2+0.45*rng.NormFloat64())) / 10
		years := 1 + rng.IntN(6)
		rate := math.Exp(-0.5 + 0.1*traffic + layouts[layout] + effect[d])
		fmt.Fprintf(&b, "J%03d,%s,%s,%.1f,%d,%.4f,%d\n", i+1, d, layout, traffic, years, math.Log(float64(years)), poisson(float64(years)*rate))
	}
	planned = []byte("junction,district,layout,traffic,years,log_years\n" +
		"P1,Ashby,crossroads,12.0,1,0.0000\n" +
		"P2,Ashby,roundabout,12.0,1,0.0000\n" +
		"P3,Holm,tjunction,5.0,1,0.0000\n" +
		"P4,Oakham,crossroads,20.0,1,0.0000\n")
	return b.Bytes(), planned
}

// TestJunctionsFile: the committed files are the simulation's output
// (go test -run TestJunctionsFile -update ./ppl/datasets writes them),
// and Path gives a readable copy of each.
func TestJunctionsFile(t *testing.T) {
	data, planned := junctions()
	for name, want := range map[string][]byte{"junctions.csv": data, "junctions_new.csv": planned} {
		if *update {
			if err := os.WriteFile(filepath.Join("data", name), want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(datasets.Path(name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what the simulation writes (run with -update after changing it)", name)
		}
	}
	if got := strings.Join(datasets.Names(), " "); got != "junctions.csv junctions_new.csv" {
		t.Errorf("Names() = %s", got)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "junctions.csv, junctions_new.csv") {
			t.Errorf("Path of an unknown name: %v, want a panic listing the names", r)
		}
	}()
	datasets.Path("nope.csv")
}
