package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"

	"github.com/gobayes/gobayes/install"
	"github.com/gobayes/gobayes/interp"
	"github.com/gobayes/gobayes/interp/supervisor"
	"github.com/gobayes/gobayes/kernel"
)

// kernelMemoryLimit is the kernel process's soft memory limit
// (debug.SetMemoryLimit; GOMEMLIMIT overrides it). The interpreter runs in
// the worker, under a limit of its own.
const kernelMemoryLimit = 128 << 20

// version is the release; builds from a checkout say so in `gobayes version`.
const version = "0.1.0"

const usage = `usage:
  gobayes install [--user | --prefix DIR]   install the Jupyter kernelspec (default --user)
  gobayes kernel -f CONNECTION_FILE         run the kernel (Jupyter starts this)
  gobayes version                           print the version
  gobayes worker                            the interpreter process (started by the kernel)
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var code int
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "kernel":
		code = runKernel(args)
	case "install":
		code = runInstall(args, os.Stdout, os.Stderr)
	case "version", "--version", "-version":
		fmt.Println(versionLine())
	case "worker":
		// Jupyter's signal_kernel sends SIGINT to the kernel's process
		// group, the worker included; the kernel interrupts the worker by
		// message, so the signal must not kill it.
		signal.Ignore(os.Interrupt)
		os.Exit(supervisor.WorkerMain())
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		fmt.Fprintf(os.Stderr, "gobayes: unknown command %q\n%s", cmd, usage)
		code = 2
	}
	os.Exit(code)
}

// versionLine names this release and the versions of the Go toolchain and
// the interpreter and ZeroMQ modules it was built with.
func versionLine() string {
	s := "gobayes " + version + " (" + runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			switch d.Path {
			case "github.com/traefik/yaegi":
				s += ", yaegi " + d.Version
			case "github.com/go-zeromq/zmq4":
				s += ", zmq4 " + d.Version
			}
		}
	}
	return s + ", " + runtime.GOOS + "/" + runtime.GOARCH + ")"
}

// executable is the absolute path of this binary, symlinks resolved, so
// that the kernelspec and the worker command survive a change of PATH.
func executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("gobayes: cannot find this binary's path: %w", err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return filepath.Abs(exe)
}

func runInstall(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	user := fs.Bool("user", false, "install into the user's Jupyter data directory (the default)")
	prefix := fs.String("prefix", "", "install into `DIR`/share/jupyter/kernels/gobayes")
	memory := fs.String("memory-limit", "", "cap each kernel's interpreter at `SIZE` (4GiB, 512MiB, 25%); the default is half the memory the kernel can see (the machine's, its container's, JupyterHub's MEM_LIMIT)")
	output := fs.String("output-limit", "", "cap what one cell may print and display at `SIZE` (64MiB); the rest is cut with a notice; the default is 16 MiB")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	env := map[string]string{}
	if *memory != "" {
		if _, err := supervisor.MemoryLimitFromEnv(*memory); err != nil {
			fmt.Fprintln(stderr, "gobayes install: --memory-limit:", err)
			return 2
		}
		env[supervisor.MemoryLimitEnv] = *memory
	}
	if *output != "" {
		if _, err := interp.OutputLimitFromEnv(*output); err != nil {
			fmt.Fprintln(stderr, "gobayes install: --output-limit:", err)
			return 2
		}
		env[interp.OutputLimitEnv] = *output
	}
	if *user && *prefix != "" {
		fmt.Fprintln(stderr, "gobayes install: give --user or --prefix DIR, not both")
		return 2
	}
	var dir string
	if *prefix != "" {
		dir = install.PrefixDir(*prefix)
	} else {
		d, err := install.UserDir()
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		dir = d
	}
	exe, err := executable()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if _, err := install.KernelspecEnv(dir, exe, env); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "installed kernelspec %s in %s\n", install.Name, dir)
	return 0
}

// watchParent stops the kernel when the process that started it exits, as
// ipykernel does: jupyter_client names itself in JPY_PARENT_PID, and a
// kernel whose client died without shutting it down must not linger.
func watchParent(stop func(), lg *log.Logger) {
	parent, err := strconv.Atoi(os.Getenv("JPY_PARENT_PID"))
	if err != nil || parent <= 1 || os.Getppid() != parent {
		return
	}
	go func() {
		for range time.Tick(time.Second) {
			if os.Getppid() != parent {
				lg.Printf("the process that started the kernel (pid %d) is gone; stopping", parent)
				stop()
				return
			}
		}
	}()
}

func runKernel(args []string) int {
	fs := flag.NewFlagSet("kernel", flag.ContinueOnError)
	file := fs.String("f", "", "the connection `FILE` Jupyter writes")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	lg := log.New(os.Stderr, "gobayes: ", log.LstdFlags)
	// The kernel keeps Go's default GOGC (100): its live heap is small and
	// fixed (the replay guard's arrays are off the heap), so the heap it
	// grows to, a multiple of that, stays near its size after start; what
	// its collections cost per cell is measured in bench/README.md (the
	// soak).
	// The worker keeps the default too: its heap is the user's data.
	if os.Getenv("GOMEMLIMIT") == "" {
		// What passes through the kernel is bounded (a message by
		// kernel.Config.MaxMessage, a cell's output by the output limit, the
		// history by its limit) but its garbage is not returned at once:
		// past this the collector runs harder and gives memory back to the
		// system, so the kernel's footprint follows what it holds.
		debug.SetMemoryLimit(kernelMemoryLimit)
	}
	outputLimit, err := interp.OutputLimitFromEnv(os.Getenv(interp.OutputLimitEnv))
	if err != nil {
		lg.Printf("%v; using the default, %s", err, interp.FormatBytes(interp.DefaultOutputLimit))
		outputLimit = interp.DefaultOutputLimit
	}
	if *file == "" {
		lg.Print("kernel: -f CONNECTION_FILE is required (Jupyter passes it; see the kernelspec)")
		return 2
	}
	info, err := kernel.ReadConnectionFile(*file)
	if err != nil {
		lg.Print(err)
		return 1
	}
	exe, err := executable()
	if err != nil {
		lg.Print(err)
		return 1
	}
	engine := startEngine(func() (interp.Engine, error) {
		return supervisor.New(supervisor.Options{Command: []string{exe, "worker"}})
	})
	k, err := kernel.New(kernel.Config{
		Engine: engine, Scheme: info.SignatureScheme, Key: info.Key, Version: version, Log: lg,
		OutputLimit: outputLimit,
	}, nil)
	if err != nil {
		lg.Print(err)
		return 1
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// SIGINT interrupts the running cell, as in IPython; SIGTERM stops.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		for s := range sigs {
			if s == os.Interrupt {
				k.Interrupt()
				continue
			}
			cancel()
		}
	}()
	watchParent(cancel, lg)
	watchProfileSignal(lg)
	if err := k.Serve(ctx, info); err != nil {
		lg.Print(err)
		return 1
	}
	return 0
}
