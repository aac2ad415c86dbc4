package ppl

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	"github.com/gobayes/gobayes/accel"
	_ "github.com/gobayes/gobayes/accel/remote" // registers "cuda": the GPU worker
	"github.com/gobayes/gobayes/ppl/infer"
)

// Backend chooses where the lockstep samplers (RWMH, ChEES and MEADS)
// evaluate the model:
//
//   - "cpu": every core of this machine (accel/vec);
//   - "cuda": the GPU, through the worker `make cuda` builds; an error
//     names what is missing when there is no worker, driver or device;
//   - "mpi": the ranks of an MPI job (Open MPI's mpirun, the rank program
//     `make mpi` builds) on this machine or a Cluster, started for this
//     run and ended after it. NUTS and HMC evaluate a sharded model there:
//     the observed rows are split into one shard per rank (unless Shards
//     chose a number), each rank holds its blocks of rows, sent once, and
//     every gradient is a broadcast of the position and a gather of the
//     ranks' sums. RWMH, ChEES and MEADS spread their chains over the
//     ranks. Ranks sets how many (default one per core here);
//     see package accel/mpi, which the program must link (the notebook
//     kernel does; a Go program imports _ "github.com/gobayes/gobayes/accel/mpi");
//   - "auto" (the default): the GPU when a worker is installed and the
//     run is wide enough to pay for it (accel.GPUMinChains chains, or
//     accel.GPUMinWork chain-slots; accel.GPUMinChainsWhole chains for
//     RWMH and ChEES, whose whole iterations run on the GPU), the CPU
//     otherwise.
//
// The environment variable GOBAYES_ACCEL gives the default for a whole
// session. The summary's caption says what was used and, under "auto",
// why. NUTS with "cuda" runs whole transitions on the GPU, one thread
// per chain, each chain adapting a diagonal metric (package lockstep's
// NUTS; with DenseMetric, or a worker without that kernel, one position
// per call as below). "auto" keeps NUTS on the CPU: no crossover has been
// measured on a GPU for it yet. HMC (and MAP, ADVI) evaluate one position
// per call through the same contract: on the CPU by default and under
// "auto"; on the GPU when asked for "cuda", which works but pays a device
// round trip per gradient.
func Backend(name string) SampleOption {
	return func(s *sampleSettings) { s.backend = name }
}

// Ranks is the number of processes of Backend("mpi")'s job: default one
// per core of this machine, or a Cluster's total.
func Ranks(n int) SampleOption {
	return func(s *sampleSettings) {
		if n < 1 {
			s.fail(fmt.Sprintf("Ranks(%d): want 1 or more processes", n))
		}
		s.ranks = n
	}
}

// Cluster runs Backend("mpi")'s job on the hosts of a named cluster of the
// clusters file (GOBAYES_CLUSTERS, or ~/.config/gobayes/clusters.json; see
// package accel/mpi): its hosts, ranks per host, and the path of the rank
// program there. It implies Backend("mpi").
func Cluster(name string) SampleOption {
	return func(s *sampleSettings) { s.cluster, s.backend = name, "mpi" }
}

// backendChoice is a resolved Backend: nil for the CPU, and the caption;
// job is the MPI job the run started, ended after it.
type backendChoice struct {
	b       accel.Backend
	caption string
	job     accel.Job
	// nuts: try NUTS on the device (package lockstep), else one
	// position per call with caption's note.
	nuts bool
}

// chooseBackend resolves the name of Backend (or GOBAYES_ACCEL) for a run
// of cfg on c.
func chooseBackend(s *sampleSettings, c *Compiled, cfg infer.Config) (backendChoice, error) {
	name, from := s.backend, "ppl.Backend"
	if name == "" {
		name, from = os.Getenv("GOBAYES_ACCEL"), "GOBAYES_ACCEL"
	}
	if name == "" {
		name = "auto"
	}
	lock := usesLockstep(cfg)
	if name != "mpi" && s.ranks != 0 {
		return backendChoice{}, fmt.Errorf("Ranks(%d) is the size of an MPI job: add ppl.Backend(\"mpi\") (the backend is %q)", s.ranks, name)
	}
	switch name {
	case "mpi":
		ranks := s.ranks
		if ranks == 0 && s.cluster == "" {
			ranks = runtime.NumCPU()
		}
		// By name, as "cuda": the program that runs ppl links accel/mpi
		// (the notebook kernel does), ppl does not.
		job, err := accel.StartJob("mpi", accel.JobConfig{Ranks: ranks, Cluster: s.cluster})
		if err != nil {
			return backendChoice{}, fmt.Errorf("%s(%q): %v", from, name, err)
		}
		return backendChoice{b: job, caption: "mpi (" + job.Info() + ")", job: job}, nil
	case "cpu":
		return backendChoice{caption: "cpu"}, nil
	case "cuda":
		b, err := accel.ByName("cuda")
		if err != nil {
			return backendChoice{}, fmt.Errorf("%s(%q): %v", from, name, err)
		}
		caption := "cuda" + deviceInfo(b)
		if !lock && samplerName(cfg) == infer.NUTS.String() && !cfg.Dense {
			// NUTS runs on the device where the worker can (Sample).
			return backendChoice{b: b, caption: caption, nuts: true}, nil
		}
		if !lock {
			// Through the same contract, one position per call: each
			// gradient is a round trip to the device, far slower than a
			// core for most models. Auto never picks this.
			caption += fmt.Sprintf(", one position per call (%s; ChEES or MEADS with ppl.Chains(1024) fill the device)", samplerName(cfg))
		}
		return backendChoice{b: b, caption: caption}, nil
	case "auto":
		if !lock {
			return backendChoice{}, nil
		}
		w := accel.Workload{Chains: cfg.Chains, Slots: c.Program().Size}
		if d, err := cfg.Defaults(0, true); err == nil {
			w.Chains = d.Chains // the sampler's default when cfg says none
		}
		minChains, why := accel.GPUMinChains, ""
		if s := samplerName(cfg); s == infer.ChEES.String() || s == infer.RWMH.String() {
			// Their whole iterations run on the device: it pays sooner.
			minChains, why = accel.GPUMinChainsWhole, ", whole iterations on the GPU"
		}
		if w.Chains < minChains && w.Chains*w.Slots < accel.GPUMinWork {
			return backendChoice{}, nil
		}
		b, err := accel.ByName("cuda")
		if errors.Is(err, accel.ErrNotInstalled) {
			return backendChoice{}, nil // no GPU worker: the CPU, as always
		}
		if err != nil {
			return backendChoice{caption: fmt.Sprintf("cpu (auto: the GPU did not start: %v)", err)}, nil
		}
		return backendChoice{b: b, caption: fmt.Sprintf("cuda%s (auto: %d chains × %d slots%s)", deviceInfo(b), w.Chains, w.Slots, why)}, nil
	}
	return backendChoice{}, fmt.Errorf("%s(%q): unknown backend; use \"cpu\", \"cuda\", \"mpi\" or \"auto\"", from, name)
}

func samplerName(cfg infer.Config) string {
	if cfg.Sampler == infer.DefaultSampler {
		return infer.NUTS.String()
	}
	return cfg.Sampler.String()
}

// deviceInfo is ", <device>" for a backend that describes its device.
func deviceInfo(b accel.Backend) string {
	if i, ok := b.(interface{ Info() string }); ok && i.Info() != "" {
		return " (" + i.Info() + ")"
	}
	return ""
}
