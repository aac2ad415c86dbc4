"""Soak benchmark (issue 13): the gobayes kernel under a long, fast load with
two clients attached, reporting memory growth and latency.

  phase 1  N executes (default 10,000) of small cells, alternating between
           two clients of the same kernel; each execute_request → its idle
           status is timed (p50, p99, max)
  phase 2  one cell that updates a display D times per second (default 100)
           for S seconds (default 60) while both clients receive iopub; the
           updates each client saw are counted

The RSS of the kernel process and of its interpreter worker (from /proc)
are read after a warm-up, after phase 1 and after phase 2. Targets: each
grows under 10% over the soak; no lost or failed request.

  /usr/bin/python3 bench/soak/soak.py [--executes 10000] [--rate 100] [--seconds 60] [--profile DIR [--cpu]]

--profile DIR starts the kernel with GOBAYES_PROFILE_DIR=DIR and signals it
(SIGUSR1) at each of the three readings, so that DIR holds heap-1..3.pprof and
metrics-1..3.txt, and with --cpu (GOBAYES_PROFILE_CPU=1) cpu-1..3.pprof too
(cpu-2 is the kernel's CPU over the executes, cpu-3 over the display updates;
the CPU profiler's own memory then counts in the kernel's RSS), with the kernel's /proc status and
smaps before each in smaps-1..3.txt (compare: go tool pprof -base
DIR/heap-1.pprof bin/gobayes DIR/heap-3.pprof). The profile's collection
happens after each RSS reading; symbolizing a profile touches pages of the
binary, which shows in the next reading's file-backed RSS.
"""
import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench", "kernel"))
import bench as kbench  # noqa: E402  (install_gobayes, wait_idle, wait_reply, wait_iopub_live)


def rss_kib(pid, field="VmRSS"):
    """A /proc/PID/status field of pid in KiB (VmRSS; RssAnon, RssFile: its
    anonymous memory and the pages of its binary); 0 when it is gone."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except FileNotFoundError:
        pass
    return 0


def tree_rss_kib(pid):
    """(RSS of the kernel process, RSS of all its descendants: the
    interpreter's worker), in KiB; the kernel's is a triple (RSS, anonymous,
    file-backed)."""
    kernel, workers, todo = (rss_kib(pid), rss_kib(pid, "RssAnon"), rss_kib(pid, "RssFile")), 0, children(pid)
    while todo:
        p = todo.pop()
        workers += rss_kib(p)
        todo += children(p)
    return kernel, workers


def cpu_seconds(pid):
    """User + system CPU time of pid so far, in seconds."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid):
    """The child processes of pid: those of each of its threads (a Go
    program starts a process from whichever thread runs the goroutine)."""
    out = []
    try:
        for task in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                out += [int(c) for c in f.read().split()]
    except FileNotFoundError:
        pass
    return out


def profile(pid, args, n):
    """With --profile, has the kernel write its n-th heap profile and
    metrics, and waits for them."""
    if not args.profile:
        return
    with open(os.path.join(args.profile, "smaps-%d.txt" % n), "w") as out:
        for src in ("/proc/%d/status" % pid, "/proc/%d/smaps" % pid):
            with open(src) as f:
                out.write(f.read())
    os.kill(pid, signal.SIGUSR1)
    path = os.path.join(args.profile, "metrics-%d.txt" % n)
    deadline = time.monotonic() + 30
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.1)


def execute(kc, code, timeout=60):
    msg_id = kc.execute(code)
    kbench.wait_idle(kc, msg_id, timeout)
    reply = kbench.wait_reply(kc, msg_id, timeout)
    return reply["content"]["status"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--executes", type=int, default=10000)
    ap.add_argument("--rate", type=int, default=100)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--profile", metavar="DIR", help="write the kernel's heap profiles and runtime metrics at each reading into DIR")
    ap.add_argument("--cpu", action="store_true", help="with --profile, CPU profiles of the kernel between the readings too")
    args = ap.parse_args()
    if args.profile:
        os.environ["GOBAYES_PROFILE_DIR"] = os.path.abspath(args.profile)
        if args.cpu:
            os.environ["GOBAYES_PROFILE_CPU"] = "1"
    from jupyter_client.manager import KernelManager

    with tempfile.TemporaryDirectory() as tmp:
        kbench.install_gobayes(tmp)
        km = KernelManager(kernel_name="gobayes")
        km.start_kernel()
        pid = km.provisioner.process.pid
        a, b = km.client(), km.client()
        for kc in (a, b):
            kc.start_channels()
            kbench.wait_iopub_live(kc)
        if execute(a, 'import (\n    "fmt"\n\n    "github.com/gobayes/gobayes/display"\n)\nn := 0') != "ok":
            sys.exit("soak: the set-up cell failed")
        for _ in range(200):  # warm-up
            execute(a, "n++")
        rss0 = list(tree_rss_kib(pid))
        profile(pid, args, 1)

        # Phase 1: executes alternating between the two clients.
        lat, failed = [], 0
        cpu0 = cpu_seconds(pid)
        t0 = time.perf_counter()
        for i in range(args.executes):
            kc = (a, b)[i % 2]
            s = time.perf_counter()
            if execute(kc, "n++\nn") != "ok":
                failed += 1
            lat.append(time.perf_counter() - s)
            # The other client's iopub also carries this request's
            # messages: drain it so its queue does not grow.
            other = (b, a)[i % 2]
            while True:
                try:
                    other.get_iopub_msg(timeout=0)
                except Exception:
                    break
        wall1 = time.perf_counter() - t0
        cpu1 = cpu_seconds(pid) - cpu0
        msg_id = a.execute("fmt.Println(n)")
        got = ""
        while True:
            m = a.get_iopub_msg(timeout=30)
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            if m["msg_type"] == "stream":
                got += m["content"]["text"].strip()
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                break
        kbench.wait_reply(a, msg_id)
        rss1 = list(tree_rss_kib(pid))
        profile(pid, args, 2)

        # Phase 2: a cell updating a display rate times a second, for seconds.
        seen = {"a": 0, "b": 0}
        stop = threading.Event()

        def listen(name, kc):
            while not stop.is_set():
                try:
                    m = kc.get_iopub_msg(timeout=0.2)
                except Exception:
                    continue
                if m["msg_type"] == "update_display_data":
                    seen[name] += 1

        threads = [threading.Thread(target=listen, args=(n, kc), daemon=True) for n, kc in (("a", a), ("b", b))]
        for t in threads:
            t.start()
        total = args.rate * args.seconds
        cell = ('import "time"\nh := display.NewHandle()\nh.Show(display.HTMLBundle("<b>0</b>"))\n'
                'tick := time.NewTicker(time.Second / %d)\n'
                'for i := 1; i <= %d; i++ {\n    <-tick.C\n    h.Update(display.HTMLBundle(fmt.Sprintf("<b>%%d</b>", i)))\n}\ntick.Stop()' % (args.rate, total))
        t0 = time.perf_counter()
        msg_id = a.execute(cell)
        reply = kbench.wait_reply(a, msg_id, timeout=args.seconds * 3 + 60)
        wall2 = time.perf_counter() - t0
        time.sleep(0.5)
        stop.set()
        for t in threads:
            t.join()
        rss2 = list(tree_rss_kib(pid))
        profile(pid, args, 3)
        for kc in (a, b):
            kc.stop_channels()
        km.shutdown_kernel(now=True)

    lat.sort()
    q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))] * 1000
    print("soak: %d executes from two clients in %.1f s (%d failed); the counter reads %s (want %d)" % (args.executes, wall1, failed, got, 200 + args.executes))
    print("  execute → idle: p50 %.2f ms, p99 %.2f ms, max %.1f ms; the kernel process's CPU time %.3f ms an execute"
          % (q(0.5), q(0.99), lat[-1] * 1000, 1000 * cpu1 / args.executes))
    print("  display updates: %d asked at %d/s over %.1f s; client A saw %d, client B saw %d; cell %s"
          % (total, args.rate, wall2, seen["a"], seen["b"], reply["content"]["status"]))
    print("  the kernel's anonymous memory: %.1f → %.1f → %.1f MiB; its binary's pages: %.1f → %.1f → %.1f MiB"
          % tuple(r[0][j] / 1024 for j in (1, 2) for r in (rss0, rss1, rss2)))
    for r in (rss0, rss1, rss2):
        r[0] = r[0][0]
    growth = []
    for i, name in enumerate(("kernel", "worker")):
        g = (rss2[i] - rss0[i]) / rss0[i]
        growth.append(g)
        print("  RSS of the %s: %.1f MiB after warm-up, %.1f MiB after the executes, %.1f MiB after the updates: growth %+.1f%%"
              % (name, rss0[i] / 1024, rss1[i] / 1024, rss2[i] / 1024, 100 * g))
    ok = failed == 0 and got == str(200 + args.executes) and reply["content"]["status"] == "ok" and max(growth) < 0.10
    print("target RSS growth < 10%%, nothing failed: %s" % ("met" if ok else "MISSED"))


if __name__ == "__main__":
    main()
