package mpi

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/ir"
	"github.com/gobayes/gobayes/accel/remote"
)

// WorkerName is the rank program `make mpi` builds (cmd/gobayes-mpi).
const WorkerName = "gobayes-mpi"

// Config says where a job runs: Ranks processes on this machine, or the
// hosts of a named Cluster.
type Config struct {
	// Ranks is the number of processes; 0 takes the cluster's total, or
	// 2 on this machine.
	Ranks int
	// Cluster names an entry of the clusters file (ClustersFile); empty
	// for this machine.
	Cluster string
	// Threads is the goroutines each rank evaluates its share of many
	// chains on (0: 1 per rank, the usual one rank per core).
	Threads int
	// Timeout bounds the wait for rank 0 to connect (0: 60 s).
	Timeout time.Duration
	// ScatterChunk is the bytes of one round of placing data on the ranks
	// (0: DefaultScatterChunk); the tests make it small.
	ScatterChunk int
}

// Cluster is one entry of the clusters file: where the ranks run and how
// mpirun reaches them.
type Cluster struct {
	// Hosts and the ranks each takes, in rank order.
	Hosts []Host `json:"hosts"`
	// Binary is the path of gobayes-mpi on the hosts (default: the one
	// found here, which must then be at the same path there).
	Binary string `json:"binary,omitempty"`
	// Mpirun is the launcher (default "mpirun" on PATH); Args go to it
	// before the program, for example ["--mca", "btl_tcp_if_include", "eth0"].
	Mpirun string   `json:"mpirun,omitempty"`
	Args   []string `json:"args,omitempty"`
	// Driver is the address the ranks reach this machine at (default its
	// host name): rank 0 connects back to the kernel there.
	Driver string `json:"driver,omitempty"`
	// Allocation leaves the hosts to mpirun: inside a batch allocation
	// (Slurm's sbatch or salloc, PBS) Open MPI reads the allocated nodes
	// itself. Hosts is then empty, and the number of ranks is Ranks, or
	// SLURM_NTASKS.
	Allocation bool `json:"allocation,omitempty"`
}

// Host is a host of a cluster and the number of ranks it runs.
type Host struct {
	Name  string `json:"name"`
	Ranks int    `json:"ranks"`
}

// ClustersFile is the path of the clusters file: GOBAYES_CLUSTERS, or
// clusters.json in the user's config directory's gobayes folder
// (~/.config/gobayes/clusters.json). It maps names to Clusters:
//
//	{"lab": {"hosts": [{"name": "node1", "ranks": 16}, {"name": "node2", "ranks": 16}],
//	         "binary": "/opt/gobayes/bin/gobayes-mpi"}}
func ClustersFile() string {
	if p := os.Getenv("GOBAYES_CLUSTERS"); p != "" {
		return p
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		dir = filepath.Join(os.Getenv("HOME"), ".config")
	}
	return filepath.Join(dir, "gobayes", "clusters.json")
}

// LoadCluster reads the cluster name from the clusters file.
func LoadCluster(name string) (*Cluster, error) {
	path := ClustersFile()
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cluster %q: %v; write it there (see accel/mpi's doc) or set GOBAYES_CLUSTERS", name, err)
	}
	var all map[string]*Cluster
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, fmt.Errorf("cluster %q: %s is not a clusters file: %v", name, path, err)
	}
	c, ok := all[name]
	if !ok {
		var names []string
		for n := range all {
			names = append(names, n)
		}
		return nil, fmt.Errorf("cluster %q is not in %s (it has %v)", name, path, names)
	}
	if len(c.Hosts) == 0 && !c.Allocation {
		return nil, fmt.Errorf("cluster %q in %s lists no hosts (give hosts, or \"allocation\": true inside a Slurm or PBS allocation)", name, path)
	}
	for _, h := range c.Hosts {
		if h.Name == "" || h.Ranks < 1 {
			return nil, fmt.Errorf("cluster %q in %s: every host needs a name and at least one rank", name, path)
		}
	}
	return c, nil
}

// FindWorker returns the path of gobayes-mpi: GOBAYES_MPI_WORKER, a file
// beside the running executable, or PATH.
func FindWorker() (string, error) {
	if p := os.Getenv("GOBAYES_MPI_WORKER"); p != "" {
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), WorkerName)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath(WorkerName); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%w: the rank program %s was not found (GOBAYES_MPI_WORKER, beside the executable, PATH); build it with `make mpi` (needs Open MPI: apt-get install openmpi-bin libopenmpi-dev)",
		accel.ErrNotInstalled, WorkerName)
}

// Command is the mpirun command line of a job (without the environment
// that carries the control address): what Start runs, for the
// documentation's Slurm example and the tests.
func Command(cfg Config, cl *Cluster, worker string) (string, []string) {
	launcher := "mpirun"
	var args []string
	n := cfg.Ranks
	if cl != nil {
		if cl.Mpirun != "" {
			launcher = cl.Mpirun
		}
		var hosts []string
		total := 0
		for _, h := range cl.Hosts {
			hosts = append(hosts, fmt.Sprintf("%s:%d", h.Name, h.Ranks))
			total += h.Ranks
		}
		if n == 0 {
			n = total
		}
		if n == 0 {
			n, _ = strconv.Atoi(os.Getenv("SLURM_NTASKS"))
		}
		if len(hosts) > 0 {
			args = append(args, "--host", strings.Join(hosts, ","))
		}
		if cl.Binary != "" {
			worker = cl.Binary
		}
	} else {
		if n == 0 {
			n = 2
		}
		// This machine: more ranks than cores is allowed (a test of 3
		// ranks on 2 cores), and shared memory carries the messages.
		args = append(args, "--oversubscribe", "--mca", "btl", "self,vader")
	}
	if os.Geteuid() == 0 {
		args = append(args, "--allow-run-as-root")
	}
	args = append([]string{"-n", strconv.Itoa(n)}, args...)
	args = append(args, "-x", "GOBAYES_MPI_ADDR", "-x", "GOBAYES_MPI_TOKEN")
	if cl != nil {
		args = append(args, cl.Args...)
	}
	threads := cfg.Threads
	if threads == 0 {
		threads = 1
	}
	args = append(args, worker, "-threads", strconv.Itoa(threads))
	if cfg.ScatterChunk > 0 {
		args = append(args, "-chunk", strconv.Itoa(cfg.ScatterChunk))
	}
	return launcher, args
}

// Job is a running MPI job seen from the kernel: an accel backend
// ("mpi") whose rank 0 answers through the accel/remote protocol over a
// TCP connection it opened back to this process. Close it when the run
// ends: nothing is left running.
type Job struct {
	ranks  int
	info   string
	client *remote.Client
	conn   *countingConn
	cmd    *exec.Cmd
	out    *tail
	done   chan struct{} // closed when mpirun has exited
	werr   error         // mpirun's exit, once done is closed
	once   sync.Once
}

var _ accel.ShardedBackend = (*Job)(nil)

// Start launches a job (mpirun, the gobayes-mpi ranks) and waits for rank
// 0 to connect and greet. Its errors say what is missing (mpirun, the
// rank program, a cluster entry) or what mpirun printed.
func Start(cfg Config) (*Job, error) {
	if cfg.Ranks < 0 {
		return nil, fmt.Errorf("%d ranks: want 1 or more (0 for the default)", cfg.Ranks)
	}
	var cl *Cluster
	if cfg.Cluster != "" {
		var err error
		if cl, err = LoadCluster(cfg.Cluster); err != nil {
			return nil, err
		}
	}
	worker, err := FindWorker()
	if err != nil && (cl == nil || cl.Binary == "") {
		return nil, err
	}
	launcher, args := Command(cfg, cl, worker)
	if args[1] == "0" {
		return nil, fmt.Errorf("cluster %q leaves the hosts to the allocation, but the number of ranks is unknown: give ppl.Ranks(n), or run inside an allocation that sets SLURM_NTASKS", cfg.Cluster)
	}
	if _, err := exec.LookPath(launcher); err != nil {
		return nil, fmt.Errorf("%w: %s not found: install Open MPI (Debian: apt-get install openmpi-bin libopenmpi-dev)", accel.ErrNotInstalled, launcher)
	}
	// Where rank 0 reaches the kernel. On this machine, a Unix socket in a
	// directory of its own: nothing listens on the network. On a cluster,
	// the driver's address, bound to that address alone.
	var (
		ln   deadlineListener
		addr string
	)
	if cl == nil {
		dir, err := os.MkdirTemp("", "gobayes-mpi-")
		if err != nil {
			return nil, fmt.Errorf("mpi: a directory for rank 0's socket: %v", err)
		}
		defer os.RemoveAll(dir) // rank 0 is connected, or the job failed, when Start returns
		sock := filepath.Join(dir, "rank0.sock")
		l, err := net.Listen("unix", sock)
		if err != nil {
			return nil, fmt.Errorf("mpi: listening for rank 0: %v", err)
		}
		ln, addr = l.(*net.UnixListener), "unix:"+sock
	} else {
		host := cl.Driver
		if host == "" {
			if host, err = os.Hostname(); err != nil {
				return nil, err
			}
		}
		l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			return nil, fmt.Errorf("mpi: listening for rank 0 at the driver address %s: %v (set \"driver\" in the cluster's entry to an address of this machine the ranks reach)", host, err)
		}
		ln, addr = l.(*net.TCPListener), net.JoinHostPort(host, strconv.Itoa(l.Addr().(*net.TCPAddr).Port))
	}
	defer ln.Close()
	tok := make([]byte, 16)
	rand.Read(tok)
	token := hex.EncodeToString(tok)

	ranks, _ := strconv.Atoi(args[1]) // "-n", N
	if cl == nil {
		launcher, args = isolated(launcher, args)
	}
	cmd := exec.Command(launcher, args...)
	cmd.Env = append(os.Environ(), "GOBAYES_MPI_ADDR="+addr, "GOBAYES_MPI_TOKEN="+token)
	out := &tail{}
	cmd.Stdout, cmd.Stderr = out, out
	// Its own process group, so that Close can end mpirun and every local
	// rank at once; and mpirun dies with this process.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("mpi: starting %s: %v", launcher, err)
	}
	j := &Job{cmd: cmd, out: out, done: make(chan struct{})}
	go func() { j.werr = cmd.Wait(); close(j.done) }()

	timeout := cfg.Timeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	conn, err := j.accept(ln, token, timeout)
	if err != nil {
		j.kill()
		return nil, err
	}
	cc := &countingConn{Conn: conn}
	j.conn = cc
	c, err := remote.NewClient(cc, cc)
	if err != nil {
		j.kill()
		return nil, j.explain(err)
	}
	j.client, j.info = c, c.Info()
	j.ranks = ranks
	return j, nil
}

// deadlineListener is a TCP or Unix listener.
type deadlineListener interface {
	net.Listener
	SetDeadline(time.Time) error
}

// accept waits for rank 0's connection and token, or for mpirun to end.
func (j *Job) accept(ln deadlineListener, token string, timeout time.Duration) (net.Conn, error) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		select {
		case <-j.done:
			return nil, fmt.Errorf("%w: the MPI job ended before rank 0 connected (%s); mpirun printed:\n%s", accel.ErrUnavailable, exitText(j.werr), j.out)
		default:
		}
		ln.SetDeadline(time.Now().Add(200 * time.Millisecond))
		conn, err := ln.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return nil, err
		}
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		line, err := bufio.NewReader(conn).ReadString('\n')
		conn.SetReadDeadline(time.Time{})
		if err != nil || strings.TrimSpace(line) != token {
			conn.Close() // not our rank 0
			continue
		}
		return conn, nil
	}
	return nil, fmt.Errorf("%w: rank 0 did not connect within %v; mpirun printed:\n%s", accel.ErrUnavailable, timeout, j.out)
}

func init() {
	accel.RegisterJob("mpi", func(cfg accel.JobConfig) (accel.Job, error) {
		j, err := Start(Config{Ranks: cfg.Ranks, Cluster: cfg.Cluster})
		if err != nil {
			return nil, err // a nil *Job in the interface would not be nil
		}
		return j, nil
	})
}

var (
	_ accel.Job            = (*Job)(nil)
	_ accel.FileRowsReader = (*Job)(nil)
)

// ReadsFileRows is true: each rank reads its blocks' rows of files
// (accel/filerows), so they need not travel.
func (j *Job) ReadsFileRows() bool { return true }

// Name is "mpi".
func (j *Job) Name() string { return "mpi" }

// Info describes the job: the MPI library and where the ranks run.
func (j *Job) Info() string { return j.info }

// Traffic is the bytes sent to rank 0 and received from it so far on the
// control link (the benchmarks' bytes per gradient).
func (j *Job) Traffic() (sent, received int64) { return j.conn.w.Load(), j.conn.r.Load() }

// countingConn counts the bytes through a connection.
type countingConn struct {
	net.Conn
	r, w atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.r.Add(int64(n))
	return n, err
}

func (c *countingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.w.Add(int64(n))
	return n, err
}

// Ranks is the number of processes.
func (j *Job) Ranks() int { return j.ranks }

// Compile places the whole program on every rank (many chains, spread).
func (j *Job) Compile(p *ir.Program) (accel.Compiled, error) {
	c, err := j.client.Compile(p)
	if err != nil {
		return nil, j.explain(err)
	}
	return &jobProgram{Compiled: c, j: j}, nil
}

// CompileSharded sends each rank its blocks of rows, once.
func (j *Job) CompileSharded(main *ir.Program, blocks []*ir.Program) (accel.Compiled, error) {
	c, err := j.client.CompileSharded(main, blocks)
	if err != nil {
		return nil, j.explain(err)
	}
	return &jobProgram{Compiled: c, j: j}, nil
}

// Close ends the job: rank 0 sees the link close and tells the others to
// quit; a job that has not ended after a few seconds (a rank stuck in a
// long evaluation, a lost host) is killed with its process group.
func (j *Job) Close() error {
	j.once.Do(func() {
		if j.conn != nil {
			j.conn.Close()
		}
		select {
		case <-j.done:
		case <-time.After(5 * time.Second):
			j.kill()
		}
	})
	return nil
}

// kill ends mpirun and the local ranks now.
func (j *Job) kill() {
	syscall.Kill(-j.cmd.Process.Pid, syscall.SIGTERM)
	select {
	case <-j.done:
		return
	case <-time.After(2 * time.Second):
	}
	syscall.Kill(-j.cmd.Process.Pid, syscall.SIGKILL)
	<-j.done
}

// explain turns a failed call into an error that says the job ended and
// what mpirun printed (which rank died, and how), when it has.
func (j *Job) explain(err error) error {
	if !errors.Is(err, remote.ErrStopped) {
		return err // the backend's own error; the job runs on
	}
	select {
	case <-j.done:
	case <-time.After(3 * time.Second):
		return err // the link broke but mpirun has not ended (yet)
	}
	return fmt.Errorf("the MPI job ended (%s): %v; mpirun printed:\n%s", exitText(j.werr), err, j.out)
}

func exitText(err error) string {
	if err == nil {
		return "mpirun exited with status 0"
	}
	return "mpirun: " + err.Error()
}

// jobProgram adds the job's account of a failure to the client's errors.
type jobProgram struct {
	accel.Compiled
	j *Job
}

func (p *jobProgram) LogDensityGrad(xs, lps, grads []float64) error {
	if err := p.Compiled.LogDensityGrad(xs, lps, grads); err != nil {
		return p.j.explain(err)
	}
	return nil
}

func (p *jobProgram) Leapfrog(t *accel.Trajectories) error {
	if err := p.Compiled.Leapfrog(t); err != nil {
		return p.j.explain(err)
	}
	return nil
}

func (p *jobProgram) Close() error {
	select {
	case <-p.j.done:
		return nil // the job has ended: nothing to free
	default:
	}
	return p.Compiled.Close()
}

// tail keeps the last 4 KiB written to it (mpirun's output).
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if n := len(t.buf); n > 4096 {
		t.buf = append(t.buf[:0], t.buf[n-4096:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

// Connect is rank 0's side of the control link: it dials the kernel at
// GOBAYES_MPI_ADDR and presents GOBAYES_MPI_TOKEN.
func Connect() (net.Conn, error) {
	addr, token := os.Getenv("GOBAYES_MPI_ADDR"), os.Getenv("GOBAYES_MPI_TOKEN")
	if addr == "" || token == "" {
		return nil, fmt.Errorf("GOBAYES_MPI_ADDR and GOBAYES_MPI_TOKEN are not set: %s is started by the kernel's mpi backend, not by hand", WorkerName)
	}
	network := "tcp"
	if path, ok := strings.CutPrefix(addr, "unix:"); ok {
		network, addr = "unix", path
	}
	conn, err := net.DialTimeout(network, addr, 30*time.Second)
	if err != nil {
		return nil, err
	}
	if _, err := fmt.Fprintln(conn, token); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// isolated wraps a job on this machine so that it runs in a network
// namespace of its own, holding only a loopback interface: Open MPI's
// runtime (mpirun's out-of-band channel) listens on every interface, and
// its oob_tcp_if_include option chooses what it advertises, not what it
// binds, so only a namespace keeps it off the network. unshare makes an
// unprivileged user namespace for it (mpirun then runs as that
// namespace's root, hence --allow-run-as-root), and ip brings the
// namespace's loopback up. Where that cannot be done (no unshare or ip,
// user namespaces disabled), the job runs as before, and its runtime
// listens on every interface while it runs.
func isolated(launcher string, args []string) (string, []string) {
	ip := privateNetwork()
	if ip == "" {
		return launcher, args
	}
	if !slices.Contains(args, "--allow-run-as-root") {
		args = append([]string{"--allow-run-as-root"}, args...)
	}
	return "unshare", append([]string{"--user", "--map-root-user", "--net", "--", "/bin/sh", "-c",
		`"$0" link set lo up && exec "$@"`, ip, launcher}, args...)
}

var (
	privateNetworkOnce sync.Once
	privateNetworkIP   string
)

// privateNetwork is the path of ip when this machine can run a job in a
// network namespace of its own (tried once), "" when it cannot.
func privateNetwork() string {
	privateNetworkOnce.Do(func() {
		if _, err := exec.LookPath("unshare"); err != nil {
			return
		}
		ip, err := exec.LookPath("ip")
		if err != nil {
			for _, p := range []string{"/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip"} {
				if _, err := os.Stat(p); err == nil {
					ip = p
					break
				}
			}
		}
		if ip == "" {
			return
		}
		if exec.Command("unshare", "--user", "--map-root-user", "--net", "--", ip, "link", "set", "lo", "up").Run() == nil {
			privateNetworkIP = ip
		}
	})
	return privateNetworkIP
}
