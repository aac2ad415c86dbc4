package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gobayes/gobayes/ppl/infer"
	"github.com/gobayes/gobayes/ppl/lockstep"
)

func main() {
	chains := flag.Int("chains", 1_000_000, "number of chains")
	steps := flag.Int("steps", 1000, "steps per chain")
	scalar := flag.Bool("scalar", true, "also run the scalar Go loop")
	block := flag.Int("block", 0, "chains per lockstep block (0: default)")
	profile := flag.String("cpuprofile", "", "write a CPU profile of the lockstep run to this file")
	flag.Parse()

	c, err := mixtureModel().Compile()
	if err != nil {
		log.Fatal(err)
	}
	draws := float64(*chains) * float64(*steps)
	fmt.Printf("gauss_mix4 RWMH, N(0, 0.1) proposal: %d chains × %d steps = %.3g draws, GOMAXPROCS %d\n",
		*chains, *steps, draws, runtime.GOMAXPROCS(0))

	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
	}
	cpu0, t0 := cpuSeconds(), time.Now()
	res, err := lockstep.Run(context.Background(), c, lockstep.Config{
		Sampler: infer.RWMH, Chains: *chains, NoWarmup: true, Draws: *steps, Scale: 0.1, Seed: 1, Block: *block, Init: []float64{0},
	})
	if err != nil {
		log.Fatal(err)
	}
	wall, cpu := time.Since(t0).Seconds(), cpuSeconds()-cpu0
	if *profile != "" {
		pprof.StopCPUProfile()
	}
	fmt.Printf("lockstep: %.2f s wall, %.2f s CPU, %.1f ns CPU per draw; state %.1f MB; mean %.4f, variance %.4f\n",
		wall, cpu, 1e9*cpu/draws, float64(res.StateBytes)/1e6, res.Moments.Mean[0], res.Moments.Var[0])
	fmt.Printf("peak resident memory so far: %.1f MB\n", peakMB())

	if *scalar {
		cpu0, t0 = cpuSeconds(), time.Now()
		mean, variance := scalarLoop(*chains, *steps)
		wall, cpu = time.Since(t0).Seconds(), cpuSeconds()-cpu0
		fmt.Printf("scalar loop: %.2f s wall, %.2f s CPU, %.1f ns CPU per draw; mean %.4f, variance %.4f\n",
			wall, cpu, 1e9*cpu/draws, mean, variance)
	}
	// The mixture's exact mean and variance, for comparison of both runs
	// (after 1000 steps of 0.1 from 0 the chains have not reached it).
	m, v := 0.0, 0.0
	for k := range mixWeight {
		m += mixWeight[k] * mixLoc[k]
		v += mixWeight[k] * (mixScale[k]*mixScale[k] + mixLoc[k]*mixLoc[k])
	}
	fmt.Printf("target: mean %.4f, variance %.4f\n", m, v-m*m)
}

// scalarLoop is the plain Go sampler: one chain after another, each with
// its own PCG stream, on every core, keeping each chain's last state's
// running moments as the lockstep run does.
func scalarLoop(chains, steps int) (mean, variance float64) {
	d := newMixtureDensity()
	workers := runtime.GOMAXPROCS(0)
	sums := make([][2]float64, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var s, s2 float64
			for c := w; c < chains; c += workers {
				rng := rand.New(rand.NewPCG(1, uint64(c)))
				x := 0.0
				p := d.at(x)
				m, m2 := 0.0, 0.0
				for i := 1; i <= steps; i++ {
					y := x + 0.1*rng.NormFloat64()
					q := d.at(y)
					if rng.Float64()*p < q {
						x, p = y, q
					}
					dx := x - m
					m += dx / float64(i)
					m2 += dx * (x - m)
				}
				s += m
				s2 += m2 + float64(steps)*m*m
			}
			sums[w] = [2]float64{s, s2}
		}(w)
	}
	wg.Wait()
	var s, s2 float64
	for _, v := range sums {
		s += v[0]
		s2 += v[1]
	}
	n := float64(chains) * float64(steps)
	mean = s / float64(chains)
	return mean, (s2 - n*mean*mean) / (n - 1)
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// peakMB is the process's peak resident set (VmHWM), in MB.
func peakMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return math.NaN()
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:")), "%g", &kb)
			return kb / 1000
		}
	}
	return math.NaN()
}
